import { sql } from "../db/sql";
import { check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestampNow, timestampTz, uuidPrimaryKey } from "../db/columns";
import { orders } from "../orders/tables";

/** One row per payment intent created at a gateway for an order. */
export const payments = pgTable(
  "payments",
  {
    id: uuidPrimaryKey(),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    gateway: text("gateway").notNull(),
    gatewayIntentId: text("gateway_intent_id").notNull().unique(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    /** The gateway's status (requires_payment_method…, succeeded, canceled), or refund_due (taken
     * but not applied: see refundReason), then refunded (given back: docs/returns.md). */
    status: text("status").notNull().default("created"),
    /** Why a payment is to be refunded (payments/service.ts `refundDue`). */
    refundReason: text("refund_reason"),
    /** The gateway's refund of a refund-due payment (status `refunded`; docs/returns.md). */
    gatewayRefundId: text("gateway_refund_id"),
    refundedAt: timestampTz("refunded_at"),
    /** The gateway's words when its last refund attempt failed (still `refund_due`). */
    refundError: text("refund_error"),
    createdAt: timestampNow("created_at"),
    updatedAt: timestampNow("updated_at"),
  },
  (t) => [
    index("payments_order_idx").on(t.orderId),
    index("payments_refund_due_idx")
      .on(t.updatedAt)
      .where(sql`${t.status} = 'refund_due'`),
  ],
);

/** Gateway webhook events already handled, so a replayed event changes nothing. */
export const webhookEvents = pgTable("webhook_events", {
  id: text("id").primaryKey(),
  gateway: text("gateway").notNull(),
  type: text("type").notNull(),
  receivedAt: timestampNow("received_at"),
});

/**
 * The built-in test-card gateway's own records (what Stripe keeps on its side): intents with
 * their client secret, amount and outcome.
 */
export const testCardIntents = pgTable("test_card_intents", {
  id: text("id").primaryKey(),
  clientSecret: text("client_secret").notNull().unique(),
  amountCents: integer("amount_cents").notNull(),
  currency: text("currency").notNull(),
  orderId: text("order_id").notNull(),
  idempotencyKey: text("idempotency_key").unique(),
  status: text("status").notNull().default("requires_payment_method"),
  lastError: text("last_error"),
  cardLast4: text("card_last4"),
  createdAt: timestampNow("created_at"),
});

/** The test-card gateway's refunds (what Stripe keeps of its Refunds): one per idempotency key. */
export const testCardRefunds = pgTable(
  "test_card_refunds",
  {
    id: text("id").primaryKey(),
    intentId: text("intent_id")
      .notNull()
      .references(() => testCardIntents.id, { onDelete: "restrict" }),
    amountCents: integer("amount_cents").notNull(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    check("test_card_refunds_amount_positive", sql`${t.amountCents} > 0`),
    index("test_card_refunds_intent_idx").on(t.intentId),
  ],
);
