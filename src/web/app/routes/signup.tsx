import { useNavigate } from "react-router";
import { Link } from "../../components/link";
import { SignupForm } from "../../features/auth/components/signup-form";
import { SocialSignIn } from "../../features/auth/components/social-sign-in";
import { usePageTitle } from "../../components/page-title";
import { paths } from "#contract/paths";
import { AuthCard } from "./auth-card";

export function SignupRoute() {
  usePageTitle("Sign Up");
  const navigate = useNavigate();
  return (
    <AuthCard title="Sign Up">
      <SignupForm onSignedUp={() => navigate(paths.home, { replace: true })} />
      <SocialSignIn returnTo={paths.home} />
      <p className="text-center text-sm">
        Already have an account?{" "}
        <Link to={paths.login} className="link link-primary">
          Login
        </Link>
      </p>
    </AuthCard>
  );
}
