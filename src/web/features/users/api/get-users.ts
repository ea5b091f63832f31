import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { UserListItem, UsersQuery } from "#contract/users";
import { apiGetPage, toQueryString } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export type UsersListQuery = Partial<UsersQuery>;

export const getUsers = (query: UsersListQuery) =>
  apiGetPage<UserListItem>(`/users${toQueryString(query)}`);

export const usersQueryOptions = (query: UsersListQuery) =>
  queryOptions({
    queryKey: queryKeys.users.list(query),
    queryFn: () => getUsers(query),
    // Paging and searching keep the current rows on screen until the next ones arrive.
    placeholderData: keepPreviousData,
  });

export function useUsers(query: UsersListQuery) {
  return useQuery(usersQueryOptions(query));
}
