import type { UserListItem } from "#contract/users";
import { notifyOutcome } from "../../../lib/notify";
import { useSetCustomerGroup } from "../api/set-customer-group";

/** A customer group to choose from (the pricing feature's groups, given by the page). */
export interface CustomerGroupChoice {
  id: string;
  name: string;
}

/**
 * A user's own customer group, changed as soon as another is chosen (audit-logged by the
 * server): what they pay while in no company (docs/pricing.md "A customer's own group").
 */
export function CustomerGroupSelect({
  user,
  groups,
}: {
  user: UserListItem;
  groups: CustomerGroupChoice[];
}) {
  const set = useSetCustomerGroup();
  return (
    <select
      aria-label={`Customer group of ${user.name}`}
      className="select select-bordered select-sm"
      value={user.customerGroupId}
      disabled={set.isPending}
      onChange={(e) => {
        const group = groups.find((g) => g.id === e.target.value);
        set.mutate(
          { userId: user._id, customerGroupId: e.target.value },
          notifyOutcome(`${user.name} is now in ${group?.name ?? "the group"}`),
        );
      }}
    >
      {groups.map((g) => (
        <option key={g.id} value={g.id}>
          {g.name}
        </option>
      ))}
    </select>
  );
}
