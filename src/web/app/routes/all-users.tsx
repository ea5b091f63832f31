import { TitledPage } from "../../components/page-title";
import { useCustomerGroups } from "../../features/pricing/api/customer-groups";
import { ManageUsers } from "../../features/users/components/manage-users";

export function AllUsersRoute() {
  const groups = useCustomerGroups();
  return (
    <TitledPage title="All Users">
      <ManageUsers groups={groups.data} />
    </TitledPage>
  );
}
