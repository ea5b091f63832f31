import { eq } from "drizzle-orm";
import { sql } from "../db/sql";
import { termsMessages, type PaymentTerms } from "../../contract/terms";
import type { DbOrTx } from "../db/database";
import { companies } from "../companies/tables";
import { closeHoldWindows } from "../inventory/holds";
import {
  productIdsOf,
  recordAccountInvoice,
  settleOnAccount as settleOrderOnAccount,
} from "../orders/state";
import type { orders } from "../orders/tables";
import { unprocessable } from "../errors";
import type { IssuedInvoice } from "../invoices/issue";
import { formatCents } from "../money";
import { convertMinor } from "../pricing/convert";

/**
 * Orders on account (docs/terms.md): a company on net terms is not charged by card; its
 * order is settled at once with an invoice due in N days, while the company's open invoices and
 * this order stay within its credit limit. Called in the order's transaction (checkout, or an
 * owner's approval), so a refusal writes nothing.
 */

/** Issues an invoice on account in the caller's transaction (src/server/invoices/). */
export interface AccountInvoiceIssuer {
  issueOnAccount(tx: DbOrTx, orderId: string, terms: PaymentTerms): Promise<IssuedInvoice>;
}

export interface AccountTerms {
  companyId: string;
  terms: Exclude<PaymentTerms, "card">;
  creditLimitCents: number | null;
}

/**
 * The company's terms when it buys on account, else null (card). Locks the company's row (no key
 * update: members may still join) so two buyers of one company check its credit one at a time.
 */
export async function accountTermsOf(tx: DbOrTx, companyId: string): Promise<AccountTerms | null> {
  const [row] = await tx
    .select({ terms: companies.paymentTerms, creditLimitCents: companies.creditLimitCents })
    .from(companies)
    .where(eq(companies.id, companyId))
    .for("no key update");
  if (!row || row.terms === "card") return null;
  return { companyId, terms: row.terms, creditLimitCents: row.creditLimitCents };
}

/**
 * What the company still owes on its invoices on account: totals less the payments recorded and
 * the credit notes issued on them (returns, cancellations; their totals are negative), each
 * invoice's open amount in the store's currency at its order's rate (docs/pricing.md "Markets and
 * currencies"), as the credit limit is.
 */
export async function openInvoicesCents(tx: DbOrTx, companyId: string): Promise<number> {
  const result = await tx.execute<{ open: string | number | null }>(sql`
    select coalesce(sum(round(greatest(i.total_cents + coalesce(c.credited, 0)
                                       - coalesce(p.paid, 0), 0) / o.exchange_rate)),
                    0) as open
      from invoices i
      join orders o on o.id = i.order_id
      left join (select invoice_id, sum(amount_cents) as paid from invoice_payments
                  where reversed_at is null group by invoice_id) p on p.invoice_id = i.id
      left join (select corrects_id, sum(total_cents) as credited from invoices
                  where kind = 'credit_note' group by corrects_id) c on c.corrects_id = i.id
     where i.company_id = ${companyId} and i.terms <> 'card' and i.kind = 'invoice'`);
  return Number(result.rows[0]?.open ?? 0);
}

/**
 * Refuses (422) an order that would take the company's open invoices over its credit limit. The
 * limit and the open invoices are in the store's currency (`orderCents` brought back to it); the
 * refusal names them in the order's currency at its rate, to the cent, as the buyer reads it.
 */
export async function checkCredit(
  tx: DbOrTx,
  account: AccountTerms,
  orderCents: number,
  /** The order's currency and rate (absent: 1, the store's currency). */
  order: { currency: string; exchangeRate?: number },
): Promise<void> {
  if (account.creditLimitCents === null) return;
  const open = await openInvoicesCents(tx, account.companyId);
  if (open + orderCents > account.creditLimitCents) {
    const money = (cents: number) =>
      formatCents(convertMinor(cents, order.exchangeRate ?? 1, "cent"), order.currency);
    throw unprocessable(
      termsMessages.overCreditLimit(money(account.creditLimitCents), money(open)),
    );
  }
}

/**
 * Settles a just-placed (or just-approved) order on account: it becomes `paid` with
 * `paidWith: "invoice"` (accepted and to be shipped; its stock taken for good, no hold to run
 * out), and its invoice is issued now, due on the company's terms. The caller has checked the
 * credit (`checkCredit`) in the same transaction.
 */
export async function settleOnAccount(
  tx: DbOrTx,
  orderId: string,
  account: AccountTerms,
  invoices: AccountInvoiceIssuer,
): Promise<{
  row: typeof orders.$inferSelect;
  invoice: IssuedInvoice & { terms: PaymentTerms };
}> {
  const settled = await settleOrderOnAccount(tx, orderId);
  // Settled: the buyer's hold windows on these parts close, as a card payment closes them.
  await closeHoldWindows(tx, settled.userId, await productIdsOf(tx, orderId));
  const invoice = await invoices.issueOnAccount(tx, orderId, account.terms);
  const row = await recordAccountInvoice(tx, orderId, invoice);
  return { row, invoice: { ...invoice, terms: account.terms } };
}
