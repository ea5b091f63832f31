import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { USERS_PAGE_SIZE, type UserListItem } from "../../../../contract/users";
import { Pagination } from "../../../components/pagination";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { useSession } from "../../../lib/session";
import { useUsers } from "../api/get-users";
import { RemoveUserDialog } from "./remove-user-dialog";
import { UsersTable } from "./users-table";

/** All users with search and paging (kept in the URL), Make Admin and Remove User. */
export function ManageUsers() {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const { data: me } = useSession();
  const { data, error, isPending, isPlaceholderData } = useUsers({
    limit: USERS_PAGE_SIZE,
    offset: (page - 1) * USERS_PAGE_SIZE,
    q: q || undefined,
  });
  const [toRemove, setToRemove] = useState<UserListItem>();

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next);
  };

  const pageCount = data ? Math.max(1, Math.ceil(data.total / USERS_PAGE_SIZE)) : 1;
  // Removing the last user of the last page would leave an empty page: step back to the new last.
  const pastTheEnd = data !== undefined && !isPlaceholderData && page > pageCount;
  useEffect(() => {
    if (!pastTheEnd) return;
    const next = new URLSearchParams(params);
    if (pageCount > 1) next.set("page", String(pageCount));
    else next.delete("page");
    setParams(next, { replace: true });
  }, [pastTheEnd, pageCount, params, setParams]);

  return (
    <div className="flex flex-col gap-4">
      <form
        role="search"
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          const value = new FormData(e.currentTarget).get("q");
          update({ q: typeof value === "string" ? value.trim() : undefined, page: undefined });
        }}
      >
        <label className="flex-1">
          <span className="mb-1 block text-sm font-medium">Search users</span>
          <input
            key={q}
            name="q"
            type="search"
            defaultValue={q}
            maxLength={100}
            placeholder="Email or name"
            className="input input-bordered w-full"
          />
        </label>
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </form>

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
