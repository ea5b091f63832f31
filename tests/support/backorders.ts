import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Cart } from "../../src/contract/cart";
import type { OrderShipments } from "../../src/contract/shipments";
import { checkoutToTestAddress, TEST_SHIP_TO } from "./destination";
import { requestsAs } from "./requests";
import { storeForTests } from "./store";
import type { TestApp } from "./test-app";

/**
 * The store the backorder tests run against (storeForTests, so called at the top of the file):
 * it ships to the test address, has `adminEmail` signed in, and lets many customers sign up from
 * one address; with `backorderHelpers` for it.
 */
export function backorderStoreForTests(adminEmail: string) {
  const { t, admin } = storeForTests({
    admin: adminEmail,
    shipsToTestAddress: true,
    env: { AUTH_RATE_LIMIT_PER_IP: "1000" },
  });
  return { t, admin, h: backorderHelpers(t, () => admin) };
}

/**
 * Backorders through the API (docs/inventory.md "Backorders"): an admin's policy and supply, a
 * buyer's cart and checkout, and what an order's shipments say; for the backorder, queue and
 * stock concurrency tests. `admin` answers the admin account (signed up in the test's
 * `beforeAll`).
 */
export function backorderHelpers(t: TestApp, admin: () => { cookie: string }) {
  const as = requestsAs(() => t.app);

  return {
    as,

    /** The home location's id. */
    async homeLocation(): Promise<string> {
      const rows = await t.database.db.execute<{ id: string }>(
        sql`select id from stock_locations where is_home`,
      );
      return rows.rows[0]!.id;
    },

    /** The admin's "Takes backorders" on the product's stock page. */
    async takesBackorders(productId: string, leadDays: number | null = null) {
      const res = await as(admin(), "PUT", `/api/locations/stock/${productId}/backorders`, {
        takes: true,
        leadDays,
      });
      expect(res.statusCode, res.body).toBe(200);
    },

    /** Production of `qty` at a location, expected on a date. */
    async supply(
      productId: string,
      locationId: string,
      qty: number,
      expectedOn: string,
      reference: string,
    ) {
      const res = await as(admin(), "POST", "/api/incoming-supply", {
        kind: "production",
        reference,
        productId,
        locationId,
        qty,
        expectedOn,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string }>().id;
    },

    /** Puts `qty` of the product in the customer's cart; the cart as they see it. */
    async inCart(who: { cookie: string }, productId: string, qty: number): Promise<Cart> {
      const res = await as(who, "PUT", `/api/cart/items/${productId}`, { qty });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Cart>();
    },

    /**
     * Checks the cart out to the test address (for `company`, if given) at the total the server
     * states (asked once with a wrong one); the answer.
     */
    async checkout(who: { cookie: string }, fulfilment?: "complete" | "available", company = "") {
      const body = (total: number) => ({
        ...checkoutToTestAddress(total),
        shipTo: { ...TEST_SHIP_TO, company },
        ...(fulfilment ? { fulfilment } : {}),
      });
      const first = await as(who, "POST", "/api/checkout", body(0));
      if (first.statusCode !== 409) return first;
      const total = Number(first.json<{ fields: { total: string } }>().fields.total);
      return as(who, "POST", "/api/checkout", body(total));
    },

    /** The order's shipments as its page shows them (to the admin). */
    shipmentsOf: async (orderId: string) =>
      (await as(admin(), "GET", `/api/orders/${orderId}/shipments`)).json<OrderShipments>(),

    /** The product's stock on sale. */
    async available(productId: string) {
      const rows = await t.database.db.execute<{ n: number }>(
        sql`select available_quantity as n from products where id = ${productId}`,
      );
      return rows.rows[0]!.n;
    },
  };
}
