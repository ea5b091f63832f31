import { TitledPage } from "../../components/page-title";
import { ManageUsers } from "../../features/users/components/manage-users";

export function AllUsersRoute() {
  return (
    <TitledPage title="All Users">
      <ManageUsers />
    </TitledPage>
  );
}
