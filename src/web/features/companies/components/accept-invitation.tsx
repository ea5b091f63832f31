import { useEffect, useRef } from "react";
import { paths } from "#contract/paths";
import { Link } from "../../../components/link";
import { useAcceptInvitation } from "../api/companies";

/**
 * The page the emailed invitation leads to: a signed-in account accepts at once (the server
 * checks the address); anyone else is asked to sign in or sign up with the invited address.
 */
export function AcceptInvitation({
  token,
  signedIn,
  here,
}: {
  token: string;
  signedIn: boolean;
  /** This page's address, to come back to after signing in. */
  here: string;
}) {
  const accept = useAcceptInvitation();
  const started = useRef(false);
  useEffect(() => {
    if (!signedIn || !token || started.current) return;
    started.current = true;
    accept.mutate(token);
  }, [signedIn, token, accept]);

  if (!token) {
    return <p role="alert">This invitation link is not valid: it has no token.</p>;
  }
  if (!signedIn) {
    return (
      <div className="flex flex-col gap-3">
        <p>
          To accept, sign in with the email address the invitation was sent to, or create an account
          with it first and open the link in the email again.
        </p>
        <div className="flex flex-wrap gap-2">
          <Link className="btn btn-primary" to={`${paths.login}?from=${encodeURIComponent(here)}`}>
            Sign in to accept
          </Link>
          <Link className="btn btn-outline" to={`${paths.signup}?from=${encodeURIComponent(here)}`}>
            Create an account
          </Link>
        </div>
      </div>
    );
  }
  if (accept.isSuccess) {
    return (
      <div role="status" className="alert alert-success">
        <span>
          You joined {accept.data.companyName} as {accept.data.role}. Your company's prices now
          apply.{" "}
          <Link className="link" to={paths.allProducts}>
            Browse parts
          </Link>
        </span>
      </div>
    );
  }
  if (accept.isError) {
    return (
      <p role="alert" className="alert alert-error">
        {accept.error.message}
      </p>
    );
  }
  return <p role="status">Accepting the invitation…</p>;
}
