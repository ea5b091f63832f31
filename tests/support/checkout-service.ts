import { createCheckout, type CheckoutOptions } from "../../src/server/checkout/workflow";
import { loadConfig } from "../../src/server/config";
import type { Db } from "../../src/server/db/database";
import { createInventory, type Inventory } from "../../src/server/inventory/service";
import { fixedOrderRules } from "../../src/server/orders/limits";

/**
 * The checkout service (`checkout/workflow.ts`) on `db`, for a test that places orders without the
 * routes: in dollars, the order limits as shipped (`loadConfig({})`), an hour's hold unless
 * `holdMs` says. `uncapped`: without the cap on what new customers hold together (a share of 1,
 * as createTestApp runs the app), for tests of something else with fresh accounts. `inventory`:
 * one the test shares with another service (a fresh one on `db` without it). The rest are the
 * checkout's own options (its mail, invoices, memory).
 */
export function testCheckout(
  db: Db,
  {
    holdMs = 3_600_000,
    uncapped = false,
    inventory = createInventory(db),
    ...options
  }: Omit<CheckoutOptions, "currency" | "rules"> & {
    holdMs?: number;
    uncapped?: boolean;
    inventory?: Inventory;
  } = {},
) {
  const shipped = loadConfig({}).holdLimits;
  return createCheckout(inventory, {
    currency: "USD",
    rules: fixedOrderRules({
      holdMs,
      limits: uncapped ? { ...shipped, newCustomerShare: 1 } : shipped,
    }),
    ...options,
  });
}
