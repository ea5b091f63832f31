import { sql } from "../db/sql";
import type { PriceBreak } from "../money";
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { priceRuleScopes } from "../../contract/customer-groups";
import { discountKinds, discountScopes } from "../../contract/discount-codes";
import { marketCurrencies, roundingRules } from "../../contract/markets";
import { requiredUuidRef, timestampNow, uuidPrimaryKey } from "../db/columns";
import { products } from "../catalog/tables";

/** A trade price list (src/server/pricing/): per product, a unit price and quantity breaks. */
export const priceLists = pgTable(
  "price_lists",
  {
    id: uuidPrimaryKey(),
    name: text("name").notNull(),
    /** Always the store's currency (refused otherwise when created); kept to catch a change of it. */
    currency: text("currency").notNull(),
    createdAt: timestampNow("created_at"),
  },
  (t) => [uniqueIndex("price_lists_name_unique").on(sql`lower(${t.name})`)],
);

export const priceListEntries = pgTable(
  "price_list_entries",
  {
    priceListId: requiredUuidRef("price_list_id", () => priceLists.id, "cascade"),
    productId: requiredUuidRef("product_id", () => products.id, "cascade"),
    unitPriceCents: integer("unit_price_cents").notNull(),
    /** Sorted by minQty, each minQty once (checked by the service before it is written). */
    breaks: jsonb("breaks").$type<PriceBreak[]>().notNull().default([]),
    updatedAt: timestampNow("updated_at"),
  },
  (t) => [
    primaryKey({ columns: [t.priceListId, t.productId] }),
    check("price_list_entries_price_nonnegative", sql`${t.unitPriceCents} >= 0`),
  ],
);

export { GARAGE_GROUP_ID, RETAIL_GROUP_ID } from "../../contract/customer-groups";

/**
 * A customer group (docs/pricing.md "Customer groups and price rules"): every company belongs to
 * one; a customer without a company to their own (`user.customer_group_id`, retail by default);
 * visitors are retail.
 */
export const customerGroups = pgTable(
  "customer_groups",
  {
    id: uuidPrimaryKey(),
    name: text("name").notNull(),
    /** Whether its buyers keep each part's trade minimum order (false: they may buy one). */
    tradeMinimums: boolean("trade_minimums").notNull().default(true),
    createdAt: timestampNow("created_at"),
  },
  (t) => [uniqueIndex("customer_groups_name_unique").on(sql`lower(${t.name})`)],
);

/** A percentage off the list price for a group's buyers, by category, brand or part, with dates. */
export const priceRules = pgTable(
  "price_rules",
  {
    id: uuidPrimaryKey(),
    groupId: requiredUuidRef("group_id", () => customerGroups.id, "cascade"),
    percent: integer("percent").notNull(),
    scope: text("scope", { enum: priceRuleScopes }).notNull(),
    category: text("category"),
    brand: text("brand"),
    productId: uuid("product_id").references(() => products.id, { onDelete: "cascade" }),
    /** First and last day it applies (UTC dates, both included); null: open. */
    startsOn: date("starts_on"),
    endsOn: date("ends_on"),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    index("price_rules_group_idx").on(t.groupId),
    index("price_rules_product_idx").on(t.productId),
    check("price_rules_percent_range", sql`${t.percent} between 1 and 100`),
    check(
      "price_rules_target",
      sql`(${t.scope} = 'category' AND ${t.category} IS NOT NULL AND ${t.brand} IS NULL AND ${t.productId} IS NULL) OR
	  (${t.scope} = 'brand' AND ${t.brand} IS NOT NULL AND ${t.category} IS NULL AND ${t.productId} IS NULL) OR
	  (${t.scope} = 'part' AND ${t.productId} IS NOT NULL AND ${t.category} IS NULL AND ${t.brand} IS NULL)`,
    ),
    check("price_rules_dates_order", sql`${t.endsOn} >= ${t.startsOn}`),
  ],
);

/**
 * A discount code (docs/pricing.md "Discount codes"): percent or an amount off all parts, a
 * category or one part, after the group's price; with a minimum order subtotal, optional dates,
 * limits in all and per customer, and optionally only for one customer group.
 */
