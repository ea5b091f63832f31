import { useState } from "react";
import { USERS_PAGE_SIZE, type UserListItem } from "#contract/users";
import { Pagination } from "../../../components/pagination";
import { QueryError } from "../../../components/query-error";
import { SearchForm } from "../../../components/search-form";
import { PageSpinner } from "../../../components/spinner";
import { useSession } from "../../../lib/session";
import { pageParam, useStayWithinPages, useUrlParams } from "../../../lib/use-url-params";
import { useUsers } from "../api/get-users";
import { RemoveUserDialog } from "./remove-user-dialog";
import { UsersTable } from "./users-table";

/** All users with search and paging (kept in the URL), Make Admin and Remove User. */
export function ManageUsers() {
  const [params, update] = useUrlParams();
  const q = params.get("q") ?? "";
  const page = pageParam(params);
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

      {isPending ? (
        <PageSpinner />
      ) : error ? (
        <QueryError error={error} />
      ) : data.items.length === 0 ? (
        <p className="rounded-box bg-base-200 p-8 text-center text-base-content/70">
          {q ? `No users match “${q}”.` : "There are no users on this page."}
        </p>
      ) : (
        <>
          <p className="text-sm text-base-content/70" aria-live="polite">
            {data.total} {data.total === 1 ? "user" : "users"}
            {q ? ` matching “${q}”` : ""}
          </p>
          <div aria-busy={isPlaceholderData} className={isPlaceholderData ? "opacity-60" : ""}>
            <UsersTable users={data.items} currentUserId={me?.id} onRemove={setToRemove} />
          </div>
          <Pagination
            page={page}
            pageCount={pageCount}
            onChange={(p) => update({ page: p === 1 ? undefined : String(p) })}
          />
        </>
      )}

      <RemoveUserDialog user={toRemove} onClose={() => setToRemove(undefined)} />
    </div>
  );
}
