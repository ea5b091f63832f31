import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  index,
  integer,
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
import { paymentGateways } from "../../contract/payments";

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
    /** Better Auth's two-factor plugin: TOTP is on for this account. */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
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
    /** The gateway that took the payment: "test-card" orders were paid with test cards (TEST). */
    paidWith: text("paid_with", { enum: paymentGateways }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** An unpaid order holds its stock until then; afterwards the sweeper cancels it. */
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    shippedAt: timestamp("shipped_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** When "your hold is about to expire" was queued (it is sent once per order). */
    holdWarnedAt: timestamp("hold_warned_at", { withTimezone: true }),
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
