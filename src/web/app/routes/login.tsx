import { Navigate, useLocation, useNavigate } from "react-router";
import { Link } from "../../components/link";
import { LoginForm } from "../../features/auth/components/login-form";
import { SocialSignIn } from "../../features/auth/components/social-sign-in";
import { usePageTitle } from "../../components/page-title";
import { useSession } from "../../lib/session";
import { paths } from "#contract/paths";
import { ADMIN_ONLY } from "../guards";
import { returnToFrom } from "../return-to";
import { AuthCard } from "./auth-card";

export function LoginRoute() {
  usePageTitle("Login");
  const location = useLocation();
  const navigate = useNavigate();
  const { data: user } = useSession();
  const returnTo = returnToFrom(location);
  const search = new URLSearchParams(location.search);
  const socialError = search.get("error");
  // A social sign-in of an account with two-factor authentication comes back for the code.
  const codeStep = search.get("twoFactor") === "1";
  const signedOut = (location.state as { signedOut?: string } | null)?.signedOut;
  if (user) return <Navigate to={returnTo} replace />;
  return (
    <AuthCard title="Login">
      {signedOut === ADMIN_ONLY && (
        <p role="status" className="alert alert-info alert-soft">
          You were signed out: that page is for admins only. Sign in with an admin account to open
          it.
        </p>
      )}
      {socialError && (
        <p role="alert" className="text-error">
          Social sign-in failed ({socialError.replaceAll("_", " ")}). Please try again.
        </p>
      )}
      <LoginForm codeStep={codeStep} onSignedIn={() => navigate(returnTo, { replace: true })} />
      <p className="-mt-2 text-right text-sm">
        <Link to={paths.forgotPassword} className="link">
          Forgot password?
        </Link>
      </p>
      <SocialSignIn returnTo={returnTo} />
      <p className="text-center text-sm">
        New to PartsWorks?{" "}
        <Link to={paths.signup} className="link link-primary">
          Create an account
        </Link>
      </p>
    </AuthCard>
  );
}
