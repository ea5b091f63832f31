import { approvalMessages, type ApprovalReason } from "../../contract/approvals";
import type { Order } from "../../contract/orders";
import { paths } from "../../contract/paths";
import { isOnAccount } from "../../contract/terms";
import type { DbOrTx } from "../db/database";
import type { Mailer } from "../mail/mailer";
import { mailTime, orderMailFacts } from "../mail/order-mail";
import {
  approvalPendingMail,
  approvalRequestedMail,
  orderApprovedMail,
  orderDeclinedMail,
} from "../mail/templates";
import { formatCents } from "../money";

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
  return {
    /** The owners are asked (each with the link to decide); the buyer is told it waits. */
    async requested(tx: DbOrTx, order: Order, f: ApprovalRequestFacts) {
      const facts = {
        companyName: f.companyName,
        buyerName: f.buyerName,
        buyerEmail: order.orderEmail,
        reason: approvalMessages.reason(f.reason, formatCents(f.limitCents, order.currency)),
        holdExpiresAt: mailTime(order.holdExpiresAt),
      };
      for (const owner of f.owners) {
        const mail = approvalRequestedMail({
          ...orderMailFacts(order, owner.name, publicUrl),
          ...facts,
          approveUrl: `${publicUrl}${paths.approvals}?order=${encodeURIComponent(order._id)}`,
        });
        await mailer.sendIn(
          tx,
          { to: owner.email, ...mail },
          `order-approval-requested:${order._id}:${owner.id}`,
        );
      }
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
