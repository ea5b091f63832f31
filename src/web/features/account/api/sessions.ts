import { useQuery } from "@tanstack/react-query";
import type { ActiveSessionList, EndedSessions } from "#contract/auth";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useInvalidatingMutation } from "../../../lib/invalidating-mutation";

const key = ["active-sessions"] as const;

/** Where the signed-in user is signed in (this browser marked `current`). */
export function useActiveSessions() {
  return useQuery({
    queryKey: key,
    queryFn: () => apiGet<ActiveSessionList>("/user/sessions"),
  });
}

/** Ends one session, or (`"others"`) every session but this one. */
export function useEndSessions() {
  return useInvalidatingMutation(
    key,
    (which: string) =>
      which === "others"
        ? apiSend<EndedSessions>("DELETE", "/user/sessions?except=current")
        : apiSend<undefined>("DELETE", `/user/sessions/${encodeURIComponent(which)}`),
    { alsoOnError: true },
  );
}
