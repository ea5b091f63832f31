import { usePageTitle } from "../../components/page-title";
import { useAddressBook } from "../address-book";
import { CheckoutForm } from "../../features/cart/components/checkout-form";
import { ChosenVehicleNote } from "../../features/fitment/components/chosen-vehicle-note";
import { loadRememberedVehicle } from "../../lib/vehicle-choice";
import { termsDays } from "#contract/terms";

/**
 * The cart's checkout, with the account's address book (it belongs to My Info) and their
 * company's ship-to addresses (the companies feature).
 */
export function CheckoutRoute() {
  usePageTitle("Checkout");
  const book = useAddressBook();
  const { company } = book;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold">Checkout</h1>
      <CheckoutForm
        book={book}
        vehicleNote={<ChosenVehicleNote vehicle={loadRememberedVehicle()} cart />}
        termsDays={company ? termsDays[company.paymentTerms] : null}
      />
    </div>
  );
}
