import { useState } from "react";
import { useLocation } from "react-router";
import { Link } from "../../components/link";
import { ResetPasswordForm } from "../../features/auth/components/reset-password-form";
import { usePageTitle } from "../../components/page-title";
import { paths } from "#contract/paths";
import { AuthCard } from "./auth-card";

/** Where the emailed reset link leads: `?token=…`. */
export function ResetPasswordRoute() {
  usePageTitle("Set a new password");
  const token = new URLSearchParams(useLocation().search).get("token");
  const [done, setDone] = useState(false);
  return (
    <AuthCard title="Set a new password">
      {done ? (
        <p role="status" className="alert alert-success">
          Your password is changed, and every session of your account was signed out.
        </p>
      ) : token ? (
        <ResetPasswordForm token={token} onDone={() => setDone(true)} />
      ) : (
        <p role="alert" className="text-error">
          This page needs the link from the email. Ask for a new one below.
        </p>
      )}
      <p className="flex justify-center gap-4 text-sm">
        <Link to={paths.login} className="link link-primary">
          Login
        </Link>
        {!done && (
          <Link to={paths.forgotPassword} className="link">
            Ask for a new link
          </Link>
        )}
      </p>
    </AuthCard>
  );
}
