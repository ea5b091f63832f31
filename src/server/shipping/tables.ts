import { sql } from "../db/sql";
import { check, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { requiredUuidRef, timestampNow, uuidPrimaryKey } from "../db/columns";
import { shippingRateKinds, type DeliveryParcel } from "../../contract/shipping";
import { orders } from "../orders/tables";

/** Where the store ships: countries, optionally only some of their regions. */
export const shippingZones = pgTable("shipping_zones", {
  id: uuidPrimaryKey(),
  name: text("name").notNull(),
  countries: text("countries").array().notNull(),
  /** Empty: the whole of each country. Otherwise only these regions (codes or names). */
  regions: text("regions")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  createdAt: timestampNow("created_at"),
});

/** A way a zone is served, with its rate (see src/server/shipping/rates.ts). */
export const shippingMethods = pgTable(
  "shipping_methods",
  {
    id: uuidPrimaryKey(),
    zoneId: requiredUuidRef("zone_id", () => shippingZones.id, "cascade"),
    position: integer("position").notNull().default(0),
    name: text("name").notNull(),
    /** How long delivery takes, as customers read it ("2-4 business days"). */
    estimate: text("estimate").notNull().default(""),
    kind: text("kind", { enum: shippingRateKinds }).notNull(),
    /** flat: the price; free_over: the price below the threshold; weight: unused (0). */
    priceCents: integer("price_cents").notNull().default(0),
    /** free_over: order value (lines, net) from which shipping is free. */
    freeOverCents: integer("free_over_cents"),
    /** weight: ascending bands, each the price up to that weight in grams. */
    bands: jsonb("bands")
      .$type<{ upToGrams: number; priceCents: number }[]>()
      .notNull()
      .default([]),
    /** Working days in transit, least and most (null: no estimate; migration 0082). */
    transitMinDays: integer("transit_min_days"),
    transitMaxDays: integer("transit_max_days"),
  },
  (t) => [
    check(
      "shipping_methods_transit_valid",
      sql`(${t.transitMinDays} IS NULL AND ${t.transitMaxDays} IS NULL) OR (${t.transitMinDays} >= 0 AND ${t.transitMaxDays} >= ${t.transitMinDays} AND ${t.transitMaxDays} <= 90)`,
    ),
    index("shipping_methods_zone_idx").on(t.zoneId, t.position),
    check("shipping_methods_kind_valid", sql`${t.kind} in ('flat', 'weight', 'free_over')`),
    check("shipping_methods_price_nonnegative", sql`${t.priceCents} >= 0`),
  ],
);

/**
 * The delivery window an order was promised when it was placed through the cart's checkout with
 * a method that has transit days (docs/shipping.md "The promise kept with the order"), from its
 * actual allocations and backorders, written in the placement's transaction (migration 0087).
 */
export const deliveryPromises = pgTable(
  "delivery_promises",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** The shipping method's name, as the order keeps it. */
    method: text("method").notNull(),
    parcels: jsonb("parcels").$type<DeliveryParcel[]>().notNull(),
    /** Units on backorder no date could be promised for. */
    undated: integer("undated").notNull().default(0),
    /** The whole window in words, as the order-placed email said it. */
    words: text("words").notNull(),
    promisedAt: timestampNow("promised_at"),
  },
  (t) => [check("delivery_promises_undated_valid", sql`${t.undated} >= 0`)],
);
