import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Role } from "#contract/users";
import { apiGet, apiSend } from "./api-client";
import { queryKeys } from "./query-keys";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** Set once the emailed verification link was opened. */
  emailVerified: boolean;
  /** Two-factor authentication is on (Better Auth's two-factor plugin). */
  twoFactorEnabled?: boolean;
}

/** Why the app last signed the user out, when it had a reason to tell them (until the next sign-in). */
let signOutReason: string | undefined;
export const lastSignOutReason = () => signOutReason;

/** The signed-in user from the session cookie (httpOnly, so only the server can read it). */
export async function getSession(): Promise<SessionUser | null> {
  const body = await apiGet<{ user: SessionUser } | null>("/auth/get-session");
  if (body?.user) signOutReason = undefined;
  return body?.user ?? null;
}

export const sessionQueryOptions = queryOptions({
  queryKey: queryKeys.session,
  queryFn: getSession,
  staleTime: 60_000,
});

export function useSession() {
  return useQuery(sessionQueryOptions);
}

/** Signs out; `reason` is kept for the login page to show (`lastSignOutReason`). */
export function useSignOut() {
  const queryClient = useQueryClient();
  return async (reason?: string) => {
    await apiSend("POST", "/auth/sign-out", {});
    signOutReason = reason;
    queryClient.setQueryData(queryKeys.session, null);
    // Everything cached belonged to the signed-in user: drop it.
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== "session" });
  };
}
