import { paths } from "../../contract/paths";
import { deadlineDayWords } from "../../contract/warranty-deadlines";
import { hello, layout, type MailContent } from "../mail/layout";
import type { ClaimMailFacts } from "./mail";

/**
 * The deadlines' reminders (docs/warranty.md "Deadlines and reminders"): to the claimant, when
 * the claim waits for their answer or the part; to the store's admins, the claims waiting for
 * the store.
 */

/** What the claimant is waiting to do, and by when. */
export interface ClaimantReminderFacts extends ClaimMailFacts {
  /** `2026-12-14`. */
  dueOn: string;
  overdue: boolean;
  /** Send the part back (`part_requested`), else answer the store's question. */
  partBack: boolean;
}

export function claimantReminderMail(o: ClaimantReminderFacts): MailContent {
  const by = deadlineDayWords(o.dueOn);
  const move = o.partBack ? "the part you send back" : "your answer";
  return layout({
    subject: `Warranty claim ${o.number}: we are waiting for ${move}`,
    greeting: hello(o.name),
    paragraphs: [
      o.overdue
        ? `Warranty claim ${o.number}: we are waiting for ${move}; it was due by ${by}. Please ${o.partBack ? "send it" : "reply"} as soon as you can.`
        : `Warranty claim ${o.number}: we are waiting for ${move}; please ${o.partBack ? "send it" : "reply"} by ${by}.`,
      o.partBack
        ? `The claim is for ${o.part} from order ${o.orderNumber}: its return number and our address are in our email asking for the part, and on the claim.`
        : `The claim is for ${o.part} from order ${o.orderNumber}: our question is on the claim, on your order's page.`,
    ],
    action: {
      label: "View the claim on your order",
      url: `${o.publicUrl}${paths.order.to(o.orderId)}`,
    },
    publicUrl: o.publicUrl,
  });
}

/** One claim waiting for the store, in the admins' reminder. */
export interface StoreReminderLine {
  /** `WC-10023`. */
  number: string;
  /** "2 × Ceramic brake pads (PW-BK-3001)". */
  part: string;
  /** Its status in words ("Part received"). */
  status: string;
  dueOn: string;
  overdue: boolean;
}

export function storeReminderMail(o: {
  name: string;
  claims: StoreReminderLine[];
  publicUrl: string;
}): MailContent {
  const n = o.claims.length;
  return layout({
    subject:
      n === 1
        ? `Warranty claim ${o.claims[0]!.number} waits for the store: decision due by ${deadlineDayWords(o.claims[0]!.dueOn)}`
        : `${n} warranty claims wait for the store`,
    greeting: hello(o.name),
    paragraphs: [
      n === 1
        ? "This warranty claim waits for the store's move (a question, the inspection or the decision):"
        : "These warranty claims wait for the store's move (a question, the inspection or the decision):",
      ...o.claims.map(
        (c) =>
          `${c.number}: ${c.part}, ${c.status}; ${c.overdue ? "overdue, was due by" : "due by"} ${deadlineDayWords(c.dueOn)}`,
      ),
    ],
    action: { label: "Open the warranty claims", url: `${o.publicUrl}${paths.warranty}` },
    publicUrl: o.publicUrl,
  });
}
