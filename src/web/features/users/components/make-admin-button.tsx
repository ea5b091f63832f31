import type { UserListItem } from "#contract/users";
import { useMakeAdmin, useRemoveAdmin } from "../api/make-admin";
import { AskFirstButton } from "./ask-first-button";

/**
 * Make Admin, after a confirmation naming the person. One per row, so each row shows its own
 * progress when several are clicked in a row.
 */
export function MakeAdminButton({ user }: { user: UserListItem }) {
  return (
    <AskFirstButton
      label="Make Admin"
      look="btn-primary"
      title={`Make ${user.name} an admin?`}
      tone="positive"
      action={useMakeAdmin()}
      arg={user.email}
      done={(res) => `${res.user.name} is now an admin`}
    >
      <p>
        <strong>{user.name}</strong> ({user.email}) will be able to manage users, products and
        orders, including taking the admin role from you.
      </p>
    </AskFirstButton>
  );
}

/** Takes the admin role away (never from the last admin: the server says so in the dialog). */
export function RemoveAdminButton({ user }: { user: UserListItem }) {
  return (
    <AskFirstButton
      label="Remove Admin"
      look="btn-outline"
      title={`Stop ${user.name} being an admin?`}
      action={useRemoveAdmin()}
      arg={user.email}
      done={(res) => `${res.user.name} is no longer an admin`}
    >
      <p>
        <strong>{user.name}</strong> ({user.email}) becomes a customer and loses the admin pages at
        once. The last admin cannot be demoted.
      </p>
    </AskFirstButton>
  );
}
