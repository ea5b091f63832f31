import { hello, layout, type MailContent } from "../mail/layout";
import { paths } from "../../contract/paths";

/**
 * A return's emails (docs/returns.md): requested (a confirmation), approved with the
 * instructions, refused with why, refunded. Each names the return's RMA number.
 */
export interface ReturnMailFacts {
  name: string;
  orderId: string;
  /** The number the customer reads (`PW-100234`). */
  orderNumber: string;
  /** `RMA-10023`. */
  rma: string;
  lines: [string, string][];
  message: string | null;
  /** Where the parts go, line by line (the Contact page's returns address). */
  returnsAddress: string[];
  publicUrl: string;
}

/** The Contact page, as a link in the mails (absolute, like every link they carry). */
const contactLink = (publicUrl: string) => ({
  label: "Our address, phone and opening hours",
  url: `${publicUrl}${paths.contact}`,
});

/** The customer asked: we confirm what they asked for, and what happens next. */
export function returnRequestedMail(o: ReturnMailFacts): MailContent {
  return layout({
    subject: `Your return ${o.rma} for order ${o.orderNumber} is requested`,
    greeting: hello(o.name),
    paragraphs: [
      `We received your request to return these parts from order ${o.orderNumber}. Its number is ${o.rma}.`,
      "Please do not send anything yet: we check your request and email you our answer, with where to send the parts.",
    ],
    table: o.lines,
    links: [contactLink(o.publicUrl)],
    action: { label: "View your order", url: `${o.publicUrl}${paths.order.to(o.orderId)}` },
    publicUrl: o.publicUrl,
  });
}

/** Where parts are sent back, as a sentence ends: the returns address, or where to find it. */
export const toReturnsAddress = (lines: string[]) =>
  lines.length > 0
    ? `to our returns address: ${lines.join(", ")}`
    : "to our returns address (on our contact page)";

export function returnApprovedMail(o: ReturnMailFacts): MailContent {
  const where = toReturnsAddress(o.returnsAddress);
  return layout({
    subject: `Your return ${o.rma} for order ${o.orderNumber} is approved`,
    greeting: hello(o.name),
    paragraphs: [
      `We accepted your return ${o.rma} of these parts from order ${o.orderNumber}.`,
      `How to send them back: pack the parts in their original packaging, write the return number ${o.rma} on the parcel and on a note inside, and send them ${where}. When they arrive we refund them to the way you paid and email you a credit note.`,
      ...(o.message ? [o.message] : []),
    ],
    table: o.lines,
    links: [contactLink(o.publicUrl)],
    action: { label: "View your order", url: `${o.publicUrl}${paths.order.to(o.orderId)}` },
    publicUrl: o.publicUrl,
  });
}

export function returnRefusedMail(o: ReturnMailFacts): MailContent {
  return layout({
    subject: `Your return ${o.rma} for order ${o.orderNumber} was refused`,
    greeting: hello(o.name),
    paragraphs: [
      `We cannot accept your return ${o.rma} of these parts from order ${o.orderNumber}.`,
      `Why: ${o.message ?? ""}`,
    ],
    table: o.lines,
    action: { label: "View your order", url: `${o.publicUrl}${paths.order.to(o.orderId)}` },
    publicUrl: o.publicUrl,
  });
}

/** A received return refunded: its credit note attached. */
export interface ReturnRefundedFacts {
  name: string;
  orderId: string;
  orderNumber: string;
  /** `RMA-10023`, when the caller knows it. */
  rma?: string;
  /** Formatted: `$40.00`. */
  amount: string;
  creditNoteNumber: string;
  /** On the company's account (net terms): credited, not paid back to a card. */
  onAccount: boolean;
  lines: [string, string][];
  publicUrl: string;
}

export function returnRefundedMail(o: ReturnRefundedFacts): MailContent {
  return layout({
    subject: `Your return ${o.rma ? `${o.rma} ` : ""}for order ${o.orderNumber} is refunded`,
    greeting: hello(o.name),
    paragraphs: [
      `The parts you sent back from order ${o.orderNumber}${o.rma ? ` (return ${o.rma})` : ""} arrived.`,
      o.onAccount
        ? `We credited ${o.amount} to your company's account: deduct it from what you owe.`
        : `We refunded ${o.amount} to the card you paid with. Your bank usually shows it within 5 to 10 business days.`,
      `Your credit note ${o.creditNoteNumber} is attached (PDF).`,
    ],
    table: o.lines,
    action: { label: "View your order", url: `${o.publicUrl}${paths.order.to(o.orderId)}` },
    publicUrl: o.publicUrl,
  });
}
