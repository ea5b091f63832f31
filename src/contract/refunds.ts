import { z } from "zod";

/**
 * A refund of an order (a received return, a paid order the store cancelled, or a line's units on
 * backorder cancelled: docs/inventory.md) that has not gone through: the gateway failed
 * (`failed`), or it was cut off before the gateway answered and is still `pending` minutes later. Retried by a job with the same idempotency key, or by an admin.
 */
export const refundToRetrySchema = z.object({
  id: z.uuid(),
  orderId: z.uuid(),
  /** The number a person reads (`PW-100234`). */
  orderNumber: z.string(),
  kind: z.enum(["return", "cancellation", "backorder"]),
  returnId: z.uuid().nullable(),
  /** In currency units. */
  amount: z.number(),
  currency: z.string(),
  /** Where the money goes back (a gateway's name). */
  gateway: z.string(),
  status: z.enum(["pending", "failed", "succeeded"]),
  /** The gateway's words when its last attempt failed. */
  error: z.string().nullable(),
  attempts: z.number().int(),
  since: z.iso.datetime(),
  lastAttemptAt: z.iso.datetime().nullable(),
});
export type RefundToRetry = z.infer<typeof refundToRetrySchema>;

export const refundMessages = {
  notFound: "Refund not found",
} as const;
