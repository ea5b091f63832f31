import { hello, layout, type MailContent } from "../mail/layout";
import { paths } from "../../contract/paths";

/**
 * A payment the store could not apply (docs/returns.md), given back through the gateway:
 * "Your payment of $X was refunded".
 */
export interface PaymentRefundedFacts {
  name: string;
  /** The order it was paid for, when there was one, and its number (`PW-100234`). */
  orderId: string | null;
  orderNumber: string | null;
  /** Formatted: `$12.34`. */
  amount: string;
  /** Why the store could not keep it, in the store's words. */
  reason: string;
  publicUrl: string;
}

export function paymentRefundedMail(o: PaymentRefundedFacts): MailContent {
  const order = o.orderNumber ? ` for order ${o.orderNumber}` : "";
  return layout({
    subject: `Your payment of ${o.amount} was refunded`,
    greeting: hello(o.name),
    paragraphs: [
      `We could not use your payment of ${o.amount}${order} (${o.reason}), so we refunded it in full to the card you paid with.`,
      "Your bank usually shows the refund within 5 to 10 business days. You do not need to do anything.",
    ],
    ...(o.orderId
      ? { action: { label: "View your order", url: `${o.publicUrl}${paths.order.to(o.orderId)}` } }
      : {}),
    publicUrl: o.publicUrl,
  });
}
