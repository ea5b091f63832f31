import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Text searched by the catalog's `q` filter; the trigram index below is built on the same expression. */
export const productSearchText = sql`(lower(name || ' ' || short_description))`;

export const products = pgTable(
  "products",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
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
  },
  (t) => [
    check("reviews_ratings_range", sql`${t.ratings} between 1 and 5`),
    index("reviews_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);
