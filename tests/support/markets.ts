import type { FastifyInstance } from "fastify";
import type { Market } from "../../src/contract/markets";
import type { TestAccount } from "./accounts";
import { TEST_SHIP_TO } from "./destination";
import { injectAs } from "./requests";

/** A German delivery address: an order to it is priced in Europe (its country's market). */
export const BERLIN_SHIP_TO = {
  ...TEST_SHIP_TO,
  city: "Berlin",
  region: "",
  postalCode: "10115",
  country: "DE",
};

/**
 * A market changed as the admin's form sends it (`PATCH /api/markets/{id}`, the whole market
 * again) by `admin`, with `changes` over what it is; the response.
 */
export function changeMarket(
  app: FastifyInstance,
  admin: TestAccount,
  market: Market,
  changes: Partial<Pick<Market, "rate" | "pricesIncludeTax" | "active" | "rounding">>,
) {
  return injectAs(app, admin, "PATCH", `/api/markets/${market.id}`, {
    code: market.code,
    name: market.name,
    currency: market.currency,
    countries: market.countries,
    rate: market.rate,
    rounding: market.rounding,
    active: market.active,
    pricesIncludeTax: market.pricesIncludeTax,
    ...changes,
  });
}

/** Germany's VAT (19 %, on shipping too), added by `admin` as the tax rates screen does. */
export function addGermanVat(app: FastifyInstance, admin: TestAccount) {
  return injectAs(app, admin, "POST", "/api/tax-rates", {
    country: "DE",
    region: "",
    postalCode: "",
    name: "VAT",
    rate: 19,
    appliesToShipping: true,
  });
}
