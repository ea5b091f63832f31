import { hello, layout, type MailContent } from "../mail/layout";
import { paths } from "../../contract/paths";
import { toReturnsAddress } from "../returns/mail";

/**
 * A warranty claim's emails to the claimant (docs/warranty.md): filed (a confirmation), a
 * question from the manufacturer, the inspection's findings, rejected with why. Each names the claim's number.
 */
export interface ClaimMailFacts {
  name: string;
  /** `WC-10023`. */
  number: string;
  orderId: string;
  orderNumber: string;
  /** "2 × Ceramic brake pads (PW-BK-3001)". */
  part: string;
  /** The store's question or reason (null for the confirmation). */
  message: string | null;
  publicUrl: string;
}

/** A claim's email to the claimant, with the link to the claim on its order. */
const claimMail = (o: ClaimMailFacts, subject: string, paragraphs: string[]): MailContent =>
  layout({
    subject,
    greeting: hello(o.name),
    paragraphs,
    action: {
      label: "View the claim on your order",
      url: `${o.publicUrl}${paths.order.to(o.orderId)}`,
    },
    publicUrl: o.publicUrl,
  });

export function claimFiledMail(o: ClaimMailFacts): MailContent {
  return claimMail(o, `Your warranty claim ${o.number} is received`, [
    `We received your warranty claim ${o.number} for ${o.part} from order ${o.orderNumber}.`,
    "Please keep the part: we check your claim and email you when we have a question or a decision, and if we need the part back we tell you where to send it.",
  ]);
}

export function claimQuestionMail(o: ClaimMailFacts): MailContent {
  return claimMail(o, `We need more information about warranty claim ${o.number}`, [
    `To decide your warranty claim ${o.number} for ${o.part}, we need more information:`,
    o.message ?? "",
    "Please answer on the claim, on your order's page.",
  ]);
}

export function claimInspectedMail(o: ClaimMailFacts): MailContent {
  return claimMail(o, `We inspected the part of warranty claim ${o.number}`, [
    `We inspected ${o.part} of your warranty claim ${o.number}. What we found:`,
    o.message ?? "",
    "We email you our decision next.",
  ]);
}

export function claimRejectedMail(o: ClaimMailFacts): MailContent {
  return claimMail(o, `Your warranty claim ${o.number} was rejected`, [
    `We cannot accept your warranty claim ${o.number} for ${o.part} from order ${o.orderNumber}.`,
    `Why: ${o.message ?? ""}`,
  ]);
}

/** The part asked back: its RMA, where to send it, and the store's instructions. */
export function claimPartRequestedMail(
  o: ClaimMailFacts & { rma: string; returnsAddress: string[] },
): MailContent {
  const where = toReturnsAddress(o.returnsAddress);
  return claimMail(o, `Please send us the part of warranty claim ${o.number} (${o.rma})`, [
    `To decide your warranty claim ${o.number}, we need to inspect ${o.part}.`,
    `Pack the failed part, write the return number ${o.rma} on the parcel and on a note inside, and send it ${where}.`,
    ...(o.message ? [o.message] : []),
    "We email you when it arrives.",
  ]);
}

export function claimPartReceivedMail(o: ClaimMailFacts & { rma: string }): MailContent {
  return claimMail(o, `We received the part of warranty claim ${o.number}`, [
    `Your return ${o.rma} of ${o.part} for warranty claim ${o.number} arrived.`,
    "We inspect it and email you our decision.",
  ]);
}

/** Approved: the replacement order (no charge, shipped with tracking), or the refund under way. */
export function claimApprovedMail(
  o: ClaimMailFacts & { replacementOrder: string | null },
): MailContent {
  return claimMail(o, `Your warranty claim ${o.number} is approved`, [
    `We accepted your warranty claim ${o.number} for ${o.part} from order ${o.orderNumber}.`,
    o.replacementOrder
      ? `We send you a replacement at no charge: order ${o.replacementOrder}. We email you its tracking number when it ships.`
      : "We refund the part you sent back, as a return is refunded: its own email, with the credit note, follows.",
    ...(o.message ? [o.message] : []),
  ]);
}
