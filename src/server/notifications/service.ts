import { eq } from "drizzle-orm";
import { sql } from "../db/sql";
import type {
  NotificationPreferences,
  NotificationPreferencesUpdate,
} from "../../contract/notifications";
import type { Db } from "../db/database";
import { notificationPreferences } from "./tables";

/** Everything on until the customer says otherwise. */
export const DEFAULT_PREFERENCES: NotificationPreferences = {
  orderShipped: true,
  holdReminder: true,
};

export function createNotificationService(db: Db) {
  async function get(userId: string): Promise<NotificationPreferences> {
    const [row] = await db
      .select()
      .from(notificationPreferences)
      .where(eq(notificationPreferences.userId, userId));
    return row
      ? { orderShipped: row.orderShipped, holdReminder: row.holdReminder }
      : { ...DEFAULT_PREFERENCES };
  }

  return {
    get,
    /** Saves the choices given; the others keep their value (or the default). */
    async update(
      userId: string,
      change: NotificationPreferencesUpdate,
    ): Promise<NotificationPreferences> {
      const next = { ...(await get(userId)), ...change };
      await db
        .insert(notificationPreferences)
        .values({ userId, ...next })
        .onConflictDoUpdate({
          target: notificationPreferences.userId,
          set: {
            ...(change.orderShipped === undefined ? {} : { orderShipped: change.orderShipped }),
            ...(change.holdReminder === undefined ? {} : { holdReminder: change.holdReminder }),
            updatedAt: sql`now()`,
          },
        });
      return get(userId);
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
