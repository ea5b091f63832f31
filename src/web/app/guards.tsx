import { useEffect, useRef } from "react";
import { Navigate, Outlet, useLocation, useNavigate } from "react-router";
import { PageSpinner } from "../components/spinner";
import { useSession, useSignOut } from "../lib/session";
import { paths } from "#contract/paths";

/** Login-required routes: a spinner while the session resolves, else /login (remembering where). */
export function RequireAuth() {
  const { data: user, isPending } = useSession();
  const location = useLocation();
  if (isPending) return <PageSpinner />;
  if (!user) {
    const from = location.pathname + location.search;
    return <Navigate to={paths.login} replace state={{ from }} />;
  }
  return <Outlet />;
}

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
    void signOut().finally(() => navigate(paths.login, { replace: true, state: { from } }));
  }, [isAdmin, signOut, navigate, location.pathname]);

  return isAdmin ? <Outlet /> : <PageSpinner />;
}

/** Customer pages (My Items, Add a Review): admins are sent to their dashboard instead. */
export function RequireCustomer() {
  const { data: user } = useSession();
  if (user?.role === "admin") return <Navigate to={paths.dashboard} replace />;
  return <Outlet />;
}
