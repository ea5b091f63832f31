import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { DbOrTx } from "../../src/server/db/database";
import { injectAs } from "./requests";

/**
 * Every order goes somewhere the store charges shipping and tax for (docs/ordering.md, "Where it
 * goes"). Tests that are not about those charges send their orders here, to a store that
 * `shipsToTestAddress` has set up to ship to Oregon for nothing (and that taxes nothing, having
 * no tax rates): their totals stay the lines' sum.
 */
export const TEST_SHIP_TO = {
  name: "Test Driver",
  company: "",
  line1: "1 Dock Road",
  line2: "",
  city: "Salem",
  region: "OR",
  postalCode: "97301",
  country: "US",
  phone: "5550100",
} as const;

/**
 * The test store's "Test courier" zone: Oregon only (a zone naming a region beats a test's own
 * country-wide US zone), one free flat method. Written straight into the tables, as an admin's
 * shipping page would have them.
 */
export async function shipsToTestAddress(db: DbOrTx): Promise<void> {
  await db.execute(sql`
    with zone as (
      insert into shipping_zones (name, countries, regions)
      values ('Test courier', array['US'], array['OR'])
      returning id)
    insert into shipping_methods (zone_id, name, estimate, kind, price_cents)
    select id, 'Test courier', '1-2 business days', 'flat', 0 from zone`);
}

/**
 * The specification's one-product order (`POST /api/orders`), to `TEST_SHIP_TO`: the order keeps
 * that address's text and phone. `Address` is the specification's free text beside it.
 */
export function orderToTestAddress(productId: string, orderQty: number, Address = "1 Dock Road") {
  return { productId, orderQty, phonrNo: "5550100", Address, shipTo: TEST_SHIP_TO };
}

/** A customer's address in Austin, Texas, as the address book takes it (POST /api/user/addresses). */
export const AUSTIN_ADDRESS = {
  name: "Jane Doe",
  line1: "100 Congress Ave",
  city: "Austin",
  region: "TX",
  postalCode: "78701",
  country: "US",
  phone: "5125550100",
};

/** A company's ship-to dock in Austin, Texas, without its name: a company_addresses row's place. */
export const AUSTIN_DOCK = {
  line1: "1 Main St",
  city: "Austin",
  region: "TX",
  postalCode: "78701",
  country: "US",
  phone: "5125550100",
};

/** The admin's "United States" zone with one flat "Standard" method (POST /api/shipping-zones). */
export function flatUsShipping(
  app: FastifyInstance,
  admin: { cookie: string },
  price: number,
  estimate = "3-5 business days",
) {
  return injectAs(app, admin, "POST", "/api/shipping-zones", {
    name: "United States",
    countries: ["US"],
    methods: [{ name: "Standard", estimate, kind: "flat", price }],
  });
}

/** The admin's "Texas sales tax" at `rate` percent (POST /api/tax-rates). */
export function texasSalesTax(app: FastifyInstance, admin: { cookie: string }, rate: number) {
  return injectAs(app, admin, "POST", "/api/tax-rates", {
    country: "US",
    region: "TX",
    name: "Texas sales tax",
    rate,
  });
}

/** The cart's checkout (`POST /api/checkout`) to `TEST_SHIP_TO` at the total the customer saw. */
export function checkoutToTestAddress(expectedTotal: number, Address = "1 Dock Road") {
  return { phonrNo: "5550100", Address, shipTo: TEST_SHIP_TO, expectedTotal };
}

/** Places `orderToTestAddress`'s order as `who` (POST /api/orders); the response. */
export function placeTestOrder(
  app: FastifyInstance,
  who: { cookie: string },
  productId: string,
  orderQty: number,
  Address?: string,
) {
  return injectAs(
    app,
    who,
    "POST",
    "/api/orders",
    orderToTestAddress(productId, orderQty, Address),
  );
}

/** Checks out `who`'s cart to `TEST_SHIP_TO` at `expectedTotal` (POST /api/checkout); the response. */
export function checkoutTestCart(
  app: FastifyInstance,
  who: { cookie: string },
  expectedTotal: number,
  Address?: string,
) {
  return injectAs(app, who, "POST", "/api/checkout", checkoutToTestAddress(expectedTotal, Address));
}
