import { z } from "zod";

/**
 * The order emails a customer may turn off in My Info. Order placed, payment received and
 * "cancelled because the hold ended" are always sent: they are the record of what was bought,
 * paid or undone. Shipping news and the reminder before a hold ends are optional.
 */
export const notificationPreferencesSchema = z.strictObject({
  /** "Your order has shipped". */
  orderShipped: z.boolean(),
  /** "Your order is held until …" (sent once, some hours before an unpaid order's hold ends). */
  holdReminder: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** `PUT /api/user/notifications`: any of the choices; the others stay as they are. */
export const notificationPreferencesUpdateSchema = notificationPreferencesSchema.partial();
export type NotificationPreferencesUpdate = z.infer<typeof notificationPreferencesUpdateSchema>;
