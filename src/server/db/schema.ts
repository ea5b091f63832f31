import { sql } from "./sql";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  crossReferenceKinds,
  MAX_IMAGE_URL_LENGTH,
  MAX_NAME_LENGTH,
  productCategories,
} from "../../contract/constants";
import { approvalDecisions, approvalReasons } from "../../contract/approvals";
import { companyRoles } from "../../contract/companies";
import { orderStatuses } from "../../contract/orders";
import { paymentGateways } from "../../contract/payments";
import { quoteStatuses } from "../../contract/quotes";
import { shippingRateKinds } from "../../contract/shipping";
import { roles } from "../../contract/users";
import { returnPhotoTypes, returnReasons, returnStatuses } from "../../contract/returns";
import { ON_ACCOUNT, paymentTermsValues } from "../../contract/terms";
import { shippingCarriers } from "../../contract/shipping-carriers";
import type { InvoiceSnapshot } from "../invoices/snapshot";

/** Text searched by the catalog's `q` filter; the trigram index below is built on the same expression. */
export const productSearchText = sql`(lower(name || ' ' || short_description))`;

/** The name's `english` words, as in the search document's weight A (and indexed on their own). */
export const productNameWords = sql`to_tsvector('english'::regconfig, name)`;

/**
 * A product's stored search document (migration 0008 keeps it up to date with triggers): the name
 * (weight A) and the description and category (B) as `english` words, our part number and every
 * cross-reference number normalised (C), and the cross-references' brands (D).
 */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** A part number as compared: letters and digits only, upper-case (as `normalizePartNumber`). */
const normalizedNumber = (column: string) =>
  sql.raw(`upper(regexp_replace(${column}, '[^A-Za-z0-9]', '', 'g'))`);

export const products = pgTable(
  "products",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** Our part number as written (upper-case); unique by its normalised form below. */
    partNumber: text("part_number").notNull(),
    partNumberNormalized: text("part_number_normalized")
      .notNull()
      .generatedAlwaysAs(normalizedNumber("part_number")),
    category: text("category", { enum: productCategories }).notNull(),
    img: text("img").notNull(),
    /** Unit price in minor units (cents). */
    priceCents: integer("price_cents").notNull(),
    minimumOrder: integer("minimum_order").notNull(),
    availableQuantity: integer("available_quantity").notNull(),
    shortDescription: text("short_description").notNull(),
    warrantyMonths: integer("warranty_months").notNull(),
    /** Shipping weight of one unit in grams (weight-band shipping rates); 0 when not given. */
    weightGrams: integer("weight_grams").notNull().default(0),
    /** Stock below this is low (admin home, low-stock email); null: 2 × the minimum order. */
    reorderLevel: integer("reorder_level"),
    /**
     * A remanufacturable part's core deposit per unit, in minor units (docs/core-charges.md):
     * charged as its own line and refunded when the old part comes back; null: no deposit.
     */
    coreDepositCents: integer("core_deposit_cents"),
    /**
     * Public quantity breaks for everyone, visitors included (docs/public-breaks.md): sorted by
     * minQty, each minQty once, each cheaper than the price (checked before it is written).
     */
    breaks: jsonb("breaks").$type<PriceBreak[]>().notNull().default([]),
    creatorEmail: text("creator_email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Written by triggers only (see `tsvector` above); never set by the application. */
    searchDocument: tsvector("search_document")
      .notNull()
      .default(sql`''::tsvector`),
  },
  (t) => [
    check("products_price_nonnegative", sql`${t.priceCents} >= 0`),
    check("products_minimum_order_positive", sql`${t.minimumOrder} >= 1`),
    check("products_stock_nonnegative", sql`${t.availableQuantity} >= 0`),
    check("products_warranty_nonnegative", sql`${t.warrantyMonths} >= 0`),
    check("products_weight_nonnegative", sql`${t.weightGrams} >= 0`),
    check("products_reorder_level_nonnegative", sql`${t.reorderLevel} >= 0`),
    check("products_core_deposit_positive", sql`${t.coreDepositCents} > 0`),
    index("products_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("products_price_idx").on(t.priceCents, t.id),
    index("products_name_idx").on(t.name, t.id),
    index("products_search_trgm_idx").using("gin", sql`${productSearchText} gin_trgm_ops`),
    index("products_search_document_idx").using("gin", t.searchDocument),
    // "Every word is in the name", a search's second rank, looked up without the other words.
    index("products_name_words_idx").using("gin", productNameWords),
    // Our part number matches a word anywhere in it (`like '%X%'`).
    index("products_part_number_trgm_idx").using(
      "gin",
      sql`${t.partNumberNormalized} gin_trgm_ops`,
    ),
    uniqueIndex("products_part_number_normalized_unique").on(t.partNumberNormalized),
    index("products_part_number_prefix_idx").on(t.partNumberNormalized.op("text_pattern_ops")),
    index("products_category_idx").on(t.category, t.id),
  ],
);

/** Numbers a product replaces or is sold as: the carmaker's (OE), other brands', our old ones. */
export const productCrossReferences = pgTable(
  "product_cross_references",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: crossReferenceKinds }).notNull(),
    brand: text("brand").notNull(),
    /** As printed on the part, e.g. "04465-02220". */
    number: text("number").notNull(),
    numberNormalized: text("number_normalized")
      .notNull()
      .generatedAlwaysAs(normalizedNumber("number")),
    /** The order the admin listed them in. */
    position: integer("position").notNull().default(0),
  },
  (t) => [
    check(
      "product_cross_references_kind_valid",
      sql`${t.kind} in ('OE', 'competitor', 'superseded')`,
    ),
    index("product_cross_references_product_idx").on(t.productId, t.position),
    // text_pattern_ops: equality and prefix (`like 'X%'`) both use it.
    index("product_cross_references_number_idx").on(t.numberNormalized.op("text_pattern_ops")),
  ],
);

