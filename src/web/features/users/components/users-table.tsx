import type { Role, UserListItem } from "#contract/users";
import { BreakableEmail, type Column } from "../../../components/data-table";
import { formatDate } from "../../../lib/format";
import { MakeAdminButton, RemoveAdminButton } from "./make-admin-button";
import { BounceBadge, MarkDeliverableButton } from "./mark-deliverable-button";
import { CustomerGroupSelect, type CustomerGroupChoice } from "./customer-group-select";

/**
 * The users list's columns; `currentUserId` is the signed-in admin, who gets no Remove User
 * button on their own row. With `groups`, each user's own customer group is chosen in its row.
 */
export function userColumns(
  currentUserId: string | undefined,
  onRemove: (user: UserListItem) => void,
  groups?: CustomerGroupChoice[],
): Column<UserListItem>[] {
  return [
    {
      header: "Name",
      role: "title",
      cell: (u) => (
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          {u.name}
          {u._id === currentUserId && <span className="badge badge-sm badge-outline">you</span>}
        </div>
      ),
    },
    {
      header: "Email",
      cell: (u) => (
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <BreakableEmail email={u.email} />
          <BounceBadge user={u} />
        </div>
      ),
    },
    { header: "Role", cell: (u) => <RoleBadge role={u.role} /> },
    ...(groups
      ? [
          {
            header: "Customer group",
            cell: (u: UserListItem) => <CustomerGroupSelect user={u} groups={groups} />,
          },
        ]
      : []),
    { header: "Joined", from: "lg", cell: (u) => formatDate(u.createdAt) },
    {
      header: "Actions",
      role: "actions",
      cell: (u) => (
        <>
          {u.emailBouncedAt && <MarkDeliverableButton user={u} />}
          {u.role !== "admin" && <MakeAdminButton user={u} />}
          {u.role === "admin" && u._id !== currentUserId && <RemoveAdminButton user={u} />}
          {u._id !== currentUserId && (
            <button
              type="button"
              className="btn btn-sm btn-outline btn-error"
              onClick={() => onRemove(u)}
            >
              Remove User
            </button>
          )}
        </>
      ),
    },
  ];
}

function RoleBadge({ role }: { role: Role }) {
  return (
    <span className={`badge badge-sm ${role === "admin" ? "badge-primary" : "badge-ghost"}`}>
      {role}
    </span>
  );
}
