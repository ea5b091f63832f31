import { useLocation, useNavigate } from "react-router";
import { Link } from "../../components/link";
import { SignupForm } from "../../features/auth/components/signup-form";
import { SocialSignIn } from "../../features/auth/components/social-sign-in";
import { usePageTitle } from "../../components/page-title";
import { paths } from "#contract/paths";
import { returnToFrom } from "../return-to";
import { AuthCard } from "./auth-card";

export function SignupRoute() {
  usePageTitle("Sign Up");
  const navigate = useNavigate();
  // Back where the visitor came from (`?from=`, a local path: an emailed invitation), else home.
  const returnTo = returnToFrom(useLocation());
  return (
    <AuthCard title="Sign Up">
      <SignupForm onSignedUp={() => navigate(returnTo, { replace: true })} />
      <SocialSignIn returnTo={returnTo} />
      <p className="text-center text-sm">
        Already have an account?{" "}
        <Link to={paths.login} className="link link-primary">
          Login
        </Link>
      </p>
    </AuthCard>
  );
}