export const reviews = pgTable(
  "reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The author's account; null for demo reviews and for authors whose account was removed. */
    userId: text("user_id"),
    authorName: text("author_name").notNull(),
    email: text("email").notNull(),
    ratings: integer("ratings").notNull(),
    descreption: text("descreption").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Set when an admin hides the review: it leaves the public list, the average and the count. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true, mode: "date" }),
    /**
     * Set when the review was posted by an account without a paid (or shipped) order: it waits for
     * an admin's approval, out of the public list, the average and the count (docs/reviews.md).
     * Null: published. Existing and demo reviews are published.
     */
    pendingSince: timestamp("pending_since", { withTimezone: true, mode: "date" }),
    /** The author had a paid or shipped order when they posted it: shown as "Verified buyer". */
    verifiedBuyer: boolean("verified_buyer").notNull().default(false),
  },
  (t) => [
    check("reviews_ratings_range", sql`${t.ratings} between 1 and 5`),
    index("reviews_user_created_idx").on(t.userId, t.createdAt),
    index("reviews_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

// --- Accounts: Better Auth's tables (used through its Drizzle adapter), plus our profile fields ---

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

export const user = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    /** The display name. */
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    role: text("role", { enum: roles }).notNull().default("user"),
    education: text("education").notNull().default(""),
    address: text("address").notNull().default(""),
    phoneNo: text("phone_no").notNull().default(""),
    linkedIn: text("linked_in").notNull().default(""),
    /** Better Auth's two-factor plugin: TOTP is on for this account. */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    /**
     * Moves on with every change made under the customer's lock (cart, addresses, orders): a
     * placement that read the customer without the lock writes only while it is unchanged
     * (docs/decisions/011-checkout-workflow.md, "Placed in two statements").
     */
    revision: bigint("revision", { mode: "number" }).notNull().default(0),
    ...timestamps,
  },
  (t) => [
    check("user_role_valid", sql`${t.role} in ('admin', 'user')`),
    check("user_name_length", sql`char_length(${t.name}) <= ${sql.raw(String(MAX_NAME_LENGTH))}`),
    check(
      "user_image_length",
      sql`char_length(${t.image}) <= ${sql.raw(String(MAX_IMAGE_URL_LENGTH))}`,
    ),
  ],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** A second factor (TOTP or backup code) was given for this session (auth/second-factor.ts). */
    secondFactor: boolean("second_factor").notNull().default(false),
    ...timestamps,
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    /** The scrypt hash, for email/password accounts. */
    password: text("password"),
    ...timestamps,
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

/** Fixed-window counters for rate limits, shared by every server process on the database. */
export const rateLimit = pgTable("rate_limit", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  count: integer("count").notNull(),
});

/**
 * One row: the version of everything a placement decides on besides the stock and the customer's
 * own rows (products' facts, shipping zones and methods, tax rates, companies, their members and
 * price lists). Triggers move it on (migration 0042); a placement decided from memory writes only
 * while it is the version it decided on (docs/decisions/011-checkout-workflow.md, "Decided from
 * memory").
 */
export const placementFacts = pgTable(
  "placement_facts",
  {
    one: boolean("one").primaryKey().default(true),
    version: bigint("version", { mode: "number" }).notNull().default(0),
  },
  (t) => [check("placement_facts_one", sql`${t.one}`)],
);

// --- Orders and payments ---

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
 * The statuses whose orders hold their stock (until paid, cancelled or the hold runs out): an
 * unpaid order, and a company buyer's order waiting for an owner's approval (docs/approvals.md).
 */
export const holdingStatuses = ["unpaid", "awaiting_approval"] as const;

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
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
    /** A company's reverse charge or exemption: the legal note (docs/tax-exemptions.md). */
    taxNote: text("tax_note"),
    /** The company's tax id when the note applied (reverse charge: its checked VAT id). */
    buyerTaxId: text("buyer_tax_id"),
    /** The structured address shipping and tax were computed for (null: none, or free text). */
    shipTo: jsonb("ship_to").$type<ShipToSnapshot>(),
    currency: text("currency").notNull(),
    phone: text("phone").notNull(),
    address: text("address").notNull(),
    /** The customer's purchase-order reference, printed on the invoice. */
    poReference: text("po_reference"),
    status: text("status", { enum: orderStatuses }).notNull().default("unpaid"),
    transactionId: text("transaction_id").unique(),
    /** The gateway that took the payment: "test-card" orders were paid with test cards (TEST). */
    paidWith: text("paid_with", { enum: [...paymentGateways, ON_ACCOUNT] }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** An unpaid order holds its stock until then; afterwards the sweeper cancels it. */
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    shippedAt: timestamp("shipped_at", { withTimezone: true }),
    /** Who carries the parcel and its tracking number, when given on shipping (both or neither). */
    carrier: text("carrier", { enum: shippingCarriers }),
    trackingNumber: text("tracking_number"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** When "your hold is about to expire" was queued (it is sent once per order). */
    holdWarnedAt: timestamp("hold_warned_at", { withTimezone: true }),
  },
  (t) => [
    check("orders_total_positive", sql`${t.totalCents} >= 0`),
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
  ],
);

