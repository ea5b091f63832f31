import { useEffect, useRef } from "react";
import { Navigate, Outlet, useLocation, useNavigate } from "react-router";
import { PageSpinner } from "../components/spinner";
import { usePrerendering } from "../lib/prerendering";
import { lastSignOutReason, useSession, useSignOut } from "../lib/session";
import { paths } from "#contract/paths";

/**
 * Login-required routes: a spinner while the session resolves, else /login (remembering where).
 * At build time the page itself renders, showing its placeholders (the page's shell HTML).
 */
export function RequireAuth() {
  const { data: user, isPending } = useSession();
  const location = useLocation();
  const prerendering = usePrerendering();
  if (prerendering) return <Outlet />;
  if (isPending) return <PageSpinner />;
  if (!user) {
    const from = location.pathname + location.search;
    return <Navigate to={paths.login} replace state={{ from, signedOut: lastSignOutReason() }} />;
  }
  return <Outlet />;
}

/** Why the admin guard signed someone out: /login says so (see `signedOutNotice`). */
export const ADMIN_ONLY = "admin-only";

/** Admin-only routes: a signed-in non-admin is signed out and sent to /login (SPEC section 4). */
export function RequireAdmin() {
  const { data: user } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const location = useLocation();
  const started = useRef(false);
  const isAdmin = user?.role === "admin";

  useEffect(() => {
    if (isAdmin || started.current) return;
    started.current = true;
    const from = location.pathname;
    const toLogin = () =>
      navigate(paths.login, { replace: true, state: { from, signedOut: ADMIN_ONLY } });
    void signOut(ADMIN_ONLY).then(toLogin, toLogin);
  }, [isAdmin, signOut, navigate, location.pathname]);

  return isAdmin ? <Outlet /> : <PageSpinner />;
}

/** Customer pages (My Items, Add a Review): admins are sent to their dashboard instead. */
export function RequireCustomer() {
  const { data: user } = useSession();
  if (user?.role === "admin") return <Navigate to={paths.dashboard} replace />;
  return <Outlet />;
}
