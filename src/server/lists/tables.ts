import { sql } from "../db/sql";
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { requiredUuidRef, timestampNow, uuidPrimaryKey } from "../db/columns";
import { products } from "../catalog/tables";
import { ownerUserId } from "../users/tables";

export const savedLists = pgTable(
  "saved_lists",
  {
    id: uuidPrimaryKey(),
    userId: ownerUserId(),
    name: text("name").notNull(),
    createdAt: timestampNow("created_at"),
    updatedAt: timestampNow("updated_at"),
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
    listId: requiredUuidRef("list_id", () => savedLists.id, "cascade"),
    productId: requiredUuidRef("product_id", () => products.id, "cascade"),
    qty: integer("qty").notNull(),
    addedAt: timestampNow("added_at"),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.productId] }),
    check("saved_list_items_qty_positive", sql`${t.qty} > 0`),
    index("saved_list_items_product_idx").on(t.productId),
  ],
);
