import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { TestAccount } from "./accounts";
import { checkoutToTestAddress, TEST_SHIP_TO } from "./destination";
import type { TestApp } from "./test-app";

/**
 * Backorder set-ups for the queue's and the stock's concurrency tests, through the real API
 * (docs/inventory.md "Backorders"): a part that takes backorders, supply coming to any location,
 * a cart checked out with the buyer's choice of how it ships and the ship-to's company.
 */
export function queueSteps(t: TestApp, admin: () => TestAccount) {
  const as = (
    who: { cookie: string },
    method: "GET" | "PUT" | "POST" | "PATCH" | "DELETE",
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, headers: { cookie: who.cookie }, payload });

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

    /** A production run of `qty` units of the part, expected at the location on that day. */
    async supply(
      productId: string,
      locationId: string,
      qty: number,
      expectedOn: string,
      reference: string,
    ): Promise<string> {
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

    /** Puts `qty` of the product in the customer's cart. */
    async inCart(who: TestAccount, productId: string, qty: number) {
      const res = await as(who, "PUT", `/api/cart/items/${productId}`, { qty });
      expect(res.statusCode, res.body).toBe(200);
    },

    /**
     * Checks the cart out to the test address (the ship-to's company as given) at the total the
     * server states (asked once with a wrong one); the answer.
     */
    async checkout(who: TestAccount, fulfilment?: "complete" | "available", company = "") {
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
  };
}
