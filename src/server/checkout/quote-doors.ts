import type { QuoteAccept, QuoteTotalInput } from "../../contract/quotes";
import type { Order, OrderTotal } from "../../contract/orders";
import type { Inventory } from "../inventory/service";
import { unitsToCents } from "../money";
import { lockQuoteForAcceptance } from "../quotes/access";
import { deliveryOf, destinationOf, quoteSource, type PlacementRequest } from "./request";
import { totalNow } from "./total-now";
import type { CheckoutOptions } from "./workflow";
import type { Customer } from "./write";

/*
 * Accepting a quote (docs/quotes.md), the checkout's third door: an order of its lines at its
 * quoted prices, in the market it was requested in (its currency, rate and rounding kept on its
 * row: "In the buyer's market"), never re-priced in the request's or the destination's market.
 */

/**
 * The two doors of a sent quote: its acceptance (placed by the checkout's `place`: the locked
 * transaction, as every quote) and what it would charge now.
 */
export function quoteDoors(
  place: (customer: Customer, request: PlacementRequest) => Promise<Order>,
  inventory: Inventory,
  opts: Pick<CheckoutOptions, "currency" | "sellerCountry" | "rules" | "markets">,
) {
  return {
    /**
     * Accepts a sent quote: one order of its lines at its quoted prices, in its currency at its
     * rate (shipping, tax, stock, limits and approvals as for any order), and the quote marked
     * accepted, in one transaction.
     */
    acceptQuote: (
      customer: Customer,
      quoteId: string,
      input: QuoteAccept,
      clientWaiting?: () => boolean,
    ) =>
      place(customer, {
        source: { lines: [] },
        quoteId,
        ...deliveryOf(input),
        expectedTotalCents:
          input.expectedTotal === undefined ? undefined : unitsToCents(input.expectedTotal),
        clientWaiting,
      }),

    /**
     * What accepting a sent quote would charge now (its lines at the quoted prices, shipping and
     * tax for the address, in the quote's market), decided as the acceptance decides it, writing
     * nothing: the total the buyer is shown and sends back as `expectedTotal`.
     */
    quoteTotal: (
      customer: Customer,
      quoteId: string,
      input: QuoteTotalInput,
    ): Promise<OrderTotal> =>
      inventory.transaction(async (_stock, tx) => {
        const quote = await lockQuoteForAcceptance(tx, quoteId, customer.id);
        return totalNow(
          tx,
          customer,
          {
            source: quoteSource(quote),
            destination: destinationOf(input),
            shippingMethodId: input.shippingMethodId ?? null,
            quote,
            market: quote.market,
          },
          opts,
        );
      }),
  };
}
