import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { sql } from "../db/sql";
import { luhnValid } from "../../contract/cards";
import type { TestCardConfirm } from "../../contract/payments";
import type { DbOrTx } from "../db/database";
import { testCardIntents, testCardRefunds } from "./tables";
import { HttpError, notFound } from "../errors";
import type { CreateIntentInput, GatewayIntent, PaymentGateway, RefundInput } from "./gateway";

type IntentRow = typeof testCardIntents.$inferSelect;

/** Stripe's test card numbers and what they do (https://docs.stripe.com/testing). */
const outcomes: Record<string, string | null> = {
  "4242424242424242": null,
  "5555555555554444": null,
  "4000000000000002": "Your card was declined.",
  "4000000000009995": "Your card has insufficient funds.",
};

/** A card given for an intent the store cancelled (with its order): nothing is charged. */
export const CANCELED_MESSAGE =
  "This payment was cancelled because its order was cancelled; nothing was charged.";

export class CardError extends HttpError {
  constructor(message: string) {
    super(402, "card_declined", message);
  }
}

/** Checks the card the way a real gateway would, and answers with Stripe's messages. */
export function checkCard(card: Omit<TestCardConfirm, "clientSecret">, now = new Date()): string {
  const number = card.number.replace(/[\s-]/g, "");
  if (!/^[0-9]{12,19}$/.test(number) || !luhnValid(number)) {
    throw new CardError("Your card number is invalid.");
  }
  if (card.expMonth < 1 || card.expMonth > 12) {
    throw new CardError("Your card's expiration month is invalid.");
  }
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  const endOfMonth = new Date(Date.UTC(year, card.expMonth, 1));
  if (endOfMonth <= now) throw new CardError("Your card has expired.");
  if (year > now.getUTCFullYear() + 50) {
    throw new CardError("Your card's expiration year is invalid.");
  }
  if (!/^[0-9]{3,4}$/.test(card.cvc)) throw new CardError("Your card's security code is invalid.");
  const declined = number in outcomes ? outcomes[number] : "Your card was declined.";
  if (declined) throw new CardError(declined);
  return number.slice(-4);
}

function toIntent(row: IntentRow): GatewayIntent {
  return {
    id: row.id,
    clientSecret: row.clientSecret,
    amountCents: row.amountCents,
    currency: row.currency,
    orderId: row.orderId,
    status: row.status,
  };
}

/**
 * The built-in gateway, the default: it keeps its intents in its own table and behaves like
 * Stripe's test mode, so the whole payment flow runs offline.
 */
export function createTestCardGateway(db: DbOrTx): PaymentGateway & {
  confirm(input: TestCardConfirm): Promise<GatewayIntent>;
} {
  return {
    name: "test-card",

    async createIntent(input: CreateIntentInput) {
      const id = `pi_test_${randomBytes(12).toString("hex")}`;
      await db
        .insert(testCardIntents)
        .values({
          id,
          clientSecret: `${id}_secret_${randomBytes(16).toString("hex")}`,
          amountCents: input.amountCents,
          currency: input.currency.toLowerCase(),
          orderId: input.orderId,
          idempotencyKey: input.idempotencyKey,
        })
        .onConflictDoNothing({ target: testCardIntents.idempotencyKey });
      const [row] = await db
        .select()
        .from(testCardIntents)
        .where(eq(testCardIntents.idempotencyKey, input.idempotencyKey));
      return toIntent(row!);
    },

    async retrieveIntent(id: string) {
      const [row] = await db.select().from(testCardIntents).where(eq(testCardIntents.id, id));
      return row ? toIntent(row) : undefined;
    },

    async cancelIntent(id: string) {
      const cancelled = await db
        .update(testCardIntents)
        .set({ status: "canceled" })
        .where(
          sql`${testCardIntents.id} = ${id} and ${testCardIntents.status} not in ('succeeded', 'canceled')`,
        )
        .returning({ id: testCardIntents.id });
      return cancelled.length > 0;
    },

    /**
     * Refunds offline, as Stripe would: only a succeeded intent, never more than is left of it,
     * and the same idempotency key twice gives the first refund back (the intent's row is locked
     * while its refunds are added up, so two refunds at once cannot both take the last money).
     */
    async refund(input: RefundInput) {
      if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) {
        throw new HttpError(400, "refund_invalid", "A refund must be a positive amount.");
      }
      const run = async (tx: DbOrTx) => {
        const [intent] = await tx
          .select()
          .from(testCardIntents)
          .where(eq(testCardIntents.id, input.intentId))
          .for("update");
        if (!intent) throw notFound("No such payment");
        // Looked up under the intent's lock: a second call with the key waits for the first.
        const [again] = await tx
          .select()
          .from(testCardRefunds)
          .where(eq(testCardRefunds.idempotencyKey, input.idempotencyKey));
        if (again) return again;
        if (intent.status !== "succeeded") {
          throw new HttpError(
            409,
            "refund_unpaid",
            "This payment was not taken: nothing to refund.",
          );
        }
        const [sum] = await tx
          .select({ refunded: sql<number>`coalesce(sum(${testCardRefunds.amountCents}), 0)::int` })
          .from(testCardRefunds)
          .where(eq(testCardRefunds.intentId, intent.id));
        const refunded = sum?.refunded ?? 0;
        if (refunded + input.amountCents > intent.amountCents) {
          throw new HttpError(
            409,
            "refund_too_large",
            `Refund of ${input.amountCents} is more than the ${intent.amountCents - refunded} left on this payment.`,
          );
        }
        const [row] = await tx
          .insert(testCardRefunds)
          .values({
            id: `re_test_${randomBytes(12).toString("hex")}`,
            intentId: intent.id,
            amountCents: input.amountCents,
            idempotencyKey: input.idempotencyKey,
          })
          .returning();
        return row!;
      };
      const row = await db.transaction(run);
      return { id: row.id, status: "succeeded", amountCents: row.amountCents };
    },

    /** Its own records of the charges taken since `since` (what Stripe lists: stripe-gateway.ts). */
    async listRecentPayments(since: Date) {
      const rows = await db
        .select()
        .from(testCardIntents)
        .where(
          sql`${testCardIntents.status} = 'succeeded' and ${testCardIntents.createdAt} >= ${since.toISOString()}::timestamptz`,
        )
        .orderBy(testCardIntents.createdAt);
      return rows.map(toIntent);
    },

    /** What Stripe.js's confirmCardPayment does against Stripe: charge the card, once. */
    async confirm(input: TestCardConfirm) {
      const [row] = await db
        .select()
        .from(testCardIntents)
        .where(eq(testCardIntents.clientSecret, input.clientSecret));
      if (!row) throw notFound("No such payment");
      if (row.status === "succeeded") return toIntent(row);
      if (row.status === "canceled") throw new HttpError(409, "payment_canceled", CANCELED_MESSAGE);
      let last4: string;
      try {
        last4 = checkCard(input);
      } catch (err) {
        if (err instanceof CardError) {
          await db
            .update(testCardIntents)
            .set({ lastError: err.message })
            .where(eq(testCardIntents.id, row.id));
        }
        throw err;
      }
      const [updated] = await db
        .update(testCardIntents)
        .set({ status: "succeeded", cardLast4: last4, lastError: null })
        .where(sql`${testCardIntents.id} = ${row.id} and ${testCardIntents.status} <> 'succeeded'`)
        .returning();
      return toIntent(updated ?? row);
    },
  };
}

export type TestCardGateway = ReturnType<typeof createTestCardGateway>;