export const discountCodes = pgTable(
  "discount_codes",
  {
    id: uuidPrimaryKey(),
    /** As the admin wrote it; unique and matched without case. */
    code: text("code").notNull(),
    kind: text("kind", { enum: discountKinds }).notNull(),
    percent: integer("percent"),
    amountCents: integer("amount_cents"),
    scope: text("scope", { enum: discountScopes }).notNull(),
    category: text("category"),
    productId: uuid("product_id").references(() => products.id, { onDelete: "cascade" }),
    minSubtotalCents: integer("min_subtotal_cents").notNull().default(0),
    /** First and last day it may be used (UTC dates, both included); null: open. */
    startsOn: date("starts_on"),
    endsOn: date("ends_on"),
    usageLimit: integer("usage_limit"),
    perCustomerLimit: integer("per_customer_limit"),
    /** Orders placed with it: raised in the order's transaction only while below usageLimit. */
    usedCount: integer("used_count").notNull().default(0),
    customerGroupId: uuid("customer_group_id").references(() => customerGroups.id, {
      onDelete: "cascade",
    }),
    active: boolean("active").notNull().default(true),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    uniqueIndex("discount_codes_code_unique").on(sql`lower(${t.code})`),
    check(
      "discount_codes_kind",
      sql`(${t.kind} = 'percent' AND ${t.percent} BETWEEN 1 AND 100 AND ${t.amountCents} IS NULL) OR
	  (${t.kind} = 'amount' AND ${t.amountCents} > 0 AND ${t.percent} IS NULL)`,
    ),
    check(
      "discount_codes_target",
      sql`(${t.scope} = 'all' AND ${t.category} IS NULL AND ${t.productId} IS NULL) OR
	  (${t.scope} = 'category' AND ${t.category} IS NOT NULL AND ${t.productId} IS NULL) OR
	  (${t.scope} = 'part' AND ${t.productId} IS NOT NULL AND ${t.category} IS NULL)`,
    ),
    check("discount_codes_dates_order", sql`${t.endsOn} >= ${t.startsOn}`),
    check("discount_codes_used_within_limit", sql`${t.usedCount} <= ${t.usageLimit}`),
    check("discount_codes_min_nonnegative", sql`${t.minSubtotalCents} >= 0`),
  ],
);

/** One order's use of a code: what it took off, by whom (the per-customer limit counts these). */
export const discountRedemptions = pgTable(
  "discount_redemptions",
  {
    orderId: uuid("order_id").primaryKey(),
    codeId: uuid("code_id").references(() => discountCodes.id, { onDelete: "set null" }),
    /** The code as it was when used (kept if the code is removed). */
    code: text("code").notNull(),
    userId: text("user_id").notNull(),
    discountCents: integer("discount_cents").notNull(),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    index("discount_redemptions_code_user_idx").on(t.codeId, t.userId),
    check("discount_redemptions_nonnegative", sql`${t.discountCents} >= 0`),
  ],
);

/** The code a customer applied to their cart (one at a time), until they check out or remove it. */
export const cartDiscountCodes = pgTable("cart_discount_codes", {
  userId: text("user_id").primaryKey(),
  codeId: requiredUuidRef("code_id", () => discountCodes.id, "cascade"),
  appliedAt: timestampNow("applied_at"),
});

/**
 * A market (docs/pricing.md "Markets and currencies"): a currency, the rate from the store's
 * currency and its rounding rule, whether consumers see VAT included; one is the default (the
 * store's currency at rate 1). Its countries are `market_countries`.
 */
export const markets = pgTable(
  "markets",
  {
    id: uuidPrimaryKey(),
    /** Upper-case letters, unique: "US", "EU", "GB". */
    code: text("code").notNull(),
    name: text("name").notNull(),
    currency: text("currency", { enum: marketCurrencies }).notNull(),
    pricesIncludeTax: boolean("prices_include_tax").notNull().default(false),
    /** One unit of the store's currency in this one, six decimals at most. */
    rate: numeric("rate", { precision: 14, scale: 6, mode: "number" }).notNull(),
    rounding: text("rounding", { enum: roundingRules }).notNull().default("cent"),
    active: boolean("active").notNull().default(true),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    uniqueIndex("markets_code_unique").on(t.code),
    uniqueIndex("markets_name_unique").on(sql`lower(${t.name})`),
    uniqueIndex("markets_one_default")
      .on(t.isDefault)
      .where(sql`${t.isDefault}`),
    check("markets_rate_positive", sql`${t.rate} > 0`),
    check("markets_default_rate", sql`NOT ${t.isDefault} OR (${t.rate} = 1 AND ${t.active})`),
  ],
);

/** The countries of each market: a country belongs to one market at most. */
export const marketCountries = pgTable("market_countries", {
  /** ISO 3166-1 alpha-2. */
  country: text("country").primaryKey(),
  marketId: requiredUuidRef("market_id", () => markets.id, "cascade"),
});
