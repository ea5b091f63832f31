import { useState } from "react";
import { USERS_PAGE_SIZE, type UserListItem } from "#contract/users";
import { ListStates } from "../../../components/data-table";
import { SearchForm } from "../../../components/search-form";
import { useSession } from "../../../lib/session";
import { pageParam, useStayWithinPages, useUrlParams } from "../../../lib/use-url-params";
import { useUsers } from "../api/get-users";
import { RemoveUserDialog } from "./remove-user-dialog";
import { UsersTable } from "./users-table";

/** All users with search and paging (kept in the URL), Make Admin and Remove User. */
export function ManageUsers() {
  const [params, update] = useUrlParams();
  const q = params.get("q") ?? "";
  const page = pageParam(params, USERS_PAGE_SIZE);
  const { data: me } = useSession();
  const { data, error, isPending, isPlaceholderData } = useUsers({
    limit: USERS_PAGE_SIZE,
    offset: (page - 1) * USERS_PAGE_SIZE,
    q: q || undefined,
  });
  const [toRemove, setToRemove] = useState<UserListItem>();

  const pageCount = data ? Math.max(1, Math.ceil(data.total / USERS_PAGE_SIZE)) : 1;
  useStayWithinPages(page, data && !isPlaceholderData ? pageCount : undefined, update);

  return (
    <div className="flex flex-col gap-4">
      <SearchForm
        label="Search users"
        placeholder="Email or name"
        value={q}
        onSearch={(text) => update({ q: text, page: undefined })}
      />

      <ListStates
        isPending={isPending}
        error={error}
        count={data?.items.length}
        filtered={Boolean(q)}
        empty="There are no users on this page."
        noMatch={`No users match “${q}”.`}
        summary={
          data &&
          `${data.total} ${data.total === 1 ? "user" : "users"}${q ? ` matching “${q}”` : ""}`
        }
        stale={isPlaceholderData}
        page={page}
        pageCount={pageCount}
        onPage={(p) => update({ page: p === 1 ? undefined : String(p) })}
      >
        <UsersTable users={data?.items ?? []} currentUserId={me?.id} onRemove={setToRemove} />
      </ListStates>

      <RemoveUserDialog user={toRemove} onClose={() => setToRemove(undefined)} />
    </div>
  );
}
