import { useState } from "react";
import { notify } from "../../../lib/notify";
import type { UserListItem } from "#contract/users";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { useMakeAdmin, useRemoveAdmin } from "../api/make-admin";

/**
 * Make Admin, after a confirmation naming the person. One per row, so each row shows its own
 * progress when several are clicked in a row.
 */
export function MakeAdminButton({ user }: { user: UserListItem }) {
  const makeAdmin = useMakeAdmin();
  const [asking, setAsking] = useState(false);
  const close = () => {
    makeAdmin.reset();
    setAsking(false);
  };
  return (
    <>
      <button type="button" className="btn btn-sm btn-primary" onClick={() => setAsking(true)}>
        Make Admin
      </button>
      <ConfirmDialog
        open={asking}
        title={`Make ${user.name} an admin?`}
        confirmLabel="Make Admin"
        tone="positive"
        busy={makeAdmin.isPending}
        error={makeAdmin.error?.message}
        onCancel={close}
        // Not mutate()'s callbacks: the refreshed list hides this button (unmounting it) before
        // they would run, and they are skipped after an unmount.
        onConfirm={() =>
          makeAdmin.mutateAsync(user.email).then(
            (res) => notify.success(`${res.user.name} is now an admin`),
            () => undefined, // shown in the dialog
          )
        }
      >
        <p>
          <strong>{user.name}</strong> ({user.email}) will be able to manage users, products and
          orders, including taking the admin role from you.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** Takes the admin role away (never from the last admin: the server says so in the dialog). */
export function RemoveAdminButton({ user }: { user: UserListItem }) {
  const removeAdmin = useRemoveAdmin();
  const [asking, setAsking] = useState(false);
  const close = () => {
    removeAdmin.reset();
    setAsking(false);
  };
  return (
    <>
      <button type="button" className="btn btn-sm btn-outline" onClick={() => setAsking(true)}>
        Remove Admin
      </button>
      <ConfirmDialog
        open={asking}
        title={`Stop ${user.name} being an admin?`}
        confirmLabel="Remove Admin"
        busy={removeAdmin.isPending}
        error={removeAdmin.error?.message}
        onCancel={close}
        onConfirm={() =>
          removeAdmin.mutateAsync(user.email).then(
            (res) => notify.success(`${res.user.name} is no longer an admin`),
            () => undefined, // shown in the dialog
          )
        }
      >
        <p>
          <strong>{user.name}</strong> ({user.email}) becomes a customer and loses the admin pages
          at once. The last admin cannot be demoted.
        </p>
      </ConfirmDialog>
    </>
  );
}
