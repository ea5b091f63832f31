import { sql } from "../db/sql";
import { boolean, check, date, integer, pgTable } from "drizzle-orm/pg-core";
import { timestampNow } from "../db/columns";

/** The days a low-stock email went to the admins: one a day, however many processes run. */
export const lowStockEmails = pgTable("low_stock_emails", {
  day: date("day", { mode: "string" }).primaryKey(),
  productCount: integer("product_count").notNull(),
  sentAt: timestampNow("sent_at"),
});

/**
 * The daily low-stock email as an admin sets it on Today: one row (id 1), none until an admin
 * saves (the environment's values until then). Written by admin-home/low-stock-settings.ts alone.
 */
export const lowStockEmailSettings = pgTable(
  "low_stock_email_settings",
  {
    id: integer("id").primaryKey().default(1),
    enabled: boolean("enabled").notNull(),
    /** From this hour of the day (UTC) the day's email goes out. */
    hourUtc: integer("hour_utc").notNull(),
    updatedAt: timestampNow("updated_at"),
  },
  (t) => [
    check("low_stock_email_settings_one_row", sql`${t.id} = 1`),
    check("low_stock_email_settings_hour_valid", sql`${t.hourUtc} between 0 and 23`),
  ],
);
