import { usePageTitle } from "../../components/page-title";
import { ManageUsers } from "../../features/users/components/manage-users";

export function AllUsersRoute() {
  usePageTitle("All Users");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">All Users</h1>
      <ManageUsers />
    </div>
  );
}
