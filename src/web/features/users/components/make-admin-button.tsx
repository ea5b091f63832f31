import { notify } from "../../../lib/notify";
import type { UserListItem } from "#contract/users";
import { useMakeAdmin } from "../api/make-admin";

/** One per row, so each row shows its own progress when several are clicked in a row. */
export function MakeAdminButton({ user }: { user: UserListItem }) {
  const makeAdmin = useMakeAdmin();
  return (
    <button
      type="button"
      className="btn btn-sm btn-primary"
      disabled={makeAdmin.isPending}
      // Not mutate()'s callbacks: the refreshed list hides this button (unmounting it) before
      // they would run, and they are skipped after an unmount.
      onClick={() =>
        makeAdmin.mutateAsync(user.email).then(
          (res) => notify.success(`${res.user.name} is now an admin`),
          (err: Error) => notify.error(err.message),
        )
      }
    >
      {makeAdmin.isPending && <span className="loading loading-spinner loading-xs" />}
      Make Admin
    </button>
  );
}
