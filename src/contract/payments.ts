import { z } from "zod";
import { text } from "./text";

export const paymentMessages = {
  completed: "Congrats! Your payment is completed.",
} as const;

export const paymentGateways = ["test-card", "stripe"] as const;
export type PaymentGateway = (typeof paymentGateways)[number];

export const createIntentSchema = z.object({ orderId: z.uuid() });

export const intentSchema = z.object({
  clientSecret: z.string(),
  /** In currency units, computed by the server from the order. */
  amount: z.number(),
  currency: z.string(),
  gateway: z.enum(paymentGateways),
});
export type Intent = z.infer<typeof intentSchema>;

/** The built-in test-card gateway's confirm call (Stripe's would be made by Stripe.js). */
export const testCardConfirmSchema = z.object({
  clientSecret: text().min(1).max(255),
  number: text().trim().max(30),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  cvc: text().trim().max(10),
});
export type TestCardConfirm = z.infer<typeof testCardConfirmSchema>;

export const testCardResultSchema = z.object({
  status: z.literal("succeeded"),
  transactionId: z.string(),
});

/**
 * A payment taken that the store could not apply (a second payment, one after the order was
 * cancelled by the store or its stock sold, one that fits no order): to be refunded.
 */
export const refundDueSchema = z.object({
  id: z.uuid(),
  orderId: z.uuid().nullable(),
  gateway: z.string(),
  gatewayIntentId: z.string(),
  /** In currency units. */
  amount: z.number(),
  currency: z.string(),
  reason: z.string(),
  since: z.iso.datetime(),
  /** `refund_due` until the admin refunds it through the gateway (docs/returns.md). */
  status: z.enum(["refund_due", "refunded"]),
  /** The gateway's words when the last refund attempt failed (it stays refund due: retry). */
  refundError: z.string().nullable(),
  gatewayRefundId: z.string().nullable(),
  refundedAt: z.iso.datetime().nullable(),
});
export type RefundDue = z.infer<typeof refundDueSchema>;

export const paymentRefundMessages = {
  notFound: "Payment not found",
  refundedAlready: "This payment was refunded already",
  notDue: (status: string) =>
    `Only a payment kept to refund can be refunded; this one is ${status}`,
  otherGateway: (gateway: string) =>
    `This payment was taken through ${gateway}, which this store no longer uses: refund it there`,
} as const;
