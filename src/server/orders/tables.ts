import { sql } from "../db/sql";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { cancelReasons, orderStatuses, WARRANTY_REPLACEMENT } from "../../contract/orders";
import { paymentGateways } from "../../contract/payments";
import { ON_ACCOUNT } from "../../contract/terms";
import { shippingCarriers } from "../../contract/shipping-carriers";
import { products } from "../catalog/tables";
import { baseVehicles, vehicleEngines } from "../vehicles/tables";
import { user } from "../users/tables";
import {
  changeXid,
  requiredUuidRef,
  timestampNow,
  timestampTz,
  uuidPrimaryKey,
} from "../db/columns";

/** Where an order was shipped, as its address was when the order was placed. */
export interface ShipToSnapshot {
  name: string;
  company: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  phone: string;
}

/**
 * The orders' human numbers (`PW-100001`, docs/ordering.md): taken at insert, so numbers may skip
 * (a rolled-back placement keeps its number); unlike invoices, an order number need not be gapless.
 */
export const orderNumbers = pgSequence("orders_number_seq", { startWith: 100001 });

export const orders = pgTable(
  "orders",
  {
    id: uuidPrimaryKey(),
    /** The number a person reads (`PW-` and this); the id stays the order's id in URLs and the API. */
    number: integer("number")
      .notNull()
      .unique("orders_number_unique")
      .default(sql`nextval('orders_number_seq')`),
    /** Null once the customer's account is removed; paid orders stay for the records. */
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    orderEmail: text("order_email").notNull(),
    customerName: text("customer_name").notNull(),
    /** Lines + shipping + tax, fixed when the order was placed. */
    totalCents: integer("total_cents").notNull(),
    /** The shipping method's price (net of tax); 0 for orders placed before shipping existed. */
    shippingCents: integer("shipping_cents").notNull().default(0),
    /** The shipping method's name when the order was placed (null: none charged). */
    shippingMethod: text("shipping_method"),
    /** All the order's tax: its lines' and its shipping's. */
    taxCents: integer("tax_cents").notNull().default(0),
    /** The part of `taxCents` charged on shipping. */
    shippingTaxCents: integer("shipping_tax_cents").notNull().default(0),
    /** The tax rate applied (name and thousandths of a percent), null when none applied. */
    taxName: text("tax_name"),
    taxRateMillipercent: integer("tax_rate_millipercent"),
    /** A company's reverse charge or exemption: the legal note (docs/tax.md). */
    taxNote: text("tax_note"),
    /** The company's tax id when the note applied (reverse charge: its checked VAT id). */
    buyerTaxId: text("buyer_tax_id"),
    /** The structured address shipping and tax were computed for (null: none, or free text). */
    shipTo: jsonb("ship_to").$type<ShipToSnapshot>(),
    currency: text("currency").notNull(),
    /**
     * One unit of the store's currency in `currency`, as the order was priced (1 in the store's
     * currency): kept, so a later change of a market's rate changes nothing of the order.
     */
    exchangeRate: numeric("exchange_rate", { precision: 14, scale: 6, mode: "number" })
      .notNull()
      .default(1),
    /**
     * A consumer's order with VAT included (docs/tax.md "Prices with VAT included", migration
     * 0092): its unit prices, shipping and total are gross and `taxCents` is the VAT they contain
     * ("Includes VAT (19 %) €3.80"), not added. False: net prices, tax added.
     */
    pricesIncludeTax: boolean("prices_include_tax").notNull().default(false),
    phone: text("phone").notNull(),
    address: text("address").notNull(),
    /** The customer's purchase-order reference, printed on the invoice. */
    poReference: text("po_reference"),
    status: text("status", { enum: orderStatuses }).notNull().default("unpaid"),
    transactionId: text("transaction_id").unique(),
    /**
     * The gateway that took the payment: "test-card" orders were paid with test cards (TEST);
     * "invoice" on account; "warranty" a claim's replacement, at no charge.
     */
    paidWith: text("paid_with", { enum: [...paymentGateways, ON_ACCOUNT, WARRANTY_REPLACEMENT] }),
    createdAt: timestampNow("created_at"),
    /** An unpaid order holds its stock until then; afterwards the sweeper cancels it. */
    holdExpiresAt: timestampTz("hold_expires_at").notNull(),
    paidAt: timestampTz("paid_at"),
    shippedAt: timestampTz("shipped_at"),
    /**
     * When a first parcel of the paid order left with more to follow (docs/shipments.md);
     * null: nothing shipped yet, or shipped whole at once.
     */
    partlyShippedAt: timestampTz("partly_shipped_at"),
    /**
     * The buyer's choice when some units were on backorder (docs/inventory.md "Backorders"):
     * true, the order ships in one go once every unit is there; false, what is there ships now.
     */
    shipComplete: boolean("ship_complete").notNull().default(false),
    /** Who carries the parcel and its tracking number, when given on shipping (both or neither). */
    carrier: text("carrier", { enum: shippingCarriers }),
    trackingNumber: text("tracking_number"),
    cancelledAt: timestampTz("cancelled_at"),
    /** Why it was cancelled (null: cancelled before this was kept; state.ts `cancelReasonOf`). */
    cancelReason: text("cancel_reason", { enum: cancelReasons }),
    /** When "your hold is about to expire" was queued (it is sent once per order). */
    holdWarnedAt: timestampTz("hold_warned_at"),
    /**
     * On account (net terms): its invoice's number and due date, copied when the invoice was
     * issued, and when payments settled that invoice; so every page and email says "On account ·
     * invoice … due …" or "Paid" from the order alone (contract/payment-words.ts).
     */
    accountInvoiceNumber: text("account_invoice_number"),
    accountDueAt: timestampTz("account_due_at"),
    accountSettledAt: timestampTz("account_settled_at"),
    /** Settled by credit notes alone (a full return, nothing paid): "Nothing due", not "Paid". */
    accountCreditedInFull: boolean("account_credited_in_full").notNull().default(false),
    /** The discount code used, as typed by the admin, and what it took off (docs/pricing.md). */
    discountCode: text("discount_code"),
    discountCents: integer("discount_cents").notNull().default(0),
    /** When the row last changed, and by which transaction (trigger of migration 0062; sync/). */
    updatedAt: timestampNow("updated_at"),
    changeXid: changeXid(),
  },
  (t) => [
    check("orders_total_positive", sql`${t.totalCents} >= 0`),
    check("orders_exchange_rate_positive", sql`${t.exchangeRate} > 0`),
    check("orders_shipping_nonnegative", sql`${t.shippingCents} >= 0`),
    check("orders_tax_nonnegative", sql`${t.taxCents} >= 0 and ${t.shippingTaxCents} >= 0`),
    check(
      "orders_status_valid",
      sql`${t.status} in ('unpaid', 'awaiting_approval', 'paid', 'shipped', 'cancelled')`,
    ),
    check(
      "orders_tracking_both_or_neither",
      sql`(${t.carrier} is null) = (${t.trackingNumber} is null)`,
    ),
    check(
      "orders_paid_has_transaction",
      sql`${t.status} not in ('paid', 'shipped') or ${t.transactionId} is not null`,
    ),
    index("orders_user_created_idx").on(t.userId, t.createdAt.desc().nullsFirst()),
    index("orders_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("orders_hold_idx")
      .on(t.holdExpiresAt)
      .where(sql`${t.status} in ('unpaid', 'awaiting_approval')`),
    // "Has this customer ever paid?" (checkout/read.ts `trustedSql`): one probe, however many
    // unpaid or cancelled orders they have.
    index("orders_user_paid_idx")
      .on(t.userId)
      .where(sql`${t.paidAt} is not null`),
    // The change cursor's order (GET /api/sync/orders).
    index("orders_change_idx").on(t.changeXid, t.id),
  ],
);

/** One line of an order: a snapshot of the product as it was sold. */
export const orderItems = pgTable(
  "order_items",
  {
    orderId: requiredUuidRef("order_id", () => orders.id, "cascade"),
    /** The line's place in the order, from 1; line 1 carries the spec's order fields. */
    line: integer("line").notNull(),
    /** Null once the product is deleted; the name and price below keep the record readable. */
    productId: uuid("product_id").references(() => products.id, { onDelete: "set null" }),
    productName: text("product_name").notNull(),
    /** The product's part number when it was ordered, where the catalog has one. */
    partNumber: text("part_number"),
    unitPriceCents: integer("unit_price_cents").notNull(),
    qty: integer("qty").notNull(),
    /** The line's tax (rounded per line, half up), fixed when the order was placed. */
    taxCents: integer("tax_cents").notNull().default(0),
    /**
     * The vehicle the customer shopped with (docs/vehicle-on-line.md): the catalog's base vehicle
     * and engine (null once deleted from the catalog) and its name as it was then, built by the
     * server ("2016 Toyota Corolla 1.8"). All null when no vehicle was chosen.
     */
    vehicleBaseVehicleId: integer("vehicle_base_vehicle_id").references(() => baseVehicles.id, {
      onDelete: "set null",
    }),
    vehicleEngineId: integer("vehicle_engine_id").references(() => vehicleEngines.id, {
      onDelete: "set null",
    }),
    vehicleLabel: text("vehicle_label"),
    /**
     * The product's core deposit per unit when the order was placed (0: none), charged as its
     * own line, untaxed (docs/core-charges.md).
     */
    coreDepositCents: integer("core_deposit_cents").notNull().default(0),
    /** The line's share of the order's discount code (0: none): it was paid price × qty less this. */
    discountCents: integer("discount_cents").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.line] }),
    // A catalog vehicle deleted sets its lines' ids to null: found by these (partial: most lines
    // have no vehicle, and they cost the index nothing).
    index("order_items_vehicle_idx")
      .on(t.vehicleBaseVehicleId)
      .where(sql`${t.vehicleBaseVehicleId} is not null`),
    index("order_items_vehicle_engine_idx")
      .on(t.vehicleEngineId)
      .where(sql`${t.vehicleEngineId} is not null`),
    check("order_items_qty_positive", sql`${t.qty} > 0`),
    check("order_items_price_not_negative", sql`${t.unitPriceCents} >= 0`),
    check("order_items_core_deposit_not_negative", sql`${t.coreDepositCents} >= 0`),
    index("order_items_product_idx").on(t.productId),
  ],
);

