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
/** A change names at least one setting: an empty body is a mistake, not a no-op. */
export const notificationPreferencesUpdateSchema = notificationPreferencesSchema
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: "Say which email setting to change" });
export type NotificationPreferencesUpdate = z.infer<typeof notificationPreferencesUpdateSchema>;
