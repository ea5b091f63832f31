import type { OrderTotal } from "../../contract/orders";
import { centsToUnits } from "../money";
import { decidePlacement, refuseDeletedParts, refuseShortStock } from "./decide";
import type { DbOrTx } from "../db/database";
import { readPlacement, type PlacementSource } from "./read";
import type { DestinationSource } from "../charges/read";
import { quotedPrices, requireDestination, type QuoteToAccept } from "./request";
import type { CheckoutOptions } from "./workflow";
import type { Customer } from "./write";
import { placementDiscount } from "../pricing/discount-codes";
import type { PricingMarket } from "../pricing/pricing";
import { percentFromMilli } from "../tax/rules";
import { refuseOtherMarket } from "./quote-market";

/**
 * What an order would charge now, decided as its placement decides it (the hold rules of new
 * customers are the placement's to apply: they decide whether, not how much), writing nothing.
 */
export async function totalNow(
  tx: DbOrTx,
  customer: Customer,
  what: {
    source: PlacementSource;
    destination: DestinationSource;
    shippingMethodId: string | null;
    quote: QuoteToAccept | null;
    /** A discount code to take off (the one-product order's dialog), as the placement takes it. */
    discountCode?: string;
    /** The market it is priced in (docs/pricing.md "Markets and currencies"); absent: none. */
    market?: PricingMarket;
  },
  opts: Pick<CheckoutOptions, "currency" | "sellerCountry" | "rules" | "markets">,
): Promise<OrderTotal> {
  const facts = await readPlacement(tx, customer.id, what.source, {
    trusted: true,
    capNew: false,
    destination: what.destination,
    currency: opts.currency,
    market: what.market,
    sellerCountry: opts.sellerCountry,
  });
  if (what.quote) {
    refuseDeletedParts(facts.wanted, facts.products);
    refuseShortStock(facts.wanted, facts.products);
    // Delivered within the quote's own market (docs/quotes.md "In the buyer's market").
    await refuseOtherMarket(opts.markets, what.quote, facts.charges);
  }
  const discount = what.discountCode
    ? await placementDiscount(tx, what.discountCode, customer.id, facts)
    : undefined;
  const decided = decidePlacement(facts, {
    shippingMethodId: what.shippingMethodId,
    limits: (await opts.rules.get()).limits,
    pricing: facts.pricing,
    quotedPrices: what.quote ? quotedPrices(what.quote) : undefined,
    discount,
  });
  const { lines, charges, totalCents } = decided;
  requireDestination(facts);
  const { shippingCents, taxCents, coreDepositCents } = charges;
  return {
    subtotal: centsToUnits(lines.reduce((sum, l) => sum + l.unitPriceCents * l.qty, 0)),
    coreDeposits: centsToUnits(coreDepositCents),
    shipping: centsToUnits(shippingCents),
    shippingMethod: charges.shippingMethod,
    tax: centsToUnits(taxCents),
    total: centsToUnits(totalCents),
    ...(decided.discount && {
      discount: {
        code: decided.discount.code,
        amount: centsToUnits(decided.discount.totalCents),
      },
    }),
    // Gross prices: the VAT they contain and its rate (docs/tax.md).
    ...(charges.pricesIncludeTax && {
      pricesIncludeTax: true,
      taxRate: percentFromMilli(charges.taxRateMillipercent ?? 0),
    }),
  };
}
