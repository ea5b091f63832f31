import type { UserListItem } from "#contract/users";
import { formatDateTime } from "../../../lib/format";
import { useMarkDeliverable } from "../api/mark-deliverable";
import { AskFirstButton } from "./ask-first-button";

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
  return (
    <AskFirstButton
      label="Mark deliverable"
      look="btn-outline"
      title={`Mark ${user.email} deliverable?`}
      tone="positive"
      action={useMarkDeliverable()}
      arg={user._id}
      done={(res) => `${res.user.email} is marked deliverable`}
    >
      <p>
        The mail server refused <strong>{user.email}</strong> for good: {user.emailBounce}. Mark it
        deliverable once {user.name} has fixed their mailbox; a new refusal marks it again.
      </p>
    </AskFirstButton>
  );
}
