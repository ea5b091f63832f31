import { boolean, pgTable, text } from "drizzle-orm/pg-core";
import { timestampNow } from "../db/columns";
import { user } from "../users/tables";

/**
 * The order emails a customer chose to receive beyond the essential ones (placed, paid, cancelled
 * are always sent). No row means the defaults: everything on.
 */
export const notificationPreferences = pgTable("notification_preferences", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  orderShipped: boolean("order_shipped").notNull().default(true),
  holdReminder: boolean("hold_reminder").notNull().default(true),
  updatedAt: timestampNow("updated_at"),
});
