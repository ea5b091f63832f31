import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  NotificationPreferences,
  NotificationPreferencesUpdate,
} from "#contract/notifications";
import { apiGet, apiSend } from "../../../lib/api-client";

const key = ["notification-preferences"] as const;

export function useNotificationPreferences() {
  return useQuery({
    queryKey: key,
    queryFn: () => apiGet<NotificationPreferences>("/user/notifications"),
  });
}

export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: NotificationPreferencesUpdate) =>
      apiSend<NotificationPreferences>("PUT", "/user/notifications", change),
    onSuccess: (prefs) => queryClient.setQueryData(key, prefs),
  });
}
