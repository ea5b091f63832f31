import type { TestAccount } from "./accounts";
import { paidOrderOfNewPart, shipAsAdmin } from "./payments";
import type { TestApp } from "./test-app";

/** A valid North American VIN (its check digit holds). */
export const WARRANTY_VIN = "1HGCM82633A004352";

const today = () => new Date().toISOString().slice(0, 10);

/** A claim's body for line 1 of `orderId`, fitted and failed today; `fields` override. */
export const claimBody = (orderId: string, fields: object = {}) => ({
  orderId,
  line: 1,
  qty: 1,
  vin: WARRANTY_VIN,
  mileageAtInstall: 41_000,
  mileageAtFailure: 43_500,
  installedOn: today(),
  failedOn: today(),
  installedBy: "garage",
  description: "The pads squeal and the wear indicator came on after a month.",
  customerInvoiceRef: "INV-778",
  ...fields,
});

/**
 * A part with a 12-month warranty at $20.00; `buyer` orders `qty`, pays by test card and (with
 * `ship`) the admin ships it.
 */
export async function shippedWarrantyOrder(
  t: TestApp,
  admin: TestAccount,
  buyer: TestAccount,
  qty = 3,
  ship = true,
) {
  const bought = await paidOrderOfNewPart(t, buyer, qty, {
    priceCents: 2000,
    availableQuantity: 50,
    warrantyMonths: 12,
  });
  if (ship) await shipAsAdmin(t, admin, bought.orderId);
  return bought;
}
