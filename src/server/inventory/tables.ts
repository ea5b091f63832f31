import { pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { timestampTz } from "../db/columns";
import { ownerUserId } from "../users/tables";

/**
 * When an account's hold on a product ends: the first unpaid order of the product opens the
 * window, and an order placed again while it is open (after deleting the first) holds the stock
 * only until the same time, so deleting and re-ordering never renews a hold. Paying closes it.
 */
export const holdWindows = pgTable(
  "hold_windows",
  {
    userId: ownerUserId(),
    productId: uuid("product_id").notNull(),
    expiresAt: timestampTz("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] })],
);
