import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type Stripe from "stripe";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import {
  createIntentSchema,
  intentSchema,
  refundDueSchema,
  testCardConfirmSchema,
  testCardResultSchema,
} from "../../contract/payments";
import { adminRoute, caller, type Guards } from "../http/request-context";
import type { RateLimiter } from "../auth/rate-limit";
import { enforceLimits } from "../auth/request-limit";
import { HttpError, notFound } from "../errors";
import type { PaymentService } from "./service";
import { stripeIntentFromEvent } from "./stripe-gateway";
import type { TestCardGateway } from "./test-card-gateway";
import { errorAnswers } from "../api-errors";

const errors = errorAnswers(400, 401, 403, 404, 409, 422);

/** Payment confirmations per customer and per client IP (PAYMENT_CONFIRM_LIMIT_PER_IP). */
export const CONFIRM_LIMITS = {
  perUser: { max: 10, windowSeconds: 10 * 60 },
  perIp: { max: 30, windowSeconds: 10 * 60 },
};

export interface PaymentRoutesOptions {
  payments: PaymentService;
  guards: Guards;
  /** Card confirmations are counted (card testing: many cards tried against one payment). */
  rateLimiter: RateLimiter;
  /** Confirmations per client IP in the window (default CONFIRM_LIMITS.perIp.max). */
  confirmPerIp?: number;
  /** Present when the built-in test-card gateway is the one in use. */
  testCard?: TestCardGateway;
  /** Present when Stripe is in use and its webhook secret is set. */
  stripeWebhook?: { client: Stripe; secret: string };
}

export const paymentRoutes: FastifyPluginAsyncZod<PaymentRoutesOptions> = async (app, opts) => {
  const { payments, guards, testCard, stripeWebhook, rateLimiter, confirmPerIp } = opts;

  app.post(
    "/create-payment-intent",
    {
      schema: {
        tags: ["payments"],
        summary: "Open a payment for one of your unpaid orders; the amount comes from the order",
        body: createIntentSchema,
        response: { 200: intentSchema, ...errors },
      },
      onRequest: guards.signedIn,
      config: { idempotent: true },
    },
    async (req) => {
      const me = caller(req);
      return payments.createIntent(req.body.orderId, me.id);
    },
  );

  app.get(
    "/payments/refunds-due",
    {
      schema: {
        tags: ["payments", "admin"],
        summary:
          "Payments taken that the store could not apply (a second payment, one for an order the store cancelled or whose stock was sold, one that fits no order): to refund",
        response: { 200: z.array(refundDueSchema), ...errors },
      },
      ...adminRoute(guards, "orders:read"),
    },
    async () => payments.refundsDue(),
  );

  app.post(
    "/payments/:id/refund",
    {
      schema: {
        tags: ["payments", "admin"],
        summary:
          "Admin: refund a payment kept as refund due, in full, through the gateway that took it (once, however often it is asked; a gateway failure leaves it refund due with the gateway's words, to retry)",
        params: idParamsSchema,
        response: { 200: refundDueSchema, ...errors },
      },
      ...adminRoute(guards, "orders:write"),
    },
    async (req) => payments.refundPayment(req.params.id, caller(req)),
  );

  if (testCard) {
    app.post(
      "/payments/test-card/confirm",
      {
        schema: {
          tags: ["payments"],
          summary: "The built-in test-card gateway: charge a card for a payment intent",
          body: testCardConfirmSchema,
          response: {
            200: testCardResultSchema,
            ...errorAnswers(402, 429),
            ...errors,
          },
        },
        onRequest: guards.signedIn,
      },
      async (req, reply) => {
        const me = caller(req);
        const { perUser } = CONFIRM_LIMITS;
        const perIp = { ...CONFIRM_LIMITS.perIp, max: confirmPerIp ?? CONFIRM_LIMITS.perIp.max };
        await enforceLimits(rateLimiter, reply, [
          { key: `payments:confirm:user:${me.id}`, ...perUser },
          { key: `payments:confirm:ip:${req.ip}`, ...perIp },
        ]);
        if (!(await payments.ownsIntent(req.body.clientSecret, me.id))) {
          throw notFound("No such payment");
        }
        const intent = await testCard.confirm(req.body);
        return { status: "succeeded" as const, transactionId: intent.id };
      },
    );
  }

  if (stripeWebhook) {
    await app.register(async (webhook) => {
      // Stripe signs the exact bytes it sent: keep the body raw on this route (instead of the
      // app's JSON parser, json-body.ts).
      webhook.removeContentTypeParser("application/json");
      webhook.addContentTypeParser("application/json", { parseAs: "buffer" }, (_req, body, done) =>
        done(null, body),
      );
      webhook.post(
        "/payments/webhook",
        {
          schema: {
            tags: ["payments"],
            summary: "Stripe's webhook (signature verified); marks orders paid",
            response: {
              200: z.object({ received: z.literal(true), result: z.string() }),
              ...errorAnswers(400),
            },
          },
        },
        async (req) => {
          const signature = req.headers["stripe-signature"];
          let event: Stripe.Event;
          try {
            event = stripeWebhook.client.webhooks.constructEvent(
              req.body as Buffer,
              typeof signature === "string" ? signature : "",
              stripeWebhook.secret,
            );
          } catch {
            throw new HttpError(400, "bad_signature", "The webhook signature is not valid");
          }
          const intent = stripeIntentFromEvent(event);
          const result = intent
            ? await payments.handleSucceededEvent(event.id, event.type, intent)
            : "ignored";
          return { received: true as const, result };
        },
      );
    });
  }
};
