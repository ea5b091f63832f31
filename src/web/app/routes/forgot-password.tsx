import { Link } from "../../components/link";
import { ForgotPasswordForm } from "../../features/auth/components/forgot-password-form";
import { usePageTitle } from "../../components/page-title";
import { paths } from "#contract/paths";
import { AuthCard } from "./auth-card";

export function ForgotPasswordRoute() {
  usePageTitle("Forgot password");
  return (
    <AuthCard title="Forgot password?">
      <ForgotPasswordForm />
      <p className="text-center text-sm">
        <Link to={paths.login} className="link link-primary">
          Back to Login
        </Link>
      </p>
    </AuthCard>
  );
}
