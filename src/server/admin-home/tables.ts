import { date, integer, pgTable, timestamp } from "drizzle-orm/pg-core";

/** The days a low-stock email went to the admins: one a day, however many processes run. */
export const lowStockEmails = pgTable("low_stock_emails", {
  day: date("day", { mode: "string" }).primaryKey(),
  productCount: integer("product_count").notNull(),
  sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
});
