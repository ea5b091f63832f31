import type { ChargeFacts } from "../../src/server/charges/estimate";
import type { PlacementFacts, ProductFacts } from "../../src/server/checkout/decide";
import type { PricingMarket } from "../../src/server/pricing/pricing";
import type { ShippingMethodRule, ShippingZoneRule } from "../../src/server/shipping/rates";
import type { TaxRateRule } from "../../src/server/tax/rules";

/**
 * What the checkout's pure decision (`decidePlacement`) is handed in tests without a database:
 * a part as the read found it, a zone with its one shipping method, a tax rate, the European
 * market, one line of one part.
 */

/** A part `Part <id>`, number `PN-<id>`, at $12.50, sold one at a time, 100 on the shelf. */
export const productFacts = (id: string, over: Partial<ProductFacts> = {}): ProductFacts => ({
  id,
  name: `Part ${id}`,
  partNumber: `PN-${id}`,
  listPriceCents: 1250,
  minimumOrder: 1,
  available: 100,
  ...over,
});

/** The id of a test zone's one shipping method. */
export const METHOD_ID = "11111111-1111-4111-8111-111111111111";

/**
 * A zone of whole countries with one method: `Standard`, delivered in "3 days", without a
 * threshold or bands, unless `method` says otherwise.
 */
export const oneMethodZone = (
  zone: Pick<ShippingZoneRule, "id" | "name" | "countries">,
  method: Pick<ShippingMethodRule, "kind" | "priceCents"> & Partial<ShippingMethodRule>,
): ShippingZoneRule => ({
  ...zone,
  regions: [],
  methods: [
    {
      id: METHOD_ID,
      name: "Standard",
      estimate: "3 days",
      freeOverCents: null,
      bands: [],
      ...method,
    },
  ],
});

/** Texas sales tax: 6.25 %, on shipping too. */
export const TEXAS_SALES_TAX: TaxRateRule = {
  id: "tx",
  country: "US",
  region: "TX",
  name: "Texas sales tax",
  rateMillipercent: 6250,
  appliesToShipping: true,
};

/** The European market: euros at 0.92 dollars' worth, rounded to the cent. */
export const EUROPE: PricingMarket = { code: "EU", currency: "EUR", rate: 0.92, rounding: "cent" };

/** The European market whose consumers are shown prices with Germany's 19 % VAT included. */
export const EUROPE_VAT_INCLUDED: PricingMarket = {
  ...EUROPE,
  pricesIncludeTax: true,
  taxRateMillipercent: 19_000,
};

/**
 * One line of `qty` of `part` (its id as sent), from a trusted customer who holds `heldCents`,
 * going where `charges` say (absent: no place named).
 */
export const oneLineFacts = (
  part: ProductFacts,
  qty: number,
  charges?: ChargeFacts,
  heldCents = 0,
): PlacementFacts => ({
  wanted: [{ productId: part.id, qty }],
  products: new Map([[part.id, part]]),
  standing: { trusted: true, heldCents, unpaidProductIds: [] },
  ...(charges ? { charges } : {}),
});
