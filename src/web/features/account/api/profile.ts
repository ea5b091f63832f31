import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Profile, ProfileUpdate } from "#contract/users";
import { apiGet, apiSend } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export const getProfile = () => apiGet<Profile>("/user");

export function useProfile() {
  return useQuery({ queryKey: queryKeys.profile, queryFn: getProfile });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: ProfileUpdate) => apiSend<Profile>("PUT", "/user", fields),
    onSuccess: (profile) => queryClient.setQueryData(queryKeys.profile, profile),
  });
}
