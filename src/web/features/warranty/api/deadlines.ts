import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  WarrantyDeadlineSettings,
  WarrantyDeadlineSettingsInput,
} from "#contract/warranty-deadlines";
import { apiGet, apiSend } from "../../../lib/api-client";

// Under "orders", beside the claims (api/warranty.ts): saved settings move every open claim's deadline.
const CLAIMS = ["orders", "warranty"] as const;
const SETTINGS = [...CLAIMS, "deadline-settings"] as const;

/** Admin: the warranty claims' deadlines and reminder in force. */
export const useWarrantyDeadlineSettings = () =>
  useQuery({
    queryKey: SETTINGS,
    queryFn: () => apiGet<WarrantyDeadlineSettings>("/warranty/settings"),
  });

/** Admin: sets them (every open claim's deadline from now on). */
export function useSetWarrantyDeadlineSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: WarrantyDeadlineSettingsInput) =>
      apiSend<WarrantyDeadlineSettings>("PUT", "/warranty/settings", settings),
    onSuccess: async (settings) => {
      queryClient.setQueryData(SETTINGS, settings);
      await queryClient.invalidateQueries({
        queryKey: CLAIMS,
        predicate: (q) => q.queryKey[2] !== SETTINGS[2],
      });
    },
  });
}
