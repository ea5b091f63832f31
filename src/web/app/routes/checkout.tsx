import { usePageTitle } from "../../components/page-title";
import { useAddAddress, useAddresses } from "../../features/account/api/addresses";
import { CheckoutForm } from "../../features/cart/components/checkout-form";
import { useCompanyAddresses, useMyCompany } from "../../features/companies/api/companies";
import { ChosenVehicleNote } from "../../features/fitment/components/chosen-vehicle-note";
import { loadRememberedVehicle } from "../../lib/vehicle-choice";
import { termsDays } from "#contract/terms";

/**
 * The cart's checkout, with the account's address book (it belongs to My Info) and their
 * company's ship-to addresses (the companies feature).
 */
export function CheckoutRoute() {
  usePageTitle("Checkout");
  const addresses = useAddresses();
  const add = useAddAddress();
  // The company's ship-to addresses, for the members who may order (viewers cannot).
  const myCompany = useMyCompany(true);
  const company = myCompany.data?.company;
  const orderingCompanyId = company && company.role !== "viewer" ? company.id : undefined;
  const shipTo = useCompanyAddresses(orderingCompanyId);
  const companyAddresses = myCompany.isPending
    ? undefined
    : orderingCompanyId === undefined
      ? []
      : shipTo.isPending
        ? undefined
        : (shipTo.data ?? []);
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold">Checkout</h1>
      <CheckoutForm
        book={{
          addresses: addresses.isPending ? undefined : (addresses.data ?? []),
          add: add.mutateAsync,
          adding: add.isPending,
          companyAddresses,
        }}
        vehicleNote={<ChosenVehicleNote vehicle={loadRememberedVehicle()} cart />}
        termsDays={company ? termsDays[company.paymentTerms] : null}
      />
    </div>
  );
}