/**
 * The order limits an admin sets on Manage All Orders (docs/ordering.md "Holds that cannot be
 * abused"): one row, id 1, written when an admin first saves (orders/limits.ts); until then the
 * environment's (ORDER_HOLD_HOURS, HOLD_*, ORDERS_PER_MINUTE, QUICK_ORDER_PER_MINUTE). Every
 * change sends NOTIFY `order-limits` (migration 0098) to every process's kept copy.
 */
export const orderLimitSettings = pgTable(
  "order_limit_settings",
  {
    id: integer("id").primaryKey().default(1),
    holdHours: integer("hold_hours").notNull(),
    newCustomerHoldMinutes: integer("new_customer_hold_minutes").notNull(),
    holdWarningHours: integer("hold_warning_hours").notNull(),
    maxSharePercent: integer("max_share_percent").notNull(),
    freeUnits: integer("free_units").notNull(),
    newCustomerSharePercent: integer("new_customer_share_percent").notNull(),
    maxHeldCents: bigint("max_held_cents", { mode: "number" }).notNull(),
    ordersPerMinute: integer("orders_per_minute").notNull(),
    quickOrderPerMinute: integer("quick_order_per_minute").notNull(),
    updatedAt: timestampNow("updated_at"),
  },
  (t) => [
    check("order_limit_settings_one_row", sql`${t.id} = 1`),
    check("order_limit_settings_warning_valid", sql`${t.holdWarningHours} > 0`),
    check(
      "order_limit_settings_valid",
      sql`${t.holdHours} > 0 and ${t.newCustomerHoldMinutes} > 0 and ${t.maxSharePercent} between 1 and 100 and ${t.freeUnits} >= 0 and ${t.newCustomerSharePercent} between 1 and 100 and ${t.maxHeldCents} > 0 and ${t.ordersPerMinute} > 0 and ${t.quickOrderPerMinute} > 0`,
    ),
  ],
);
