import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ActiveSessionList, EndedSessions } from "#contract/auth";
import { apiGet, apiSend } from "../../../lib/api-client";

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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (which: string) =>
      which === "others"
        ? apiSend<EndedSessions>("DELETE", "/user/sessions?except=current")
        : apiSend<undefined>("DELETE", `/user/sessions/${encodeURIComponent(which)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
