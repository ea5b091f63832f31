import type Stripe from "stripe";
import type { CreateIntentInput, GatewayIntent, PaymentGateway, RefundInput } from "./gateway";

function toIntent(pi: Stripe.PaymentIntent): GatewayIntent {
  return {
    id: pi.id,
    clientSecret: pi.client_secret ?? "",
    amountCents: pi.amount,
    currency: pi.currency,
    orderId: pi.metadata?.orderId,
    status: pi.status,
  };
}

/** Stripe PaymentIntents. Used when STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set. */
export function createStripeGateway(client: Stripe): PaymentGateway {
  return {
    name: "stripe",

    async createIntent(input: CreateIntentInput) {
      const pi = await client.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: input.currency.toLowerCase(),
          metadata: { orderId: input.orderId },
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return toIntent(pi);
    },

    async retrieveIntent(id: string) {
      if (!/^pi_[A-Za-z0-9]+$/.test(id)) return undefined;
      try {
        return toIntent(await client.paymentIntents.retrieve(id));
      } catch (err) {
        // (Told by its type, not instanceof: the stripe package is loaded only when configured.)
        const e = err as { type?: unknown; statusCode?: unknown };
        if (e.type === "StripeInvalidRequestError" && e.statusCode === 404) {
          return undefined;
        }
        throw err;
      }
    },

    async cancelIntent(id: string) {
      try {
        return (await client.paymentIntents.cancel(id)).status === "canceled";
      } catch (err) {
        if (!unexpectedState(err)) throw err;
        return false;
      }
    },

    async refund(input: RefundInput) {
      const refund = await client.refunds.create(
        { payment_intent: input.intentId, amount: input.amountCents },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: refund.id, status: refund.status ?? "pending", amountCents: refund.amount };
    },

    /** Stripe's PaymentIntents created since `since`, page by page (100 a page), the succeeded ones. */
    async listRecentPayments(since: Date) {
      const taken: GatewayIntent[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await client.paymentIntents.list({
          created: { gte: Math.floor(since.getTime() / 1000) },
          limit: 100,
          ...(after ? { starting_after: after } : {}),
        });
        for (const pi of page.data) if (pi.status === "succeeded") taken.push(toIntent(pi));
        if (!page.has_more || page.data.length === 0) return taken;
        after = page.data[page.data.length - 1]!.id;
      }
    },
  };
}

/** Whether Stripe refused a call because of what the intent is now (paid or cancelled already). */
function unexpectedState(err: unknown): boolean {
  const e = err as { type?: unknown; code?: unknown };
  return e.type === "StripeInvalidRequestError" && e.code === "payment_intent_unexpected_state";
}

export function stripeIntentFromEvent(event: Stripe.Event): GatewayIntent | undefined {
  if (event.type !== "payment_intent.succeeded") return undefined;
  return toIntent(event.data.object);
}
