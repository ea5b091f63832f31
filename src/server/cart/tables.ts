import { sql } from "../db/sql";
import { check, index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { timestampNow } from "../db/columns";
import { baseVehicles, vehicleEngines } from "../vehicles/tables";
import { ownerUserId } from "../users/tables";

/**
 * A signed-in customer's cart, one row per product: kept on the server so it survives signing
 * out and follows the customer to another device. No foreign key to the product: a line whose
 * product was deleted stays (with its name) so the cart can say so.
 */
export const cartItems = pgTable(
  "cart_items",
  {
    userId: ownerUserId(),
    productId: uuid("product_id").notNull(),
    /** The product's name when it was added, for a line whose product has since been deleted. */
    productName: text("product_name").notNull(),
    qty: integer("qty").notNull(),
    /** The unit price the customer saw when adding it, to tell them when it changed. */
    seenPriceCents: integer("seen_price_cents").notNull(),
    addedAt: timestampNow("added_at"),
    /**
     * The vehicle the part was added for (docs/vehicle-on-line.md): the catalog's base vehicle and
     * engine, checked when added; the order line keeps it. Null: none chosen (or since deleted
     * from the catalog). Named from the catalog whenever the cart is shown.
     */
    vehicleBaseVehicleId: integer("vehicle_base_vehicle_id").references(() => baseVehicles.id, {
      onDelete: "set null",
    }),
    vehicleEngineId: integer("vehicle_engine_id").references(() => vehicleEngines.id, {
      onDelete: "set null",
    }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    check("cart_items_qty_positive", sql`${t.qty} > 0`),
    // A catalog vehicle deleted sets its cart lines' ids to null: found by these (partial).
    index("cart_items_vehicle_idx")
      .on(t.vehicleBaseVehicleId)
      .where(sql`${t.vehicleBaseVehicleId} is not null`),
    index("cart_items_vehicle_engine_idx")
      .on(t.vehicleEngineId)
      .where(sql`${t.vehicleEngineId} is not null`),
  ],
);
