import { sql } from "../db/sql";
import type { PriceBreak } from "../money";
import { check, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
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
