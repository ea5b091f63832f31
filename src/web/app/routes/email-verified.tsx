import { useEffect } from "react";
import { useLocation } from "react-router";
import { Link } from "../../components/link";
import { useQueryClient } from "@tanstack/react-query";
import { usePageTitle } from "../../components/page-title";
import { queryKeys } from "../../lib/query-keys";
import { paths } from "#contract/paths";
import { AuthCard } from "./auth-card";

/** Where the emailed verification link lands: Better Auth checked it (`?error=` when it failed). */
export function EmailVerifiedRoute() {
  usePageTitle("Email address");
  const error = new URLSearchParams(useLocation().search).get("error");
  const queryClient = useQueryClient();
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.session });
  }, [queryClient]);
  return (
    <AuthCard title="Email address">
      {error ? (
        <p role="alert" className="text-error">
          {error === "TOKEN_EXPIRED"
            ? "This link has expired."
            : "This link is not valid (it may be incomplete)."}{" "}
          Sign in and use “Send the link again” in My Profile.
        </p>
      ) : (
        <p role="status" className="alert alert-success">
          Thank you: your email address is verified.
        </p>
      )}
      <p className="flex justify-center gap-4 text-sm">
        <Link to={paths.home} className="link link-primary">
          Go shopping
        </Link>
        <Link to={paths.dashboard} className="link">
          My Profile
        </Link>
      </p>
    </AuthCard>
  );
}
