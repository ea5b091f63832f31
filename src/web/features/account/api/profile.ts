import { useQuery } from "@tanstack/react-query";
import type { Profile, ProfileUpdate } from "#contract/users";
import { apiGet, apiSend } from "../../../lib/api-client";
import { useReplacingMutation } from "../../../lib/invalidating-mutation";
import { queryKeys } from "../../../lib/query-keys";

export const getProfile = () => apiGet<Profile>("/user");

export function useProfile() {
  return useQuery({ queryKey: queryKeys.profile, queryFn: getProfile });
}

export function useUpdateProfile() {
  return useReplacingMutation(queryKeys.profile, (fields: ProfileUpdate) =>
    apiSend<Profile>("PUT", "/user", fields),
  );
}
