import { plural } from "#contract/count";
import { notify } from "../../../lib/notify";
import type { UserListItem } from "#contract/users";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { useRemoveUser } from "../api/remove-user";

interface RemoveUserDialogProps {
  /** The user to remove; the dialog is open while there is one. */
  user: UserListItem | undefined;
  onClose(): void;
}

export function RemoveUserDialog({ user, onClose }: RemoveUserDialogProps) {
  const remove = useRemoveUser();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={user !== undefined}
      title="Remove this user?"
      confirmLabel="Remove User"
      busy={remove.isPending}
      error={remove.error?.message}
      onCancel={close}
      onConfirm={() =>
        user &&
        remove.mutate(user._id, {
          onSuccess: ({ cancelledOrders }) => {
            notify.success(
              cancelledOrders > 0
                ? `${user.name} was removed; ${plural(cancelledOrders, "unpaid order was", "unpaid orders were")} cancelled`
                : `${user.name} was removed`,
            );
            close();
          },
        })
      }
    >
      {user && (
        <p>
          <strong>{user.name}</strong> ({user.email}) will be removed and signed out everywhere at
          once. Their unpaid orders are cancelled and the stock goes back on sale; their paid orders
          are kept for the records. This cannot be undone.
        </p>
      )}
    </ConfirmDialog>
  );
}