/** One line of an order: a snapshot of the product as it was sold. */
export const orderItems = pgTable(
  "order_items",
  {
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
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
 * A signed-in customer's cart, one row per product: kept on the server so it survives signing
 * out and follows the customer to another device. No foreign key to the product: a line whose
 * product was deleted stays (with its name) so the cart can say so.
 */
export const cartItems = pgTable(
  "cart_items",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: uuid("product_id").notNull(),
    /** The product's name when it was added, for a line whose product has since been deleted. */
    productName: text("product_name").notNull(),
    qty: integer("qty").notNull(),
    /** The unit price the customer saw when adding it, to tell them when it changed. */
    seenPriceCents: integer("seen_price_cents").notNull(),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
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

/**
 * When an account's hold on a product ends: the first unpaid order of the product opens the
 * window, and an order placed again while it is open (after deleting the first) holds the stock
 * only until the same time, so deleting and re-ordering never renews a hold. Paying closes it.
 */
export const holdWindows = pgTable(
  "hold_windows",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: uuid("product_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId] })],
);

/** One row per payment intent created at a gateway for an order. */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    gateway: text("gateway").notNull(),
    gatewayIntentId: text("gateway_intent_id").notNull().unique(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    /** The gateway's status (requires_payment_method…, succeeded, canceled), or refund_due (taken
     * but not applied: see refundReason), then refunded (given back: docs/refund-due.md). */
    status: text("status").notNull().default("created"),
    /** Why a payment is to be refunded (payments/service.ts `refundDue`). */
    refundReason: text("refund_reason"),
    /** The gateway's refund of a refund-due payment (status `refunded`; docs/refund-due.md). */
    gatewayRefundId: text("gateway_refund_id"),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    /** The gateway's words when its last refund attempt failed (still `refund_due`). */
    refundError: text("refund_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("payments_order_idx").on(t.orderId),
    index("payments_refund_due_idx")
      .on(t.updatedAt)
      .where(sql`${t.status} = 'refund_due'`),
  ],
);

/** Gateway webhook events already handled, so a replayed event changes nothing. */
export const webhookEvents = pgTable("webhook_events", {
  id: text("id").primaryKey(),
  gateway: text("gateway").notNull(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The built-in test-card gateway's own records (what Stripe keeps on its side): intents with
 * their client secret, amount and outcome.
 */
export const testCardIntents = pgTable("test_card_intents", {
  id: text("id").primaryKey(),
  clientSecret: text("client_secret").notNull().unique(),
  amountCents: integer("amount_cents").notNull(),
  currency: text("currency").notNull(),
  orderId: text("order_id").notNull(),
  idempotencyKey: text("idempotency_key").unique(),
  status: text("status").notNull().default("requires_payment_method"),
  lastError: text("last_error"),
  cardLast4: text("card_last4"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The test-card gateway's refunds (what Stripe keeps of its Refunds): one per idempotency key. */
export const testCardRefunds = pgTable(
  "test_card_refunds",
  {
    id: text("id").primaryKey(),
    intentId: text("intent_id")
      .notNull()
      .references(() => testCardIntents.id, { onDelete: "restrict" }),
    amountCents: integer("amount_cents").notNull(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("test_card_refunds_amount_positive", sql`${t.amountCents} > 0`),
    index("test_card_refunds_intent_idx").on(t.intentId),
  ],
);

// --- Vehicles and fitment (ACES-style; docs/decisions/010-vehicle-fitment.md) ---
// Every vehicle table keeps a nullable `vcdb_*_id`: a licensed VCdb id can be mapped in later
// without changing our own ids.

export const vehicleMakes = pgTable("vehicle_makes", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  name: text("name").notNull().unique(),
  vcdbMakeId: integer("vcdb_make_id"),
});

export const vehicleModels = pgTable(
  "vehicle_models",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    makeId: integer("make_id")
      .notNull()
      .references(() => vehicleMakes.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    vcdbModelId: integer("vcdb_model_id"),
  },
  (t) => [uniqueIndex("vehicle_models_make_name_unique").on(t.makeId, t.name)],
);

/** ACES base vehicle: one model year of one model (the make is the model's). */
export const baseVehicles = pgTable(
  "base_vehicles",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    year: integer("year").notNull(),
    modelId: integer("model_id")
      .notNull()
      .references(() => vehicleModels.id, { onDelete: "cascade" }),
    vcdbBaseVehicleId: integer("vcdb_base_vehicle_id"),
  },
  (t) => [
    check("base_vehicles_year_range", sql`${t.year} between 1900 and 2100`),
    uniqueIndex("base_vehicles_model_year_unique").on(t.modelId, t.year),
    index("base_vehicles_year_idx").on(t.year, t.modelId),
  ],
);

/** Trim lines (ACES submodel), shared by every make: "GTI", "Estate", "Sport". */
export const vehicleSubmodels = pgTable("vehicle_submodels", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  name: text("name").notNull().unique(),
  vcdbSubmodelId: integer("vcdb_submodel_id"),
});

/** Engines (ACES engine config), shared by every model that uses one: "1.4 TSI". */
export const vehicleEngines = pgTable("vehicle_engines", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  name: text("name").notNull().unique(),
  /** Displacement in litres, e.g. "1.4". */
  liters: text("liters"),
  fuel: text("fuel"),
  vcdbEngineConfigId: integer("vcdb_engine_config_id"),
});

/** Which engines a base vehicle was built with (the selector's last step). */
export const baseVehicleEngines = pgTable(
  "base_vehicle_engines",
  {
    baseVehicleId: integer("base_vehicle_id")
      .notNull()
      .references(() => baseVehicles.id, { onDelete: "cascade" }),
    engineId: integer("engine_id")
      .notNull()
      .references(() => vehicleEngines.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.baseVehicleId, t.engineId] })],
);

/**
 * A product fits a base vehicle (ACES application), one row per model year. An empty submodel or
 * engine means every one of that base vehicle.
 */
export const productFitments = pgTable(
  "product_fitments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    baseVehicleId: integer("base_vehicle_id")
      .notNull()
      .references(() => baseVehicles.id, { onDelete: "cascade" }),
    submodelId: integer("submodel_id").references(() => vehicleSubmodels.id, {
      onDelete: "cascade",
    }),
    engineId: integer("engine_id").references(() => vehicleEngines.id, { onDelete: "cascade" }),
    /** "Front", "Rear", "Front Left" ...; empty when the part has no position. */
    position: text("position"),
    /** Parts needed per vehicle (ACES Qty). */
    quantity: integer("quantity").notNull().default(1),
    /** Qualifier, e.g. "with A/C" or "from 03/2015". */
    note: text("note"),
  },
  (t) => [
    check("product_fitments_quantity_positive", sql`${t.quantity} between 1 and 100`),
    // "Parts that fit vehicle X": an index-only probe per product, or a walk of X's rows.
    index("product_fitments_vehicle_product_idx").on(t.baseVehicleId, t.productId),
    index("product_fitments_product_idx").on(t.productId),
    unique("product_fitments_unique")
      .on(t.productId, t.baseVehicleId, t.submodelId, t.engineId, t.position)
      .nullsNotDistinct(),
  ],
);

/** A customer's saved vehicles ("My garage"). */
export const garageVehicles = pgTable(
  "garage_vehicles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    baseVehicleId: integer("base_vehicle_id")
      .notNull()
      .references(() => baseVehicles.id, { onDelete: "cascade" }),
    engineId: integer("engine_id").references(() => vehicleEngines.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("garage_vehicles_unique").on(t.userId, t.baseVehicleId, t.engineId).nullsNotDistinct(),
  ],
);

/** A product CSV import as it runs (src/server/product-csv/): polled by the admin page. */
export const productImportJobs = pgTable(
  "product_import_jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    createdBy: text("created_by").notNull(),
    status: text("status", { enum: ["running", "done", "failed"] }).notNull(),
    total: integer("total").notNull(),
    done: integer("done").notNull().default(0),
    creates: integer("creates").notNull().default(0),
    updates: integer("updates").notNull().default(0),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    check("product_import_jobs_status_valid", sql`${t.status} in ('running', 'done', 'failed')`),
  ],
);

/**
 * The order emails a customer chose to receive beyond the essential ones (placed, paid, cancelled
 * are always sent). No row means the defaults: everything on.
 */
export const notificationPreferences = pgTable("notification_preferences", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  orderShipped: boolean("order_shipped").notNull().default(true),
  holdReminder: boolean("hold_reminder").notNull().default(true),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The audit log: one row per admin action, written in the action's own transaction
 * (src/server/audit/). The actor's id and email are copied, so a row outlives a removed admin.
 */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: text("actor_id").notNull(),
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    summary: text("summary").notNull(),
  },
  (t) => [
    index("admin_audit_log_at_idx").on(t.at.desc(), t.id.desc()),
    check("admin_audit_log_action_length", sql`char_length(${t.action}) <= 64`),
    check("admin_audit_log_summary_length", sql`char_length(${t.summary}) <= 1000`),
  ],
);

/** Better Auth's two-factor plugin: the TOTP secret and backup codes (both encrypted by it). */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [
    index("two_factor_user_id_idx").on(t.userId),
    index("two_factor_secret_idx").on(t.secret),
  ],
);

// --- Addresses, shipping and tax (docs/money.md) ---

/** A postal address's columns, as the address book and a company's ship-to addresses keep them. */
const postalAddressColumns = () => ({
  name: text("name").notNull(),
  company: text("company").notNull().default(""),
  line1: text("line1").notNull(),
  line2: text("line2").notNull().default(""),
  city: text("city").notNull(),
  /** State, province or county; a two-letter code for US and CA. */
  region: text("region").notNull().default(""),
  postalCode: text("postal_code").notNull(),
  /** ISO 3166-1 alpha-2. */
  country: text("country").notNull(),
  phone: text("phone").notNull(),
});

/** A customer's address book: delivery addresses, one of them the default. */
export const addresses = pgTable(
  "addresses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    ...postalAddressColumns(),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("addresses_user_idx").on(t.userId, t.createdAt),
    // One default per customer.
    uniqueIndex("addresses_one_default")
      .on(t.userId)
      .where(sql`${t.isDefault}`),
    check("addresses_country_code", sql`${t.country} ~ '^[A-Z]{2}$'`),
  ],
);

