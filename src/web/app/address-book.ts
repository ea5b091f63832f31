import type { MyCompany } from "#contract/companies";
import type { AddressBookPort } from "../components/address-choice";
import { useAddAddress, useAddresses } from "../features/account/api/addresses";
import { useCompanyAddresses, useMyCompany } from "../features/companies/api/companies";

/**
 * Where the signed-in customer can send an order: their address book (it belongs to My Info)
 * and their company's ship-to addresses (the companies feature), for checkout, the product
 * page's order dialog and a quote's acceptance. `enabled`: false for a visitor or an admin.
 */
export function useAddressBook(
  enabled = true,
): AddressBookPort & { company: MyCompany["company"] | undefined } {
  const addresses = useAddresses(enabled);
  const add = useAddAddress();
  // The company's ship-to addresses, for the members who may order (viewers cannot).
  const myCompany = useMyCompany(enabled);
  const company = myCompany.data?.company;
  const orderingCompanyId = company && company.role !== "viewer" ? company.id : undefined;
  const shipTo = useCompanyAddresses(orderingCompanyId);
  return {
    addresses: addresses.isPending ? undefined : (addresses.data ?? []),
    add: add.mutateAsync,
    adding: add.isPending,
    companyAddresses: myCompany.isPending
      ? undefined
      : orderingCompanyId === undefined
        ? []
        : shipTo.isPending
          ? undefined
          : (shipTo.data ?? []),
    company,
  };
}
