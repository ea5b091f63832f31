import { AddressBook } from "../../../components/address-book";
import {
  useAddCompanyAddress,
  useCompanyAddresses,
  useRemoveCompanyAddress,
  useUpdateCompanyAddress,
} from "../api/companies";

/**
 * A company's ship-to addresses: its members deliver to them at checkout. `canManage` (the
 * company's owners, admins) adds, edits and removes them; the server checks it again.
 */
export function ShipToAddresses({
  companyId,
  canManage,
}: {
  companyId: string;
  canManage: boolean;
}) {
  const api = {
    list: useCompanyAddresses(companyId),
    add: useAddCompanyAddress(companyId),
    update: useUpdateCompanyAddress(companyId),
    remove: useRemoveCompanyAddress(companyId),
  };
  return <AddressBook owner={{ kind: "company", canManage }} api={api} />;
}