/** Where the store ships: countries, optionally only some of their regions. */
export const shippingZones = pgTable("shipping_zones", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  countries: text("countries").array().notNull(),
  /** Empty: the whole of each country. Otherwise only these regions (codes or names). */
  regions: text("regions")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A way a zone is served, with its rate (see src/server/shipping/rates.ts). */
export const shippingMethods = pgTable(
  "shipping_methods",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    zoneId: uuid("zone_id")
      .notNull()
      .references(() => shippingZones.id, { onDelete: "cascade" }),
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
  },
  (t) => [
    index("shipping_methods_zone_idx").on(t.zoneId, t.position),
    check("shipping_methods_kind_valid", sql`${t.kind} in ('flat', 'weight', 'free_over')`),
    check("shipping_methods_price_nonnegative", sql`${t.priceCents} >= 0`),
  ],
);

/** Tax rates by country, and by region where a region has its own (US states). */
export const taxRates = pgTable(
  "tax_rates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    country: text("country").notNull(),
    /** Empty: the whole country (where no rate of the region applies). */
    region: text("region").notNull().default(""),
    name: text("name").notNull(),
    /** Thousandths of a percent: 8.875 % is 8875. */
    rateMillipercent: integer("rate_millipercent").notNull(),
    appliesToShipping: boolean("applies_to_shipping").notNull().default(true),
  },
  (t) => [
    unique("tax_rates_place_unique").on(t.country, t.region),
    check("tax_rates_rate_range", sql`${t.rateMillipercent} between 0 and 100000`),
  ],
);

