import type { InvoiceSummary } from "#contract/invoices";
import { chargedToAccount } from "#contract/terms";
import { apiGet } from "./api-client";
import { dueDateWords } from "#contract/payment-words";
import { orderPath } from "./order-reads";

/**
 * What to tell a buyer whose order was just placed on their company's account (net terms):
 * "Charged to your company's account: invoice INV-… due <date>". An order placed on account is
 * paid (settled) at placement; any other order answers null without asking.
 */
export async function accountChargeMessage(order: {
  _id: string;
  status: string;
}): Promise<string | null> {
  if (order.status !== "paid") return null;
  try {
    const invoice = await apiGet<InvoiceSummary>(orderPath(order._id, "invoice"));
    return invoice.terms === "card"
      ? null
      : chargedToAccount(invoice.number, dueDateWords(invoice.dueAt));
  } catch {
    return null;
  }
}
