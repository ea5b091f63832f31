import type { Role, UserListItem } from "#contract/users";
import { formatDate } from "../../../lib/format";
import { MakeAdminButton } from "./make-admin-button";

interface UsersTableProps {
  users: UserListItem[];
  /** The signed-in admin, who gets no Remove User button on their own row. */
  currentUserId: string | undefined;
  onRemove(user: UserListItem): void;
}

export function UsersTable({ users, currentUserId, onRemove }: UsersTableProps) {
  return (
    <div className="overflow-x-auto rounded-box border border-base-300">
      <table className="table">
        <caption className="sr-only">Users</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col" className="hidden lg:table-cell">
              Joined
            </th>
            <th scope="col" className="text-right">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => {
            const isMe = u._id === currentUserId;
            return (
              <tr key={u._id} data-testid="user-row">
                <td className="min-w-28 font-medium">
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    {u.name}
                    {isMe && <span className="badge badge-sm badge-outline">you</span>}
                  </div>
                </td>
                <td className="min-w-44 [overflow-wrap:anywhere]">{u.email}</td>
                <td>
                  <RoleBadge role={u.role} />
                </td>
                <td className="hidden whitespace-nowrap lg:table-cell">
                  {formatDate(u.createdAt)}
                </td>
                <td>
                  <div className="flex flex-wrap justify-end gap-2">
                    {u.role !== "admin" && <MakeAdminButton user={u} />}
                    {!isMe && (
                      <button
                        type="button"
                        className="btn btn-sm btn-outline btn-error"
                        onClick={() => onRemove(u)}
                      >
                        Remove User
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function RoleBadge({ role }: { role: Role }) {
  return (
    <span className={`badge badge-sm ${role === "admin" ? "badge-primary" : "badge-ghost"}`}>
      {role}
    </span>
  );
}
