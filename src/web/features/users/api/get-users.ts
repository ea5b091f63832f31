import type { UserListItem, UsersQuery } from "#contract/users";
import { queryKeys } from "../../../lib/query-keys";
import { usePageRead } from "../../../lib/use-list-page";

export type UsersListQuery = Partial<UsersQuery>;

export const useUsers = (query: UsersListQuery) =>
  usePageRead<UserListItem>(queryKeys.users.list(query), "/users", query);
