import { sql } from "../db/sql";
import type { PriceBreak } from "../money";
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { priceRuleScopes } from "../../contract/customer-groups";
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
