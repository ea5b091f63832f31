import { plural } from "#contract/count";
import { useState } from "react";
import { USERS_PAGE_SIZE, type UserListItem } from "#contract/users";
import { ListTable } from "../../../components/data-table";
import { SearchForm } from "../../../components/search-form";
import { useSession } from "../../../lib/session";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { useUsers } from "../api/get-users";
import { RemoveUserDialog } from "./remove-user-dialog";
import type { CustomerGroupChoice } from "./customer-group-select";
import { userColumns } from "./users-table";

/**
 * All users with search and paging (kept in the URL), Make Admin and Remove User; with `groups`
 * (the customer groups), each user's own customer group.
 */
export function ManageUsers({ groups }: { groups?: CustomerGroupChoice[] }) {
  const list = useListPage(USERS_PAGE_SIZE);
  const { q } = list;
  const { data: me } = useSession();
  const answer = useUsers(list.query);
  const states = useListStates(
    list,
    answer,
    (total) => `${plural(total, "user")}${q ? ` matching “${q}”` : ""}`,
  );
  const [toRemove, setToRemove] = useState<UserListItem>();

  return (
    <div className="flex flex-col gap-4">
      <SearchForm
        label="Search users"
        placeholder="Email or name"
        value={q}
        onSearch={list.search}
      />
      {groups && (
        <p className="text-sm text-base-content/75">
          Customer group: what a customer without a company pays (retail: list prices). A
          company&apos;s members pay as their company&apos;s group.
        </p>
      )}

      <ListTable
        {...states}
        filtered={Boolean(q)}
        empty="There are no users on this page."
        noMatch={`No users match “${q}”.`}
        label="Users"
        columns={userColumns(me?.id, setToRemove, groups)}
        rowKey={(u) => u._id}
        rowTestId="user-row"
      />

      <RemoveUserDialog user={toRemove} onClose={() => setToRemove(undefined)} />
    </div>
  );
}
