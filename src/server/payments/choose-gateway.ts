import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config";
import type { Database } from "../db/database";
import type { PaymentRoutesOptions } from "./routes";
import { createStripeGateway } from "./stripe-gateway";
import { createTestCardGateway } from "./test-card-gateway";

/** Stripe when it is configured, else the built-in test-card gateway; start-up says which. */
export async function createPaymentGateway(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
) {
  if (config.stripe) {
    log.info("payments: the Stripe gateway is live");
    // Loaded only when configured (about 0.2 s and 18 MiB of start-up otherwise).
    const { default: Stripe } = await import("stripe");
    const client = new Stripe(config.stripe.secretKey);
    const routes: Partial<PaymentRoutesOptions> = config.stripe.webhookSecret
      ? { stripeWebhook: { client, secret: config.stripe.webhookSecret } }
      : {};
    return { gateway: createStripeGateway(client), routes };
  }
  if (config.env === "production") {
    log.warn(
      "payments: TEST CARDS ONLY (PAYMENTS_GATEWAY=test-card): no money is taken, and every order paid so is marked TEST",
    );
  } else {
    log.info("payments: the test-card gateway is live (no money is taken; orders marked TEST)");
  }
  const testCard = createTestCardGateway(database.db);
  return { gateway: testCard, routes: { testCard } };
}
