import { sql } from "../db/sql";
import {
  check,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { requiredUuidRef, timestampNow, uuidPrimaryKey } from "../db/columns";
import { shippingCarriers } from "../../contract/shipping-carriers";
import { orderItems, orders } from "../orders/tables";
import { stockLocations } from "../inventory/tables";

/**
 * One parcel of an order: some of its lines (and part quantities of a line) handed to a carrier
 * at one time (docs/shipments.md). Shipping the whole order at once is one shipment.
 */
export const shipments = pgTable(
  "shipments",
  {
    id: uuidPrimaryKey(),
    orderId: requiredUuidRef("order_id", () => orders.id, "cascade"),
    /** Who carries it and its tracking number (both or neither). */
    carrier: text("carrier", { enum: shippingCarriers }),
    trackingNumber: text("tracking_number"),
    /** Where it shipped from (docs/inventory.md); none for shipments before locations. */
    locationId: uuid("location_id").references(() => stockLocations.id, { onDelete: "restrict" }),
    shippedAt: timestampNow("shipped_at"),
  },
  (t) => [
    index("shipments_order_idx").on(t.orderId, t.shippedAt),
    check(
      "shipments_tracking_both_or_neither",
      sql`(${t.carrier} is null) = (${t.trackingNumber} is null)`,
    ),
  ],
);

/** What one shipment carried: units of one order line. */
export const shipmentLines = pgTable(
  "shipment_lines",
  {
    shipmentId: requiredUuidRef("shipment_id", () => shipments.id, "cascade"),
    orderId: uuid("order_id").notNull(),
    /** The order line (order_items.line). */
    line: integer("line").notNull(),
    qty: integer("qty").notNull(),
    /** The production lot of these units (docs/warranty.md "Lots"), if the store records it. */
    lot: text("lot"),
  },
  (t) => [
    primaryKey({ columns: [t.shipmentId, t.line] }),
    foreignKey({
      columns: [t.orderId, t.line],
      foreignColumns: [orderItems.orderId, orderItems.line],
    }).onDelete("cascade"),
    index("shipment_lines_order_idx").on(t.orderId, t.line),
    check("shipment_lines_qty_positive", sql`${t.qty} > 0`),
    check("shipment_lines_lot_valid", sql`${t.lot} ~ '^[A-Za-z0-9._/-]{1,40}$'`),
  ],
);

/**
 * Units shipped per part, month the order was placed (its first day, UTC) and production lot
 * ('' when none): what the warranty report counts as sold (docs/warranty.md "The report"), kept by
 * this module as it ships (`sales.ts`) and sets lots, and filled from the shipments before it by
 * migration 0069. A warranty claim's $0 replacement is not a sale: it is left out. The part's
 * number and name are the latest shipped.
 */
export const shippedUnits = pgTable(
  "shipped_units",
  {
    productId: uuid("product_id").notNull(),
    month: date("month").notNull(),
    lot: text("lot").notNull().default(""),
    qty: integer("qty").notNull(),
    partNumber: text("part_number"),
    productName: text("product_name").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.month, t.lot] }),
    check("shipped_units_qty_nonnegative", sql`${t.qty} >= 0`),
  ],
);
