import type { PaymentGateway as GatewayName } from "../../contract/payments";

/** A payment intent as the gateway knows it (Stripe's PaymentIntent, or our test-card twin). */
export interface GatewayIntent {
  id: string;
  clientSecret: string;
  amountCents: number;
  /** Lower-case ISO code, as Stripe answers it. */
  currency: string;
  /** Our order id, carried in the intent's metadata. */
  orderId: string | undefined;
  status: string;
}

export interface CreateIntentInput {
  orderId: string;
  amountCents: number;
  currency: string;
  /** The same key twice creates one intent, not two. */
  idempotencyKey: string;
}

export interface RefundInput {
  /** The paid intent to refund (the order's transaction id). */
  intentId: string;
  amountCents: number;
  /** Our refund row's id: the same key twice refunds once. */
  idempotencyKey: string;
}

/** A refund as the gateway reports it (Stripe's Refund: `succeeded`, `pending`, `failed`…). */
export interface GatewayRefund {
  id: string;
  status: string;
  amountCents: number;
}

/** What the store needs of a card payment provider. */
export interface PaymentGateway {
  readonly name: GatewayName;
  createIntent(input: CreateIntentInput): Promise<GatewayIntent>;
  /** The intent as the gateway has it now, or undefined when it has no such intent. */
  retrieveIntent(id: string): Promise<GatewayIntent | undefined>;
  /**
   * Cancels an intent that is not paid yet, so that it can no longer be paid (the store
   * cancelled its order). One already paid, already cancelled or unknown is left as it is.
   * Resolves to whether this call cancelled it.
   */
  cancelIntent(id: string): Promise<boolean>;
  /**
   * Gives (part of) a paid intent's money back. Rejects when the gateway refuses (more than is
   * left to refund, an unpaid intent, the gateway away): nothing was refunded then.
   */
  refund(input: RefundInput): Promise<GatewayRefund>;
  /**
   * The payments taken (intents `succeeded`) created since `since`, as the gateway keeps them:
   * the reconciliation job (reconcile-job.ts) applies those whose confirmation never reached us.
   */
  listRecentPayments(since: Date): Promise<GatewayIntent[]>;
}
