import { date, integer, pgTable } from "drizzle-orm/pg-core";
import { timestampNow } from "../db/columns";

/** The days a low-stock email went to the admins: one a day, however many processes run. */
export const lowStockEmails = pgTable("low_stock_emails", {
  day: date("day", { mode: "string" }).primaryKey(),
  productCount: integer("product_count").notNull(),
  sentAt: timestampNow("sent_at"),
});
