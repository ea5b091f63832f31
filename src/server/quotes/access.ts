import { and, eq } from "drizzle-orm";
import { sql } from "../db/sql";
import { quoteMessages } from "../../contract/quotes";
import { membershipOf } from "../companies/membership";
import type { Membership } from "../http/request-context";
import type { DbOrTx } from "../db/database";
import { quoteLines, quotes } from "./tables";
import { conflict, forbidden, notFound } from "../errors";
import { quoteNumberText } from "../../contract/quotes";
import { recordWebhookEvent } from "../webhooks/outbox";
import type { PricingMarket } from "../pricing/pricing";

/**
 * Who may see and answer a quote (docs/quotes.md), and the two steps of accepting one that run
 * inside the checkout's transaction (`checkout/workflow.ts` calls them; nothing here calls the
 * checkout).
 */

export type QuoteRow = typeof quotes.$inferSelect;
export type QuoteLineRow = typeof quoteLines.$inferSelect;

/**
 * Whether a customer sees a quote: their company's (any member, viewers included), or their own
 * when it was asked without a company.
 */
export function customerSees(q: QuoteRow, userId: string, m: Membership | null): boolean {
  if (q.companyId) return m?.companyId === q.companyId;
  return q.userId === userId;
}

/** Whether a customer may accept or decline it: who asked, or an owner of its company. */
export function customerDecides(q: QuoteRow, userId: string, m: Membership | null): boolean {
  if (!customerSees(q, userId, m)) return false;
  if (m?.role === "viewer") return false;
  return q.userId === userId || (m?.role === "owner" && m.companyId === q.companyId);
}

/** Whether a customer may write in its thread: any member of its company but viewers. */
export function customerWrites(q: QuoteRow, userId: string, m: Membership | null): boolean {
  return customerSees(q, userId, m) && m?.role !== "viewer";
}

/** Whether a sent quote's time is up (the database's clock decides in SQL; this is for reads). */
export const isPastExpiry = (q: Pick<QuoteRow, "expiresAt">, now = new Date()) =>
  q.expiresAt !== null && q.expiresAt.getTime() <= now.getTime();

/**
 * The market a quote prices in, as it was when requested (docs/quotes.md "In the buyer's
 * market"): its currency, rate and rounding kept on its row, and its consumer's VAT-inclusive
 * prices at the rate they included then (the checkout takes the delivery country's). Undefined:
 * the default market, the store's currency at rate 1 (every quote asked with MARKET_CHOICE off).
 */
export function quoteMarketOf(q: QuoteRow): PricingMarket | undefined {
  if (q.marketCode === null || q.rounding === null || q.currency === null) return undefined;
  return {
    code: q.marketCode,
    currency: q.currency,
    rate: q.exchangeRate,
    rounding: q.rounding,
    pricesIncludeTax: q.pricesIncludeTax,
    ...(q.pricesIncludeTax && { taxRateMillipercent: q.taxRateMillipercent ?? 0 }),
  };
}

/**
 * In the checkout's transaction, after the customer's row is locked: locks the quote's row, checks
 * that this customer may accept it and that it is sent and within its expiry, and gives its lines
 * at the quoted prices. Two acceptances at once: the second waits here and then finds it accepted.
 */
export async function lockQuoteForAcceptance(
  tx: DbOrTx,
  quoteId: string,
  customerId: string,
): Promise<{
  lines: { productId: string; qty: number; unitPriceCents: number }[];
  /** The market it was requested in (undefined: the default market), its prices in its currency. */
  market: PricingMarket | undefined;
  /** Its currency (null: the store's). */
  currency: string | null;
}> {
  const [q] = await tx.select().from(quotes).where(eq(quotes.id, quoteId)).for("update");
  const m = await membershipOf(tx, customerId);
  if (!q || !customerSees(q, customerId, m)) throw notFound(quoteMessages.notFound);
  if (m?.role === "viewer") throw forbidden(quoteMessages.viewerReadOnly);
  if (!customerDecides(q, customerId, m)) throw forbidden(quoteMessages.onlyRequesterOrOwner);
  if (q.status === "accepted") throw conflict(quoteMessages.alreadyAccepted);
  if (q.status === "expired" || (q.status === "sent" && isPastExpiry(q))) {
    throw conflict(quoteMessages.expired);
  }
  if (q.status !== "sent") throw conflict(quoteMessages.notSent(q.status));
  const [past] = (
    await tx.execute<{ past: boolean }>(
      sql`select expires_at <= now() as past from quotes where id = ${quoteId}`,
    )
  ).rows;
  if (past?.past) throw conflict(quoteMessages.expired);
  const lines = await tx
    .select()
    .from(quoteLines)
    .where(eq(quoteLines.quoteId, quoteId))
    .orderBy(quoteLines.position);
  return {
    lines: lines.map((l) => ({
      productId: l.productId,
      qty: l.qty,
      // Every line of a sent quote is priced (the send checks it; the column refuses 0 or less).
      unitPriceCents: l.quotedPriceCents!,
    })),
    market: quoteMarketOf(q),
    currency: q.currency,
  };
}

/** Marks the quote accepted by the order just written (same transaction as the order). */
export async function markQuoteAccepted(tx: DbOrTx, quoteId: string, orderId: string) {
  const [row] = await tx
    .update(quotes)
    .set({ status: "accepted", orderId, decidedAt: sql`now()` })
    .where(and(eq(quotes.id, quoteId), eq(quotes.status, "sent")))
    .returning();
  if (row) {
    await recordWebhookEvent(tx, {
      type: "quote.accepted",
      data: {
        quoteId,
        number: quoteNumberText(row.number),
        customerId: row.userId,
        companyId: row.companyId,
        status: "accepted",
        orderId,
      },
    });
  }
}
