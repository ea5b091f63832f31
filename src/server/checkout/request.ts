import type { Checkout } from "../../contract/cart";
import { orderMessages } from "../../contract/orders";
import type { VehicleQuery } from "../../contract/vehicles";
import type { DestinationSource } from "../charges/read";
import type { DbOrTx } from "../db/database";
import { HttpError } from "../errors";
import type { ShipToSnapshot } from "../orders/tables";
import { unitsToCents } from "../money";
import type { PricingMarket } from "../pricing/pricing";
import type { lockQuoteForAcceptance } from "../quotes/access";
import { promiseBeforeWrite } from "../shipping/delivery-promise";
import type { PlacementRead, PlacementSource } from "./read";
import type { Customer, Delivery, OrderToWrite } from "./write";

/*
 * What a placement is asked, whichever door it came in by (the product page's order, checkout,
 * an accepted quote): its lines, where it goes and how it is told. The workflow (workflow.ts)
 * places it.
 */

/** What one placement asks for, whichever door it came in by. */
export interface PlacementRequest {
  source: PlacementSource;
  delivery: Delivery;
  /**
   * Where shipping and tax are computed for: a saved address (its formatted text and phone then
   * fill `delivery`), or the customer's default address for the doors that take free text.
   */
  destination: DestinationSource;
  shippingMethodId?: string | null;
  /** The total the customer was shown, in cents (a checkout); a different total places nothing. */
  expectedTotalCents?: number;
  /** A checkout empties the cart, and may keep the address and phone in the profile. */
  fromCart?: { saveToProfile: boolean };
  /**
   * Whether the client still waits for the answer (see `clientStillWaiting`); `true` when the
   * write commits right after a yes.
   */
  clientWaiting?: (final?: boolean) => boolean;
  /** An accepted quote: its lines at its prices, read (and locked) in the transaction. */
  quoteId?: string;
  /**
   * The vehicle the customer shops with: every line without a vehicle of its own (a cart line's)
   * keeps it (docs/vehicle-on-line.md).
   */
  vehicle?: VehicleQuery;
  /**
   * The buyer accepts backorders (a checkout's choice, docs/inventory.md "Backorders"): placed
   * in the locked transaction, the products locked before the read.
   */
  fulfilment?: "complete" | "available";
  /** The discount code the buyer saw applied: placed in the locked transaction, used once there. */
  discountCode?: string;
  /**
   * The market it is priced in (docs/pricing.md "Markets and currencies"): its parts, shipping
   * and code converted, the order in its currency at its rate. Absent: the store's currency.
   */
  market?: PricingMarket;
}

/**
 * Asked last, just before the commit: a placement whose client has given up (disconnected while
 * it waited for a locked row, say) commits nothing, so nobody holds stock for an order they were
 * never told about.
 */
export const CLIENT_GONE_MESSAGE = "The request was abandoned by its client; nothing was ordered";

/**
 * A client that gave up while its placement waited is not served (nothing is ordered); `final`:
 * asked just before the commit (`clientWaiting`).
 */
export function stillWaiting(request: PlacementRequest, final?: boolean): void {
  if (request.clientWaiting && !request.clientWaiting(final)) {
    throw new HttpError(499, "client_closed_request", CLIENT_GONE_MESSAGE);
  }
}

export type QuoteToAccept = Awaited<ReturnType<typeof lockQuoteForAcceptance>>;

/** A quote's lines are the order's lines. */
export function quoteSource(quote: QuoteToAccept) {
  return { lines: quote.lines.map((l) => ({ productId: l.productId, qty: l.qty })) };
}

/** A quote's lines keep the prices it was sent at. */
export function quotedPrices(quote: QuoteToAccept) {
  return new Map(quote.lines.map((l) => [l.productId, l.unitPriceCents]));
}

/**
 * An order the placement memory decides (and learns the customer from): given parts to the
 * customer's default address, without a vehicle (the spec's one-product door).
 */
export function remembered(request: PlacementRequest): boolean {
  const { source, destination } = request;
  return (
    "lines" in source &&
    !!destination &&
    "defaultAddress" in destination &&
    !request.vehicle &&
    !request.fromCart &&
    !request.quoteId
  );
}

