import { sql } from "../db/sql";
import {
  check,
  index,
  integer,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { requiredUuidRef, timestampNow, timestampTz, uuidPrimaryKey } from "../db/columns";
import {
  feeConditions,
  receivedConditions,
  returnPhotoTypes,
  returnReasons,
  returnStatuses,
} from "../../contract/returns";
import { invoices } from "../invoices/tables";
import { orders } from "../orders/tables";
import { user } from "../users/tables";
import { baseVehicles, vehicleEngines } from "../vehicles/tables";

/** RMA numbers (`RMA-10001`): a plain sequence, as a gap costs nothing (not a tax document). */
export const rmaSequence = pgSequence("return_rma_seq", { startWith: 10001 });

/** A customer's request to send back lines of a shipped order, and what became of it. */
export const returnRequests = pgTable(
  "return_requests",
  {
    id: uuidPrimaryKey(),
    orderId: requiredUuidRef("order_id", () => orders.id, "restrict"),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    /** The human number, `RMA-<n>`: shown to the customer, on the parcel and in the emails. */
    rmaNumber: integer("rma_number")
      .notNull()
      .unique()
      .default(sql`nextval('return_rma_seq')`),
    status: text("status", { enum: returnStatuses }).notNull().default("requested"),
    reason: text("reason", { enum: returnReasons }).notNull(),
    /** The vehicle the part did not fit (did_not_fit only): the catalog's name, or free text. */
    vehicle: text("vehicle"),
    /** The catalog's vehicle, when picked from My garage or the selector (or the line's). */
    vehicleBaseVehicleId: integer("vehicle_base_vehicle_id").references(() => baseVehicles.id, {
      onDelete: "set null",
    }),
    vehicleEngineId: integer("vehicle_engine_id").references(() => vehicleEngines.id, {
      onDelete: "set null",
    }),
    note: text("note"),
    /**
     * The warranty claim (its number) that asked for the part back (docs/warranty.md): received,
     * the return waits for the claim's decision (`inspecting`) instead of refunding at once.
     */
    warrantyClaim: integer("warranty_claim"),
    /** The admin's message when refusing (or the instructions' extra words when approving). */
    adminMessage: text("admin_message"),
    requestedAt: timestampNow("requested_at"),
    decidedAt: timestampTz("decided_at"),
    receivedAt: timestampTz("received_at"),
  },
  (t) => [
    index("return_requests_order_idx").on(t.orderId),
    index("return_requests_status_idx").on(t.status, t.requestedAt),
    check(
      "return_requests_status_valid",
      sql`${t.status} in ('requested', 'approved', 'refused', 'received', 'inspecting', 'refund_failed', 'refunded', 'closed')`,
    ),
    index("return_requests_vehicle_idx")
      .on(t.vehicleBaseVehicleId)
      .where(sql`${t.vehicleBaseVehicleId} is not null`),
    index("return_requests_vehicle_engine_idx")
      .on(t.vehicleEngineId)
      .where(sql`${t.vehicleEngineId} is not null`),
  ],
);

/** The lines (and quantities) a return sends back, with what they refund. */
export const returnLines = pgTable(
  "return_lines",
  {
    returnId: requiredUuidRef("return_id", () => returnRequests.id, "cascade"),
    /** The order line (order_items.line). */
    line: integer("line").notNull(),
    qty: integer("qty").notNull(),
    netCents: integer("net_cents").notNull(),
    taxCents: integer("tax_cents").notNull(),
    /** What arrived (null until received): how many, their condition, what they refund. */
    receivedQty: integer("received_qty"),
    condition: text("condition", { enum: receivedConditions }),
    refundNetCents: integer("refund_net_cents"),
    refundTaxCents: integer("refund_tax_cents"),
    /** The restocking fee kept on the line (net and tax together). */
    feeCents: integer("fee_cents").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.returnId, t.line] }),
    check("return_lines_qty_positive", sql`${t.qty} > 0`),
    check(
      "return_lines_received_valid",
      sql`${t.receivedQty} is null or (${t.receivedQty} >= 0 and ${t.receivedQty} <= ${t.qty})`,
    ),
    check(
      "return_lines_condition_valid",
      sql`${t.condition} is null or ${t.condition} in ('as_new', 'damaged', 'used', 'wrong_part')`,
    ),
  ],
);

/**
 * The admin's restocking-fee rule (one row, id 1; none: no fee): a percent of a received line's
 * refund kept for the conditions chosen, on returns for the customer's own reasons.
 */
