import { sql } from "../db/sql";
import {
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
import { products } from "../catalog/tables";
import { user } from "../users/tables";

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