/** A quantity break of a price list entry: from `minQty` units on, each costs `unitPriceCents`. */
export interface PriceBreak {
  minQty: number;
  unitPriceCents: number;
}

/** A trade price list (src/server/pricing/): per product, a unit price and quantity breaks. */
export const priceLists = pgTable(
  "price_lists",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** Always the store's currency (refused otherwise when created); kept to catch a change of it. */
    currency: text("currency").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("price_lists_name_unique").on(sql`lower(${t.name})`)],
);

export const priceListEntries = pgTable(
  "price_list_entries",
  {
    priceListId: uuid("price_list_id")
      .notNull()
      .references(() => priceLists.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    unitPriceCents: integer("unit_price_cents").notNull(),
    /** Sorted by minQty, each minQty once (checked by the service before it is written). */
    breaks: jsonb("breaks").$type<PriceBreak[]>().notNull().default([]),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.priceListId, t.productId] }),
    check("price_list_entries_price_nonnegative", sql`${t.unitPriceCents} >= 0`),
  ],
);

/** A trade customer: members buy at its price list's prices (DESIGN.md section 7). */
export const companies = pgTable(
  "companies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    taxId: text("tax_id"),
    /** The state that issued the tax id (ISO alpha-2), given or read from its EU VAT prefix. */
    taxIdCountry: text("tax_id_country"),
    /** When an admin's EU VAT number passed the format check (null: not an EU VAT id, unchecked). */
    taxIdValidatedAt: timestamp("tax_id_validated_at", { withTimezone: true }),
    /** A tax exemption certificate number an admin recorded: the company pays 0 % tax. */
    taxExemptionCertificate: text("tax_exemption_certificate"),
    taxExemptionRecordedAt: timestamp("tax_exemption_recorded_at", { withTimezone: true }),
    taxExemptionRecordedBy: text("tax_exemption_recorded_by").references(() => user.id, {
      onDelete: "set null",
    }),
    /** card: pays by card when ordering, like everyone; netN: on account (docs/net-terms.md). */
    paymentTerms: text("payment_terms", { enum: paymentTermsValues }).notNull().default("card"),
    creditLimitCents: integer("credit_limit_cents"),
    priceListId: uuid("price_list_id").references(() => priceLists.id, { onDelete: "restrict" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("companies_name_unique").on(sql`lower(${t.name})`),
    index("companies_price_list_idx").on(t.priceListId),
    check(
      "companies_credit_limit_nonnegative",
      sql`${t.creditLimitCents} is null or ${t.creditLimitCents} >= 0`,
    ),
    check(
      "companies_payment_terms_valid",
      sql`${t.paymentTerms} in ('card', 'net15', 'net30', 'net60')`,
    ),
  ],
);

export const companyMembers = pgTable(
  "company_members",
  {
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** One company per account at most (the unique index below). */
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role", { enum: companyRoles }).notNull(),
    /** Spending limits: an order over one waits for an owner's approval (docs/approvals.md). */
    orderLimitCents: integer("order_limit_cents"),
    monthlyLimitCents: integer("monthly_limit_cents"),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.userId] }),
    uniqueIndex("company_members_user_unique").on(t.userId),
    check("company_members_role_valid", sql`${t.role} in ('owner', 'buyer', 'viewer')`),
  ],
);

/**
 * A company's ship-to addresses (docs/company-addresses.md): the address book's fields, kept per
 * company; its members deliver to them at checkout. Orders keep their own copy (`ship_to`).
 */
