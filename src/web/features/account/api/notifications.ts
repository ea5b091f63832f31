import { useQuery } from "@tanstack/react-query";
import type {
  NotificationPreferences,
  NotificationPreferencesUpdate,
} from "#contract/notifications";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useReplacingMutation } from "../../../lib/invalidating-mutation";

const key = ["notification-preferences"] as const;

export function useNotificationPreferences() {
  return useQuery({
    queryKey: key,
    queryFn: () => apiGet<NotificationPreferences>("/user/notifications"),
  });
}

export function useUpdateNotificationPreferences() {
  return useReplacingMutation(key, (change: NotificationPreferencesUpdate) =>
    apiSend<NotificationPreferences>("PUT", "/user/notifications", change),
  );
}