export const returnSettings = pgTable(
  "return_settings",
  {
    id: integer("id").primaryKey().default(1),
    restockingFeePercent: integer("restocking_fee_percent").notNull().default(0),
    feeConditions: text("fee_conditions", { enum: feeConditions })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    updatedAt: timestampNow("updated_at"),
  },
  (t) => [
    check("return_settings_one_row", sql`${t.id} = 1`),
    check(
      "return_settings_percent_valid",
      sql`${t.restockingFeePercent} >= 0 and ${t.restockingFeePercent} <= 100`,
    ),
  ],
);

/**
 * The return windows an admin saved (one row, id 1; none: the environment's defaults,
 * RETURN_WINDOW_DAYS and CORE_RETURN_WINDOW_DAYS): days after a line ships that its customer may
 * ask to return it, and send back its core; 0: none.
 */
export const returnWindowSettings = pgTable(
  "return_window_settings",
  {
    id: integer("id").primaryKey().default(1),
    days: integer("days").notNull(),
    coreDays: integer("core_days").notNull(),
    updatedAt: timestampNow("updated_at"),
  },
  (t) => [
    check("return_window_settings_one_row", sql`${t.id} = 1`),
    check(
      "return_window_settings_days_valid",
      sql`${t.days} between 0 and 3650 and ${t.coreDays} between 0 and 3650`,
    ),
  ],
);

/**
 * A customer's photo of a return (docs/returns.md, "Photos"): the file is in DATA_DIR/return-photos
 * under `file_name`, never in the public uploads folder.
 */
export const returnPhotos = pgTable(
  "return_photos",
  {
    id: uuidPrimaryKey(),
    returnId: requiredUuidRef("return_id", () => returnRequests.id, "cascade"),
    fileName: text("file_name").notNull().unique(),
    contentType: text("content_type", { enum: returnPhotoTypes }).notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    index("return_photos_return_idx").on(t.returnId, t.createdAt),
    check("return_photos_size_positive", sql`${t.sizeBytes} > 0`),
    check(
      "return_photos_type_valid",
      sql`${t.contentType} in ('image/jpeg', 'image/png', 'image/webp')`,
    ),
  ],
);

export const refundKinds = ["return", "cancellation", "backorder"] as const;
export const refundStatuses = ["pending", "failed", "succeeded"] as const;

/**
 * Money given back for an order: a received return, a paid order the store cancelled, or a line's
 * units on backorder cancelled. Its id is the gateway's idempotency key, so a refund retried or
 * confirmed twice refunds once.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuidPrimaryKey(),
    orderId: requiredUuidRef("order_id", () => orders.id, "restrict"),
    kind: text("kind", { enum: refundKinds }).notNull(),
    returnId: uuid("return_id")
      .unique()
      .references(() => returnRequests.id, { onDelete: "restrict" }),
    /** A backorder refund only: the order line whose waiting units were cancelled, and how many. */
    line: integer("line"),
    units: integer("units"),
    netCents: integer("net_cents").notNull(),
    shippingCents: integer("shipping_cents").notNull().default(0),
    taxCents: integer("tax_cents").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    /** Where the money goes back: a gateway's name, or "invoice" (on account: a credit note only). */
    gateway: text("gateway").notNull(),
    status: text("status", { enum: refundStatuses }).notNull().default("pending"),
    gatewayRefundId: text("gateway_refund_id"),
    error: text("error"),
    /** Gateway calls that failed so far (the retry job waits longer after each: refund.ts). */
    attempts: integer("attempts").notNull().default(0),
    lastAttemptAt: timestampTz("last_attempt_at"),
    creditNoteId: uuid("credit_note_id").references(() => invoices.id, { onDelete: "restrict" }),
    createdAt: timestampNow("created_at"),
    refundedAt: timestampTz("refunded_at"),
  },
  (t) => [
    index("refunds_order_idx").on(t.orderId),
    index("refunds_unfinished_idx")
      .on(t.createdAt)
      .where(sql`${t.status} <> 'succeeded'`),
    uniqueIndex("refunds_one_cancellation")
      .on(t.orderId)
      .where(sql`${t.kind} = 'cancellation'`),
    check("refunds_amount_nonnegative", sql`${t.amountCents} >= 0`),
    check(
      "refunds_backorder_line",
      sql`(${t.kind} = 'backorder') = (${t.line} IS NOT NULL AND ${t.units} IS NOT NULL AND ${t.units} > 0)`,
    ),
  ],
);
