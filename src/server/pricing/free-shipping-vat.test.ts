import { expect, test } from "vitest";
import {
  EUROPE_VAT_INCLUDED,
  oneLineFacts,
  oneMethodZone,
  productFacts,
} from "../../../tests/support/placement-facts";
import { decidePlacement } from "../checkout/decide";
import { loadConfig } from "../config";
import { inMarket, type PricingContext } from "./pricing";

// A "free from" shipping threshold in a market whose consumers see VAT included (docs/shipping.md
// "Free from an order value"): converted into the market's currency and compared with the parts as
// the buyer is shown them: a consumer's gross prices, a trade buyer's net ones. Without a
// database: the checkout's decision, which the cart's quote shares.

const limits = loadConfig({}).holdLimits;
const consumer = inMarket({ currency: "USD" }, EUROPE_VAT_INCLUDED);
const trade = inMarket(
  { currency: "USD", companyId: "garage" } as PricingContext,
  EUROPE_VAT_INCLUDED,
);

const part = productFacts("a", { weightGrams: 1_000 });
// Germany: $7.50 shipping, free from $100.00 (€92.00); 19 % VAT, on shipping too.
const germany = {
  place: { country: "DE", region: null, postalCode: "10115" },
  zones: [
    oneMethodZone(
      { id: "de", name: "Germany", countries: ["DE"] },
      { kind: "free_over", priceCents: 750, freeOverCents: 10_000 },
    ),
  ],
  rates: [
    {
      id: "de",
      country: "DE",
      region: "",
      name: "VAT",
      rateMillipercent: 19_000,
      appliesToShipping: true,
    },
  ],
};
const decide = (qty: number, pricing: PricingContext) =>
  decidePlacement(oneLineFacts(part, qty, germany), { limits, pricing });

test("a consumer's gross parts reach €92.00 where the same parts net do not: their shipping is free", () => {
  // $12.50 is €11.50 net, €13.69 with 19 %: seven are €95.83 shown (€80.50 net).
  const seven = decide(7, consumer);
  expect(seven.lines[0]).toMatchObject({ unitPriceCents: 1369 });
  expect(seven.charges).toMatchObject({ shippingCents: 0 });
  // Six are €82.14: the shipping's €6.90 is €8.21 with VAT.
  expect(decide(6, consumer).charges).toMatchObject({ shippingCents: 821 });
});

test("a trade buyer's net parts are compared: seven at €11.50 (€80.50) pay shipping, eight (€92.00) do not", () => {
  const seven = decide(7, trade);
  expect(seven.lines[0]).toMatchObject({ unitPriceCents: 1150 });
  expect(seven.charges).toMatchObject({ shippingCents: 690 });
  expect(decide(8, trade).charges).toMatchObject({ shippingCents: 0 });
});