/**
 * Every order goes somewhere the store charges shipping and tax for (issue 48): a saved address
 * chosen, one given whole, or the address book's default. None of those: refused, saying what
 * to add, after the lines' own refusals (stock, minimum, duplicates), which come first as always.
 */
export function requireDestination(facts: PlacementRead): void {
  if (facts.charges?.place) return;
  throw new HttpError(422, "destination_required", orderMessages.destinationRequired, {
    addressId: orderMessages.destinationRequired,
  });
}

/**
 * A chosen saved address (the customer's or their company's), one given whole, else the
 * address book's default.
 */
export function destinationOf(input: {
  addressId?: string | null;
  shipTo?: ShipToSnapshot;
}): DestinationSource {
  if (input.shipTo) return { shipTo: input.shipTo };
  return input.addressId ? { addressId: input.addressId } : { defaultAddress: true };
}

/** What a form placing an order says of where it goes (the cart's checkout, a quote's acceptance). */
type DeliveryInput = Pick<
  Checkout,
  "phonrNo" | "Address" | "poReference" | "addressId" | "shipTo" | "shippingMethodId"
>;

/**
 * Where a form's order goes: the phone, address and PO reference as typed, the destination
 * shipping and tax are computed for, and the method chosen (none: the cheapest).
 */
export function deliveryOf(
  input: DeliveryInput,
): Pick<PlacementRequest, "delivery" | "destination" | "shippingMethodId"> {
  return {
    delivery: {
      phone: input.phonrNo ?? "",
      address: input.Address ?? "",
      poReference: input.poReference ?? null,
    },
    destination: destinationOf(input),
    shippingMethodId: input.shippingMethodId ?? null,
  };
}

/**
 * The cart's checkout as a placement: the account's whole cart (all lines or none) at the total
 * the customer was shown, the cart emptied in the order's statement, priced in `market` (the
 * checkout route passes the caller's; none: the store's currency).
 */
export function cartCheckoutRequest(
  customer: Customer,
  input: Checkout,
  clientWaiting?: () => boolean,
  market?: PricingMarket,
): PlacementRequest {
  return {
    source: { cartOf: customer.id },
    ...deliveryOf(input),
    expectedTotalCents: unitsToCents(input.expectedTotal),
    fromCart: { saveToProfile: input.saveToProfile ?? false },
    vehicle: input.vehicle,
    fulfilment: input.fulfilment,
    discountCode: input.discountCode,
    clientWaiting,
    market,
  };
}

/** The address as the order keeps it (its id left out: the address book may change). */
export function snapshot(a: ShipToSnapshot & { id?: string }): ShipToSnapshot {
  return {
    name: a.name,
    company: a.company,
    line1: a.line1,
    line2: a.line2,
    city: a.city,
    region: a.region,
    postalCode: a.postalCode,
    country: a.country,
    phone: a.phone,
  };
}

/**
 * Whether the placement keeps the delivery window it promises (docs/shipping.md "The promise
 * kept with the order"): a cart's checkout by a method with transit days, not awaiting a
 * company's approval (its parts leave only once approved). It is placed in the locked
 * transaction, which records the window from the order's allocations after its write.
 */
export const promisesDelivery = (request: PlacementRequest, order: OrderToWrite): boolean =>
  !!request.fromCart && !!order.charges.transit && !order.approval;

/**
 * The window the one-statement write promises (shipping/delivery-promise.ts `promiseBeforeWrite`):
 * undefined when the placement promises none; null when it cannot be known before the write.
 */
export const promiseForWrite = (
  db: DbOrTx,
  request: PlacementRequest,
  order: OrderToWrite,
  placedAt: Date,
) =>
  promisesDelivery(request, order)
    ? promiseBeforeWrite(
        db,
        { id: order.id, placedAt, method: order.charges.shippingMethod ?? "" },
        order.lines,
        order.delivery.shipTo ?? null,
        order.charges.transit!,
      )
    : Promise.resolve(undefined);
