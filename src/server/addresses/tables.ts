import { sql } from "../db/sql";
import { boolean, check, index, pgTable, uniqueIndex } from "drizzle-orm/pg-core";
import { postalAddressColumns, timestampNow, uuidPrimaryKey } from "../db/columns";
import { ownerUserId } from "../users/tables";

/** A customer's address book: delivery addresses, one of them the default. */
export const addresses = pgTable(
  "addresses",
  {
    id: uuidPrimaryKey(),
    userId: ownerUserId(),
    ...postalAddressColumns(),
    isDefault: boolean("is_default").notNull().default(false),
    createdAt: timestampNow("created_at"),
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