export const companyAddresses = pgTable(
  "company_addresses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    ...postalAddressColumns(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("company_addresses_company_idx").on(t.companyId, t.createdAt),
    check("company_addresses_country_code", sql`${t.country} ~ '^[A-Z]{2}$'`),
  ],
);

export const companyInvitations = pgTable(
  "company_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    /** Lower-case; only the account with this address may accept. */
    email: text("email").notNull(),
    role: text("role", { enum: companyRoles }).notNull(),
    /** SHA-256 of the emailed token (the token itself is never stored). */
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("company_invitations_token_unique").on(t.tokenHash),
    index("company_invitations_company_idx").on(t.companyId, t.createdAt),
    check("company_invitations_role_valid", sql`${t.role} in ('owner', 'buyer', 'viewer')`),
  ],
);

// --- Saved lists (docs/quick-order.md "Saved lists"): a customer's named lists of parts ---

export const savedLists = pgTable(
  "saved_lists",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One list of a name per customer, whatever its case.
    uniqueIndex("saved_lists_user_name_unique").on(t.userId, sql`lower(${t.name})`),
  ],
);

/** A part on a list and how many; a deleted product leaves the lists it was on. */
export const savedListItems = pgTable(
  "saved_list_items",
  {
    listId: uuid("list_id")
      .notNull()
      .references(() => savedLists.id, { onDelete: "cascade" }),
    productId: uuid("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    qty: integer("qty").notNull(),
    addedAt: timestamp("added_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.productId] }),
    check("saved_list_items_qty_positive", sql`${t.qty} > 0`),
    index("saved_list_items_product_idx").on(t.productId),
  ],
);

// --- Invoices and credit notes (docs/invoices.md) ---

/** The documents numbered from a gapless sequence of their own per calendar year. */
export const documentKinds = ["invoice", "credit_note"] as const;
export type DocumentKind = (typeof documentKinds)[number];

/**
 * The last number given per kind of document and calendar year (UTC). Taken with
 * `insert … on conflict do update set last = last + 1` in the transaction that issues the
 * document: a rolled-back issue gives its number back (no gap), and two issues at once queue on
 * this one row (no duplicate).
 */
export const documentCounters = pgTable(
  "document_counters",
  {
    kind: text("kind", { enum: documentKinds }).notNull(),
    year: integer("year").notNull(),
    last: integer("last").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.year] }),
    check("document_counters_last_positive", sql`${t.last} >= 1`),
  ],
);

/**
 * An issued invoice (or, later, a credit note): its number and a snapshot of everything it says.
 * Never updated (a trigger refuses it: migration 0019); an order with an invoice cannot be deleted.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: documentKinds }).notNull().default("invoice"),
    /** `INV-2026-000123` (credit notes: `CN-2026-000001`). */
    number: text("number").notNull().unique(),
    year: integer("year").notNull(),
    sequence: integer("sequence").notNull(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** A credit note: the invoice it corrects. */
    correctsId: uuid("corrects_id").references((): AnyPgColumn => invoices.id, {
      onDelete: "restrict",
    }),
    currency: text("currency").notNull(),
    subtotalCents: integer("subtotal_cents").notNull(),
    shippingCents: integer("shipping_cents").notNull(),
    taxCents: integer("tax_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    /** When payment is due: the issue date for card payments (paid already). */
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    snapshot: jsonb("snapshot").$type<InvoiceSnapshot>().notNull(),
    /** How it is paid: card (paid when issued) or on account (netN; docs/net-terms.md). */
    terms: text("terms", { enum: paymentTermsValues }).notNull().default("card"),
    /**
     * The buyer's company when issued (on account: the company whose credit it uses). No foreign
     * key: an invoice is never updated, so it cannot be set null by a deleted company.
     */
    companyId: uuid("company_id"),
  },
  (t) => [
    unique("invoices_kind_year_sequence_unique").on(t.kind, t.year, t.sequence),
    // One invoice per order (a replayed payment issues none); credit notes may be several.
    uniqueIndex("invoices_one_per_order")
      .on(t.orderId)
      .where(sql`${t.kind} = 'invoice'`),
    index("invoices_order_idx").on(t.orderId),
    check("invoices_kind_valid", sql`${t.kind} in ('invoice', 'credit_note')`),
    check("invoices_sequence_positive", sql`${t.sequence} >= 1`),
    index("invoices_on_account_idx")
      .on(t.companyId, t.dueAt)
      .where(sql`${t.terms} <> 'card'`),
  ],
);

/**
 * A payment received against an invoice on account (a bank transfer), recorded by an admin. The
 * invoice itself never changes: it is paid when its payments add up to its total.
 */
export const invoicePayments = pgTable(
  "invoice_payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    amountCents: integer("amount_cents").notNull(),
    /** The day the money arrived (the bank's date). */
    paidOn: date("paid_on").notNull(),
    /** The bank transfer's reference; once per invoice. */
    reference: text("reference").notNull(),
    recordedById: text("recorded_by_id"),
    recordedByEmail: text("recorded_by_email").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * A payment recorded by mistake is reversed, never deleted: it stops counting, the row and
     * the audit log keep what happened and why.
     */
    reversedAt: timestamp("reversed_at", { withTimezone: true }),
    reversedReason: text("reversed_reason"),
    reversedByEmail: text("reversed_by_email"),
  },
  (t) => [
    check("invoice_payments_amount_positive", sql`${t.amountCents} > 0`),
    check(
      "invoice_payments_reversal_complete",
      sql`(${t.reversedAt} is null) = (${t.reversedReason} is null)`,
    ),
    // A reference counts once among the payments that stand (a reversed one may be recorded again).
    uniqueIndex("invoice_payments_reference_unique")
      .on(t.invoiceId, sql`lower(${t.reference})`)
      .where(sql`${t.reversedAt} is null`),
  ],
);

