import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  crossReferenceKinds,
  MAX_IMAGE_URL_LENGTH,
  MAX_NAME_LENGTH,
  productCategories,
} from "../../contract/constants";

/** Text searched by the catalog's `q` filter; the trigram index below is built on the same expression. */
export const productSearchText = sql`(lower(name || ' ' || short_description))`;

/** The words the catalog's full-text search reads (english stemming); indexed below. */
export const productSearchDocument = sql`(to_tsvector('english'::regconfig, name || ' ' || short_description || ' ' || category))`;
/** The name alone, for ranking a name match above a description match. */
export const productNameDocument = sql`(to_tsvector('english'::regconfig, name))`;

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
    creatorEmail: text("creator_email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    check("products_price_nonnegative", sql`${t.priceCents} >= 0`),
    check("products_minimum_order_positive", sql`${t.minimumOrder} >= 1`),
    check("products_stock_nonnegative", sql`${t.availableQuantity} >= 0`),
    check("products_warranty_nonnegative", sql`${t.warrantyMonths} >= 0`),
    index("products_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("products_price_idx").on(t.priceCents, t.id),
    index("products_name_idx").on(t.name, t.id),
    index("products_search_trgm_idx").using("gin", sql`${productSearchText} gin_trgm_ops`),
    index("products_search_fts_idx").using("gin", productSearchDocument),
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
    role: text("role", { enum: ["admin", "user"] })
      .notNull()
      .default("user"),
    education: text("education").notNull().default(""),
    address: text("address").notNull().default(""),
    phoneNo: text("phone_no").notNull().default(""),
    linkedIn: text("linked_in").notNull().default(""),
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

// --- Orders and payments ---

export const orderStatuses = ["unpaid", "paid", "shipped", "cancelled"] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null once the customer's account is removed; paid orders stay for the records. */
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    orderEmail: text("order_email").notNull(),
    customerName: text("customer_name").notNull(),
    /** The sum of the lines' totals, fixed when the order was placed. */
    totalCents: integer("total_cents").notNull(),
    currency: text("currency").notNull(),
    phone: text("phone").notNull(),
    address: text("address").notNull(),
    /** The customer's purchase-order reference, printed on the invoice. */
    poReference: text("po_reference"),
    status: text("status", { enum: orderStatuses }).notNull().default("unpaid"),
    transactionId: text("transaction_id").unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** An unpaid order holds its stock until then; afterwards the sweeper cancels it. */
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    shippedAt: timestamp("shipped_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
  },
  (t) => [
    check("orders_total_positive", sql`${t.totalCents} >= 0`),
    check("orders_status_valid", sql`${t.status} in ('unpaid', 'paid', 'shipped', 'cancelled')`),
    check(
      "orders_paid_has_transaction",
      sql`${t.status} not in ('paid', 'shipped') or ${t.transactionId} is not null`,
    ),
    index("orders_user_created_idx").on(t.userId, t.createdAt.desc().nullsFirst()),
    index("orders_created_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("orders_hold_idx")
      .on(t.holdExpiresAt)
      .where(sql`${t.status} = 'unpaid'`),
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
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.line] }),
    check("order_items_qty_positive", sql`${t.qty} > 0`),
    check("order_items_price_not_negative", sql`${t.unitPriceCents} >= 0`),
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
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    check("cart_items_qty_positive", sql`${t.qty} > 0`),
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
    status: text("status").notNull().default("created"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payments_order_idx").on(t.orderId)],
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
