import { useState } from "react";
import type { UserListItem } from "#contract/users";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { formatDateTime } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useMarkDeliverable } from "../api/mark-deliverable";

/** "Email bounces", with the SMTP server's answer and its date as the badge's title. */
export function BounceBadge({ user }: { user: UserListItem }) {
  if (!user.emailBouncedAt) return null;
  const said = `Refused for good on ${formatDateTime(user.emailBouncedAt)}: ${user.emailBounce ?? ""}`;
  return (
    <span className="badge badge-sm badge-warning whitespace-nowrap" title={said}>
      Email bounces
    </span>
  );
}

/** Takes the mark off, after a confirmation (the admin knows the mailbox works again). */
export function MarkDeliverableButton({ user }: { user: UserListItem }) {
  const mark = useMarkDeliverable();
  const [asking, setAsking] = useState(false);
  const close = () => {
    mark.reset();
    setAsking(false);
  };
  return (
    <>
      <button type="button" className="btn btn-sm btn-outline" onClick={() => setAsking(true)}>
        Mark deliverable
      </button>
      <ConfirmDialog
        open={asking}
        title={`Mark ${user.email} deliverable?`}
        confirmLabel="Mark deliverable"
        tone="positive"
        busy={mark.isPending}
        error={mark.error?.message}
        onCancel={close}
        // Not mutate()'s callbacks: the refreshed list hides this button before they would run.
        onConfirm={() =>
          mark.mutateAsync(user._id).then(
            (res) => notify.success(`${res.user.email} is marked deliverable`),
            () => undefined, // shown in the dialog
          )
        }
      >
        <p>
          The mail server refused <strong>{user.email}</strong> for good: {user.emailBounce}. Mark
          it deliverable once {user.name} has fixed their mailbox; a new refusal marks it again.
        </p>
      </ConfirmDialog>
    </>
  );
}