export const invoiceReminderKinds = ["before_due", "overdue"] as const;

/** A payment reminder sent for an invoice on account: each kind at most once per invoice. */
export const invoiceReminders = pgTable(
  "invoice_reminders",
  {
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "restrict" }),
    kind: text("kind", { enum: invoiceReminderKinds }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.invoiceId, t.kind] }),
    check("invoice_reminders_kind_valid", sql`${t.kind} in ('before_due', 'overdue')`),
  ],
);

// --- Company approvals of orders over a spending limit (docs/approvals.md) ---

/**
 * A company buyer's order over a spending limit, waiting for (or decided by) an owner of the
 * company it was placed in (docs/approvals.md). One per order; the decision is written once.
 */
export const orderApprovals = pgTable(
  "order_approvals",
  {
    orderId: uuid("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** The company the buyer ordered for (kept if they leave it later). */
    companyId: uuid("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    reason: text("reason", { enum: approvalReasons }).notNull(),
    /** The limit it went over, in cents, as it was at the time. */
    limitCents: integer("limit_cents").notNull(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    decision: text("decision", { enum: approvalDecisions }),
    /** Who decided (null once their account is removed; the email stays). */
    decidedBy: text("decided_by").references(() => user.id, { onDelete: "set null" }),
    decidedByEmail: text("decided_by_email"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    note: text("note"),
  },
  (t) => [
    index("order_approvals_waiting_idx")
      .on(t.companyId, t.requestedAt)
      .where(sql`${t.decision} is null`),
    check("order_approvals_reason_valid", sql`${t.reason} in ('order_limit', 'monthly_limit')`),
    check(
      "order_approvals_decision_valid",
      sql`${t.decision} is null or ${t.decision} in ('approved', 'declined')`,
    ),
    check("order_approvals_note_length", sql`char_length(${t.note}) <= 500`),
  ],
);

/** The days a low-stock email went to the admins: one a day, however many processes run. */
export const lowStockEmails = pgTable("low_stock_emails", {
  day: date("day", { mode: "string" }).primaryKey(),
  productCount: integer("product_count").notNull(),
  sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
});

// --- Quotes: requests for quote and the admins' prices (docs/quotes.md) ---

/**
 * A customer's request for quote (from their cart), priced and sent by an admin, then accepted
 * (an order at the quoted prices) or declined by the buyer. A company member's quote belongs to
 * the company (its members read it); a customer without a company's to them alone.
 */
export const quotes = pgTable(
  "quotes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Who asked (null once their account is removed; the email stays). */
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    requesterEmail: text("requester_email").notNull(),
    requesterName: text("requester_name").notNull(),
    /** The company the request was made for, when the requester belonged to one. */
    companyId: uuid("company_id").references(() => companies.id, { onDelete: "set null" }),
    status: text("status", { enum: quoteStatuses }).notNull().default("requested"),
    note: text("note").notNull().default(""),
    /** Until when the buyer may accept it (set when sent). */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** The order its acceptance placed. */
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("quotes_company_idx").on(t.companyId, t.createdAt),
    index("quotes_user_idx").on(t.userId, t.createdAt),
    index("quotes_created_idx").on(t.createdAt),
    check(
      "quotes_status_valid",
      sql`${t.status} in ('requested', 'sent', 'accepted', 'declined', 'expired')`,
    ),
    check("quotes_note_length", sql`char_length(${t.note}) <= 1000`),
  ],
);

/** A quote's lines: what was asked, the price the buyer saw then, and the admin's price. */
export const quoteLines = pgTable(
  "quote_lines",
  {
    quoteId: uuid("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    productId: uuid("product_id").notNull(),
    productName: text("product_name").notNull(),
    partNumber: text("part_number"),
    qty: integer("qty").notNull(),
    /** The unit price the buyer saw when asking (their price then), for reference. */
    seenPriceCents: integer("seen_price_cents").notNull(),
    /** The admin's unit price (null until priced). */
    quotedPriceCents: integer("quoted_price_cents"),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.quoteId, t.productId] }),
    check("quote_lines_qty_positive", sql`${t.qty} > 0`),
    check(
      "quote_lines_quoted_positive",
      sql`${t.quotedPriceCents} is null or ${t.quotedPriceCents} > 0`,
    ),
  ],
);

/** A quote's message thread: the buyer's side and the store's (admins). */
export const quoteMessages = pgTable(
  "quote_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    quoteId: uuid("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    authorName: text("author_name").notNull(),
    /** Which side wrote it: the customer's, or the store's. */
    side: text("side", { enum: ["customer", "store"] }).notNull(),
    body: text("body").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("quote_messages_quote_idx").on(t.quoteId, t.at),
    check("quote_messages_side_valid", sql`${t.side} in ('customer', 'store')`),
    check("quote_messages_body_length", sql`char_length(${t.body}) between 1 and 2000`),
  ],
);

