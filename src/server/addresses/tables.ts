import { sql } from "../db/sql";
import {
  boolean,
  check,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { postalAddressColumns } from "../db/columns";
import { user } from "../users/tables";

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
