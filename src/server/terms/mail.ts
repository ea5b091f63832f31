import type { Order } from "../../contract/orders";
import { termsLabels, type PaymentTerms } from "../../contract/terms";
import { dueDateWords } from "../../contract/payment-words";
import type { DbOrTx } from "../db/database";
import type { IssuedInvoice } from "../invoices/issue";
import type { Mailer } from "../mail/mailer";
import { orderMailFacts } from "../orders/mail";
import { hello, layout, STORE, type MailContent } from "../mail/layout";
import { type OrderMailFacts, linesTable, viewOrder } from "../orders/mail";

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
export function createTermsMail(mailer: Pick<Mailer, "sendIn">, publicUrl: string) {
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
        dueDate: dueDateWords(invoice.dueAt),
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
          dueDate: dueDateWords(f.dueAt),
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

export type TermsMail = ReturnType<typeof createTermsMail>;

/** An order placed on a company's account (net terms): no card, an invoice due on the terms. */
export function orderOnAccountMail(
  o: OrderMailFacts & { invoiceNumber: string; dueDate: string; terms: string },
): MailContent {
  return layout({
    subject: `Your ${STORE} order ${o.orderNumber} is placed on your company's account`,
    greeting: hello(o.name),
    paragraphs: [
      `Thank you for your order ${o.orderNumber}. It is charged to your company's account: invoice ${o.invoiceNumber} (${o.terms}) is attached (PDF) and due by ${o.dueDate}.`,
      "Pay it by bank transfer, quoting the invoice number. We will email you again when the order ships.",
    ],
    table: linesTable(o),
    action: viewOrder(o),
    publicUrl: o.publicUrl,
  });
}

/** A reminder of an invoice on account: before its due date, or once it is overdue. */
export function invoiceReminderMail(o: {
  name: string;
  companyName: string;
  invoiceNumber: string;
  outstanding: string;
  dueDate: string;
  overdue: boolean;
  publicUrl: string;
}): MailContent {
  return layout({
    subject: o.overdue
      ? `Invoice ${o.invoiceNumber} is overdue`
      : `Invoice ${o.invoiceNumber} is due on ${o.dueDate}`,
    greeting: hello(o.name),
    paragraphs: [
      o.overdue
        ? `Invoice ${o.invoiceNumber} of ${o.companyName} was due on ${o.dueDate} and ${o.outstanding} of it is still unpaid. Please pay it by bank transfer, quoting the invoice number, or tell us if you have paid it already.`
        : `A reminder that invoice ${o.invoiceNumber} of ${o.companyName} is due on ${o.dueDate}: ${o.outstanding} is still to pay. Please pay it by bank transfer, quoting the invoice number.`,
    ],
    publicUrl: o.publicUrl,
  });
}