// --- Returns and refunds (docs/returns.md) ---

/** A customer's request to send back lines of a shipped order, and what became of it. */
export const returnRequests = pgTable(
  "return_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    status: text("status", { enum: returnStatuses }).notNull().default("requested"),
    reason: text("reason", { enum: returnReasons }).notNull(),
    /** The vehicle the part did not fit (did_not_fit only). */
    vehicle: text("vehicle"),
    note: text("note"),
    /** The admin's message when refusing (or the instructions' extra words when approving). */
    adminMessage: text("admin_message"),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    receivedAt: timestamp("received_at", { withTimezone: true }),
  },
  (t) => [
    index("return_requests_order_idx").on(t.orderId),
    index("return_requests_status_idx").on(t.status, t.requestedAt),
    check(
      "return_requests_status_valid",
      sql`${t.status} in ('requested', 'approved', 'refused', 'received', 'refund_failed', 'refunded')`,
    ),
  ],
);

/** The lines (and quantities) a return sends back, with what they refund. */
export const returnLines = pgTable(
  "return_lines",
  {
    returnId: uuid("return_id")
      .notNull()
      .references(() => returnRequests.id, { onDelete: "cascade" }),
    /** The order line (order_items.line). */
    line: integer("line").notNull(),
    qty: integer("qty").notNull(),
    netCents: integer("net_cents").notNull(),
    taxCents: integer("tax_cents").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.returnId, t.line] }),
    check("return_lines_qty_positive", sql`${t.qty} > 0`),
  ],
);

/**
 * A customer's photo of a return (docs/returns.md, "Photos"): the file is in DATA_DIR/return-photos
 * under `file_name`, never in the public uploads folder.
 */
export const returnPhotos = pgTable(
  "return_photos",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    returnId: uuid("return_id")
      .notNull()
      .references(() => returnRequests.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull().unique(),
    contentType: text("content_type", { enum: returnPhotoTypes }).notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
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

export const refundKinds = ["return", "cancellation"] as const;
export const refundStatuses = ["pending", "failed", "succeeded"] as const;

/**
 * Money given back for an order: a received return, or a paid order the store cancelled. Its id
 * is the gateway's idempotency key, so a refund retried or confirmed twice refunds once.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    kind: text("kind", { enum: refundKinds }).notNull(),
    returnId: uuid("return_id")
      .unique()
      .references(() => returnRequests.id, { onDelete: "restrict" }),
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
    creditNoteId: uuid("credit_note_id").references(() => invoices.id, { onDelete: "restrict" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
  },
  (t) => [
    index("refunds_order_idx").on(t.orderId),
    uniqueIndex("refunds_one_cancellation")
      .on(t.orderId)
      .where(sql`${t.kind} = 'cancellation'`),
    check("refunds_amount_nonnegative", sql`${t.amountCents} >= 0`),
  ],
);

/**
 * One parcel of an order: some of its lines (and part quantities of a line) handed to a carrier
 * at one time (docs/partial-shipment.md). Shipping the whole order at once is one shipment.
 */
export const shipments = pgTable(
  "shipments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** Who carries it and its tracking number (both or neither). */
    carrier: text("carrier", { enum: shippingCarriers }),
    trackingNumber: text("tracking_number"),
    shippedAt: timestamp("shipped_at", { withTimezone: true }).notNull().defaultNow(),
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
    shipmentId: uuid("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    orderId: uuid("order_id").notNull(),
    /** The order line (order_items.line). */
    line: integer("line").notNull(),
    qty: integer("qty").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.shipmentId, t.line] }),
    foreignKey({
      columns: [t.orderId, t.line],
      foreignColumns: [orderItems.orderId, orderItems.line],
    }).onDelete("cascade"),
    index("shipment_lines_order_idx").on(t.orderId, t.line),
    check("shipment_lines_qty_positive", sql`${t.qty} > 0`),
  ],
);

// --- Email bounces: addresses the SMTP server refused for good (docs/email-bounces.md) ---

/** The longest SMTP answer kept (its first line, cut): enough for "550 5.1.1 … no such user". */
export const MAX_BOUNCE_ANSWER_LENGTH = 300;

/**
 * An address the SMTP server refused for good (a 5xx answer), keyed by the address itself
 * (lower-cased) rather than the account: every kind of mail records it, an account whose address
 * changes no longer matches it, and an address with no account yet (an invitation) is kept too.
 */
export const emailBounces = pgTable(
  "email_bounces",
  {
    address: text("address").primaryKey(),
    /** The last refusal (a repeat moves it on). */
    bouncedAt: timestamp("bounced_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** The SMTP reply code (550…), when the server gave one. */
    smtpCode: integer("smtp_code"),
    /** The first line of the server's answer, cut to MAX_BOUNCE_ANSWER_LENGTH. */
    smtpAnswer: text("smtp_answer").notNull(),
  },
  (t) => [
    check("email_bounces_address_lower", sql`${t.address} = lower(${t.address})`),
    check(
      "email_bounces_answer_length",
      sql`char_length(${t.smtpAnswer}) <= ${sql.raw(String(MAX_BOUNCE_ANSWER_LENGTH))}`,
    ),
  ],
);
