import type { Order } from "../../contract/orders";
import { termsLabels, type PaymentTerms } from "../../contract/terms";
import type { DbOrTx } from "../db/database";
import type { IssuedInvoice } from "../invoices/issue";
import type { Mailer } from "../mail/mailer";
import { orderMailFacts } from "../mail/order-mail";
import { invoiceReminderMail, orderOnAccountMail } from "../mail/templates";

/** The date an invoice is due, as emails and pages say it: "26 Dec 2026" (UTC). */
export const dueDateText = (d: Date) =>
  new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  }).format(d);

export interface ReminderFacts {
  invoiceId: string;
  invoiceNumber: string;
  companyName: string;
  outstanding: string;
  dueAt: Date;
  overdue: boolean;
  owners: { id: string; email: string; name: string }[];
}

/** The emails of net terms, queued in the mail outbox with the transaction that causes them. */
export function createAccountMail(mailer: Pick<Mailer, "sendIn">, publicUrl: string) {
  return {
    /** The buyer: the order is on the company's account; its invoice attached. */
    async placed(
      tx: DbOrTx,
      order: Order,
      name: string,
      invoice: IssuedInvoice & { terms?: PaymentTerms },
    ) {
      const mail = orderOnAccountMail({
        ...orderMailFacts(order, name, publicUrl),
        invoiceNumber: invoice.number,
        dueDate: dueDateText(invoice.dueAt),
        terms: invoice.terms ? termsLabels[invoice.terms] : "on account",
      });
      await mailer.sendIn(
        tx,
        { to: order.orderEmail, ...mail, attach: [{ kind: "invoice-pdf", id: invoice.id }] },
        `order-on-account:${order._id}`,
      );
    },

    /** Each owner of the company: the invoice is due soon, or overdue. */
    async reminder(tx: DbOrTx, f: ReminderFacts) {
      for (const owner of f.owners) {
        const mail = invoiceReminderMail({
          name: owner.name,
          companyName: f.companyName,
          invoiceNumber: f.invoiceNumber,
          outstanding: f.outstanding,
          dueDate: dueDateText(f.dueAt),
          overdue: f.overdue,
          publicUrl,
        });
        await mailer.sendIn(
          tx,
          { to: owner.email, ...mail, attach: [{ kind: "invoice-pdf", id: f.invoiceId }] },
          `invoice-reminder:${f.overdue ? "overdue" : "before_due"}:${f.invoiceId}:${owner.id}`,
        );
      }
    },
  };
}

export type AccountMail = ReturnType<typeof createAccountMail>;
