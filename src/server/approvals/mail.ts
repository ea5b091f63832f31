import { approvalMessages, type ApprovalReason } from "../../contract/approvals";
import type { Order } from "../../contract/orders";
import { paths } from "../../contract/paths";
import { isOnAccount } from "../../contract/terms";
import type { DbOrTx } from "../db/database";
import type { Mailer } from "../mail/mailer";
import { mailTime, orderMailFacts } from "../orders/mail";
import { formatCents } from "../money";
import { hello, layout, STORE, type MailContent } from "../mail/layout";
import { type OrderMailFacts, linesTable, viewOrder } from "../orders/mail";

/** Who the approval is asked of, and why. */
export interface ApprovalRequestFacts {
  companyName: string;
  buyerName: string;
  owners: { id: string; email: string; name: string }[];
  reason: ApprovalReason;
  limitCents: number;
}

/**
 * The approval emails, queued in the mail outbox with the transaction that makes the change:
 * each has a key of its own, so it is queued once.
 */
export function createApprovalMail(mailer: Pick<Mailer, "sendIn">, publicUrl: string) {
  /** One email to each owner who may decide, with the link to decide; answers the shared facts. */
  async function toOwners(
    tx: DbOrTx,
    order: Order,
    f: ApprovalRequestFacts,
    kind: "requested" | "reminder",
    write: (o: ApprovalMailFacts & { approveUrl: string }) => MailContent,
  ) {
    const facts = {
      companyName: f.companyName,
      buyerName: f.buyerName,
      buyerEmail: order.orderEmail,
      reason: approvalMessages.reason(f.reason, formatCents(f.limitCents, order.currency)),
      holdExpiresAt: mailTime(order.holdExpiresAt),
    };
    for (const owner of f.owners) {
      const mail = write({
        ...orderMailFacts(order, owner.name, publicUrl),
        ...facts,
        approveUrl: `${publicUrl}${paths.approvals}?order=${encodeURIComponent(order._id)}&number=${encodeURIComponent(order.number)}`,
      });
      await mailer.sendIn(
        tx,
        { to: owner.email, ...mail },
        `order-approval-${kind}:${order._id}:${owner.id}`,
      );
    }
    return facts;
  }

  return {
    /** The owners are asked (each with the link to decide); the buyer is told it waits. */
    async requested(tx: DbOrTx, order: Order, f: ApprovalRequestFacts) {
      const facts = await toOwners(tx, order, f, "requested", approvalRequestedMail);
      const pending = approvalPendingMail({
        ...orderMailFacts(order, f.buyerName, publicUrl),
        ...facts,
      });
      await mailer.sendIn(
        tx,
        { to: order.orderEmail, ...pending },
        `order-approval-pending:${order._id}`,
      );
    },

    async approved(
      tx: DbOrTx,
      order: Order,
      buyerName: string,
      decision: { by: string; note: string | null },
    ) {
      const mail = orderApprovedMail({
        ...orderMailFacts(order, buyerName, publicUrl),
        decidedBy: decision.by,
        note: decision.note,
        holdExpiresAt: mailTime(order.holdExpiresAt),
        onAccount: isOnAccount(order),
      });
      await mailer.sendIn(tx, { to: order.orderEmail, ...mail }, `order-approved:${order._id}`);
    },

    /** Each owner: the approval window ends soon; undecided, the order is cancelled then. */
    async reminder(tx: DbOrTx, order: Order, f: ApprovalRequestFacts) {
      await toOwners(tx, order, f, "reminder", approvalReminderMail);
    },

    async declined(
      tx: DbOrTx,
      order: Order,
      buyerName: string,
      decision: { by: string; note: string | null },
    ) {
      const mail = orderDeclinedMail({
        ...orderMailFacts(order, buyerName, publicUrl),
        url: `${publicUrl}${paths.order.to(order._id)}`,
        decidedBy: decision.by,
        note: decision.note,
      });
      await mailer.sendIn(tx, { to: order.orderEmail, ...mail }, `order-declined:${order._id}`);
    },
  };
}

export type ApprovalMail = ReturnType<typeof createApprovalMail>;

/** Approvals (docs/approvals.md): what the owners, and then the buyer, are told. */
export interface ApprovalMailFacts extends OrderMailFacts {
  companyName: string;
  buyerName: string;
  buyerEmail: string;
  /** "over the per-order limit of $500.00" */
  reason: string;
  holdExpiresAt: string;
}

