import { hello, layout, type MailContent } from "../mail/layout";
import { paths } from "../../contract/paths";

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

const viewOrder = (o: ClaimMailFacts) => ({
  label: "View the claim on your order",
  url: `${o.publicUrl}${paths.order.to(o.orderId)}`,
});

export function claimFiledMail(o: ClaimMailFacts): MailContent {
  return layout({
    subject: `Your warranty claim ${o.number} is received`,
    greeting: hello(o.name),
    paragraphs: [
      `We received your warranty claim ${o.number} for ${o.part} from order ${o.orderNumber}.`,
      "Please keep the part: we check your claim and email you when we have a question or a decision, and if we need the part back we tell you where to send it.",
    ],
    action: viewOrder(o),
    publicUrl: o.publicUrl,
  });
}

export function claimQuestionMail(o: ClaimMailFacts): MailContent {
  return layout({
    subject: `We need more information about warranty claim ${o.number}`,
    greeting: hello(o.name),
    paragraphs: [
      `To decide your warranty claim ${o.number} for ${o.part}, we need more information:`,
      o.message ?? "",
      "Please answer on the claim, on your order's page.",
    ],
    action: viewOrder(o),
    publicUrl: o.publicUrl,
  });
}

export function claimInspectedMail(o: ClaimMailFacts): MailContent {
  return layout({
    subject: `We inspected the part of warranty claim ${o.number}`,
    greeting: hello(o.name),
    paragraphs: [
      `We inspected ${o.part} of your warranty claim ${o.number}. What we found:`,
      o.message ?? "",
      "We email you our decision next.",
    ],
    action: viewOrder(o),
    publicUrl: o.publicUrl,
  });
}

export function claimRejectedMail(o: ClaimMailFacts): MailContent {
  return layout({
    subject: `Your warranty claim ${o.number} was rejected`,
    greeting: hello(o.name),
    paragraphs: [
      `We cannot accept your warranty claim ${o.number} for ${o.part} from order ${o.orderNumber}.`,
      `Why: ${o.message ?? ""}`,
    ],
    action: viewOrder(o),
    publicUrl: o.publicUrl,
  });
}
