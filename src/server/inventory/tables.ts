import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sql } from "../db/sql";
import { requiredUuidRef, timestampNow, timestampTz, uuidPrimaryKey } from "../db/columns";
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

/**
 * How orders are allocated to locations (docs/inventory.md "Allocation"), one row set by an
 * admin: with `wholeOrder`, from one location when one has the whole order; else each line from
 * the nearest. `allocate_stock` (migrations 0070, 0080) reads it.
 */
export const allocationPolicy = pgTable(
  "allocation_policy",
  {
    id: boolean("id").primaryKey().default(true),
    wholeOrder: boolean("whole_order").notNull().default(false),
    updatedAt: timestampNow("updated_at"),
  },
  (t) => [check("allocation_policy_id_check", sql`${t.id}`)],
);

/**
 * Where stock is kept (docs/inventory.md "Locations"): the store's warehouses, with their address
 * and the destinations they serve first. One is the home location (the plant): it keeps whatever
 * part of a product's stock the other locations do not (below), so a store with one location
 * needs no rows of stock per location at all.
 */
export const stockLocations = pgTable(
  "stock_locations",
  {
    id: uuidPrimaryKey(),
    /** A short code people and files name it by (`CHI`), unique. */
    code: text("code").notNull(),
    name: text("name").notNull(),
    line1: text("line1").notNull().default(""),
    city: text("city").notNull().default(""),
    region: text("region").notNull().default(""),
    postalCode: text("postal_code").notNull().default(""),
    /** ISO 3166-1 alpha-2. */
    country: text("country").notNull(),
    /** The countries it serves first (empty: none in particular). */
    servesCountries: text("serves_countries")
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** Within those countries, only these regions (empty: the whole of each). */
    servesRegions: text("serves_regions")
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** Among locations that serve a destination equally, the lower ships first. */
    priority: integer("priority").notNull().default(100),
    isHome: boolean("is_home").notNull().default(false),
    /** An inactive location sells nothing and holds nothing on sale. The home one is active. */
    active: boolean("active").notNull().default(true),
    /** Working days from an order to its parcel leaving here (0: the same day; migration 0082). */
    dispatchDays: integer("dispatch_days").notNull().default(1),
    /** The hour (UTC) from which an order counts from the next working day; null: none. */
    cutoffHour: integer("cutoff_hour"),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    check(
      "stock_locations_dispatch_valid",
      sql`${t.dispatchDays} >= 0 AND ${t.dispatchDays} <= 60 AND (${t.cutoffHour} IS NULL OR (${t.cutoffHour} >= 1 AND ${t.cutoffHour} <= 23))`,
    ),
    uniqueIndex("stock_locations_code_idx").on(sql`upper(${t.code})`),
    uniqueIndex("stock_locations_one_home_idx")
      .on(t.isHome)
      .where(sql`${t.isHome}`),
    check("stock_locations_home_active", sql`not ${t.isHome} or ${t.active}`),
    check("stock_locations_code_valid", sql`${t.code} ~ '^[A-Za-z0-9-]{1,12}$'`),
  ],
);

/**
 * A product's stock on sale at a location other than the home one,.
 * The home location's stock on sale is the product's `available_quantity` less the sum of these
 * (never below zero: every move here holds the product's row lock and checks it), so every writer
 * of a product's stock total (the admin's form, the CSV, the bulk sync) moves the home share.
 * Units allocated to orders are in `stock_allocations`: on hand = on sale + allocated.
 */
export const locationStock = pgTable(
  "location_stock",
  {
    /** The product (its foreign key, deleted with it, is migration 0070's: see `stockAllocations`). */
    productId: uuid("product_id").notNull(),
    locationId: requiredUuidRef("location_id", () => stockLocations.id, "cascade"),
    available: integer("available").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.locationId] }),
    index("location_stock_location_idx").on(t.locationId),
    check("location_stock_available_not_negative", sql`${t.available} >= 0`),
  ],
);

/**
 * A product's reorder level at a location (the home one too): below it, the location's stock is
 * low (the daily email, the Today page). None: the store's low-stock threshold applies.
 */
export const reorderLevels = pgTable(
  "reorder_levels",
  {
    /** The product (its foreign key, deleted with it, is migration 0070's). */
    productId: uuid("product_id").notNull(),
    locationId: requiredUuidRef("location_id", () => stockLocations.id, "cascade"),
    level: integer("level").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.locationId] }),
    check("reorder_levels_not_negative", sql`${t.level} >= 0`),
  ],
);

/**
 * Units of an order's product held or allocated at a location and not shipped yet: taken from
 * the location's stock on sale when the order was placed (the nearest that has them), given back
 * when it is cancelled or deleted, and gone as they ship from there.
 */
export const stockAllocations = pgTable(
  "stock_allocations",
  {
    /**
     * The order: its foreign key (deleted with the order) is checked at commit (migration 0070),
     * as the placement's statement allocates before its order row exists. Product keys are kept
     * in SQL too: the inventory does not import the catalog, which asks it about stock.
     */
    orderId: uuid("order_id").notNull(),
    productId: uuid("product_id").notNull(),
    /**
     * The location: no foreign key (migration 0085), whose check would lock the location's row
     * in every placement; locations are never deleted (a trigger refuses it).
     */
    locationId: uuid("location_id").notNull(),
    qty: integer("qty").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.productId, t.locationId] }),
    index("stock_allocations_product_idx").on(t.productId, t.locationId),
    check("stock_allocations_qty_positive", sql`${t.qty} > 0`),
  ],
);

/**
 * Transfers of stock on sale between two locations (docs/inventory.md "Counts and transfers"),
 * kept as history: the admin's id and email are copied, so a row outlives the account.
 */