/** To each owner of the company: an order waits for their decision. */
export function approvalRequestedMail(o: ApprovalMailFacts & { approveUrl: string }): MailContent {
  return layout({
    subject: `Approve or decline order ${o.orderNumber} by ${o.buyerName || o.buyerEmail} for ${o.companyName}`,
    greeting: hello(o.name),
    paragraphs: [
      `${o.buyerName || o.buyerEmail} (${o.buyerEmail}) ordered for ${o.companyName}: order ${o.orderNumber}, ${o.total}, is ${o.reason}, so it waits for an owner's approval.`,
      `We hold its parts until ${o.holdExpiresAt}. If nobody decides by then, the order is cancelled and the parts go back on sale.`,
    ],
    table: linesTable(o),
    action: { label: "Approve or decline", url: o.approveUrl },
    publicUrl: o.publicUrl,
  });
}

/** To each owner, before the approval window ends: decide, or the order is cancelled. */
export function approvalReminderMail(o: ApprovalMailFacts & { approveUrl: string }): MailContent {
  return layout({
    subject: `Reminder: order ${o.orderNumber} by ${o.buyerName || o.buyerEmail} is cancelled at ${o.holdExpiresAt} unless an owner decides`,
    greeting: hello(o.name),
    paragraphs: [
      `Order ${o.orderNumber} of ${o.companyName}, ${o.total} by ${o.buyerName || o.buyerEmail}, is ${o.reason} and still waits for an owner's approval.`,
      `We hold its parts until ${o.holdExpiresAt}. If nobody approves or declines it by then, the order is cancelled, the parts go back on sale and ${o.buyerName || o.buyerEmail} is told.`,
    ],
    table: linesTable(o),
    action: { label: "Approve or decline", url: o.approveUrl },
    publicUrl: o.publicUrl,
  });
}

/** To the buyer, instead of "your order is placed": it waits for an owner. */
export function approvalPendingMail(o: ApprovalMailFacts): MailContent {
  return layout({
    subject: `Your ${STORE} order ${o.orderNumber} is awaiting approval`,
    greeting: hello(o.name),
    paragraphs: [
      `Your order ${o.orderNumber} is ${o.reason}, so we sent it to the owners of ${o.companyName} for approval. We hold its parts until ${o.holdExpiresAt}.`,
      "We email you their answer; once it is approved you can pay for it.",
    ],
    table: linesTable(o),
    action: viewOrder(o),
    publicUrl: o.publicUrl,
  });
}

const noteLines = (note: string | null, by: string) => (note ? [`${by} wrote: “${note}”`] : []);

/** To the buyer: an owner approved the order; it can be paid now. */
export function orderApprovedMail(
  o: OrderMailFacts & {
    decidedBy: string;
    note: string | null;
    holdExpiresAt: string;
    /** Settled on the company's account (net terms) when approved: nothing to pay by card. */
    onAccount?: boolean;
  },
): MailContent {
  return layout({
    subject: `Your ${STORE} order ${o.orderNumber} was approved`,
    greeting: hello(o.name),
    paragraphs: [
      `${o.decidedBy} approved your order ${o.orderNumber}.`,
      ...noteLines(o.note, o.decidedBy),
      o.onAccount
        ? "It is charged to your company's account: its invoice follows in a separate email."
        : `We hold its parts for you until ${o.holdExpiresAt}; please pay before then.`,
    ],
    table: linesTable(o),
    action: o.onAccount ? viewOrder(o) : { label: "Pay for your order", url: o.url },
    publicUrl: o.publicUrl,
  });
}

/** To the buyer: an owner declined the order; it is cancelled. */
export function orderDeclinedMail(
  o: OrderMailFacts & { decidedBy: string; note: string | null },
): MailContent {
  return layout({
    subject: `Your ${STORE} order ${o.orderNumber} was declined`,
    greeting: hello(o.name),
    paragraphs: [
      `${o.decidedBy} declined your order ${o.orderNumber}.`,
      ...noteLines(o.note, o.decidedBy),
      "The order is cancelled and its parts went back on sale. Nothing was charged.",
    ],
    table: linesTable(o),
    action: viewOrder(o),
    publicUrl: o.publicUrl,
  });
}