export const stockTransfers = pgTable(
  "stock_transfers",
  {
    id: uuidPrimaryKey(),
    /** The product (its foreign key, deleted with it, is migration 0071's). */
    productId: uuid("product_id").notNull(),
    fromLocationId: requiredUuidRef("from_location_id", () => stockLocations.id, "restrict"),
    toLocationId: requiredUuidRef("to_location_id", () => stockLocations.id, "restrict"),
    qty: integer("qty").notNull(),
    adminId: text("admin_id").notNull(),
    adminEmail: text("admin_email").notNull(),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    index("stock_transfers_product_idx").on(t.productId, t.createdAt.desc()),
    index("stock_transfers_created_idx").on(t.createdAt.desc()),
    check("stock_transfers_qty_positive", sql`${t.qty} > 0`),
    check("stock_transfers_two_locations", sql`${t.fromLocationId} <> ${t.toLocationId}`),
  ],
);

/**
 * Supply coming to a location (docs/inventory.md "Incoming supply"): a production run of the
 * plant or a purchase order, its part, quantity and expected date. Received units go on sale at
 * the location; an open supply's units still to come are `qty - received`, the dates promised to
 * backordered lines come from them (first expected first).
 */
export const incomingSupply = pgTable(
  "incoming_supply",
  {
    id: uuidPrimaryKey(),
    /** `production` (a run of the plant) or `purchase_order`. */
    kind: text("kind").notNull(),
    /** The run or PO number people know it by. */
    reference: text("reference").notNull(),
    /** The product (its foreign key, deleted with it, is migration 0072's). */
    productId: uuid("product_id").notNull(),
    locationId: requiredUuidRef("location_id", () => stockLocations.id, "restrict"),
    qty: integer("qty").notNull(),
    received: integer("received").notNull().default(0),
    expectedOn: date("expected_on", { mode: "string" }).notNull(),
    /** `open` until every unit arrived (`received`) or it was `cancelled`. */
    status: text("status").notNull().default("open"),
    note: text("note").notNull().default(""),
    createdAt: timestampNow("created_at"),
    updatedAt: timestampNow("updated_at"),
  },
  (t) => [
    index("incoming_supply_product_idx").on(t.productId, t.status, t.expectedOn),
    index("incoming_supply_location_idx").on(t.locationId),
    index("incoming_supply_status_idx").on(t.status, t.expectedOn),
    /** A run or PO brings a part once (received or still coming), so no file is imported twice. */
    uniqueIndex("incoming_supply_reference_idx")
      .on(t.kind, sql`upper(${t.reference})`, t.productId)
      .where(sql`${t.status} <> 'cancelled'`),
    check("incoming_supply_kind_valid", sql`${t.kind} in ('production', 'purchase_order')`),
    check("incoming_supply_status_valid", sql`${t.status} in ('open', 'received', 'cancelled')`),
    check("incoming_supply_reference_present", sql`length(btrim(${t.reference})) > 0`),
    check("incoming_supply_qty_positive", sql`${t.qty} > 0`),
    check("incoming_supply_received_valid", sql`${t.received} >= 0 AND ${t.received} <= ${t.qty}`),
    check(
      "incoming_supply_received_all",
      sql`${t.status} <> 'received' OR ${t.received} = ${t.qty}`,
    ),
  ],
);

/**
 * A product that takes backorders (docs/inventory.md "Backorders"): beyond its stock on sale, up
 * to what open supply still brings, or without bound with a lead time (days from the order).
 */
export const backorderPolicies = pgTable(
  "backorder_policies",
  {
    /** The product (its foreign key, deleted with it, is migration 0073's). */
    productId: uuid("product_id").primaryKey(),
    leadDays: integer("lead_days"),
    updatedAt: timestampNow("updated_at"),
  },
  () => [
    check(
      "backorder_policies_lead_days_valid",
      sql`lead_days IS NULL OR (lead_days >= 1 AND lead_days <= 730)`,
    ),
  ],
);

/**
 * The units of an order line that were not on the shelf when it was placed: `waiting` for supply
 * (first placed, first served), `cancelled`, or allocated since (the rest). `promisedOn` is the
 * date promised now (the covering supply's, else `leadOn`, the lead time's at placement).
 */
export const backorders = pgTable(
  "backorders",
  {
    id: uuidPrimaryKey(),
    /** The order (checked at commit, as allocations are) and the product: migration 0073's keys. */
    orderId: uuid("order_id").notNull(),
    line: integer("line").notNull(),
    productId: uuid("product_id").notNull(),
    qty: integer("qty").notNull(),
    waiting: integer("waiting").notNull(),
    cancelled: integer("cancelled").notNull().default(0),
    leadOn: date("lead_on", { mode: "string" }),
    promisedOn: date("promised_on", { mode: "string" }),
    /**
     * The date the buyer was last told (`told`: at placement on the order's pages, later by the
     * "backorder-dates" job's email); a waiting line promised another is emailed (migration 0076).
     */
    told: boolean("told").notNull().default(false),
    toldOn: date("told_on", { mode: "string" }),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    uniqueIndex("backorders_order_line_unique").on(t.orderId, t.line),
    index("backorders_queue_idx")
      .on(t.productId, t.createdAt, t.id)
      .where(sql`${t.waiting} > 0`),
    check("backorders_qty_positive", sql`${t.qty} > 0`),
    check(
      "backorders_counts_valid",
      sql`${t.waiting} >= 0 AND ${t.cancelled} >= 0 AND ${t.waiting} + ${t.cancelled} <= ${t.qty}`,
    ),
  ],
);
