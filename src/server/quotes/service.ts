import { and, asc, desc, eq, ilike, inArray, isNull, or, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  quoteMessages,
  type Quote,
  type QuoteDetail,
  type QuoteListQuery,
  type QuoteSendInput,
  quoteNumberIn,
  quoteNumberText,
} from "../../contract/quotes";
import { paths } from "../../contract/paths";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { containsPattern } from "../db/like";
import { cartItems } from "../cart/tables";
import { companies } from "../companies/tables";
import { products } from "../catalog/tables";
import { quoteLines, quoteMessages as quoteMessagesTable, quotes } from "./tables";
import { conflict, forbidden, HttpError, notFound, unprocessable } from "../errors";
import type { Mailer } from "../mail/mailer";
import { mailTime } from "../orders/mail";
import { quoteSentMail } from "./mail";
import { orders } from "../orders/tables";
import { orderNumberText } from "../../contract/orders";
import { centsToUnits, formatCents, unitsToCents } from "../money";
import { priceLines, pricingFor, type PricingMarket } from "../pricing/pricing";
import { percentFromMilli } from "../tax/rules";
import type { Membership } from "../http/request-context";
import {
  customerDecides,
  customerSees,
  customerWrites,
  type QuoteLineRow,
  type QuoteRow,
} from "./access";
import { recordWebhookEvent } from "../webhooks/outbox";
import { pageOf } from "../db/page";

/**
 * Quotes (docs/quotes.md): a request from the cart, an admin's prices and expiry, the buyer's
 * decline, and the message thread. Acceptance is an order, so it is placed by the checkout
 * workflow (`acceptQuote` there), which calls `access.ts` in its transaction. The caller's
 * company (`m`: their membership, or null) comes from the route's company hook (`companyIfAny`).
 */

export interface QuoteCaller {
  id: string;
  email: string;
  name: string;
  role: "admin" | "user";
}

export function createQuoteService(
  db: Db,
  opts: { currency: string; mailer?: Pick<Mailer, "sendIn">; publicUrl: string },
) {
  /** Sent quotes whose expiry passed become `expired` (on every read; no job needed). */
  async function expireDue(tx: DbOrTx, where?: SQL) {
    await tx
      .update(quotes)
      .set({ status: "expired" })
      .where(and(eq(quotes.status, "sent"), sql`${quotes.expiresAt} <= now()`, where));
  }

  async function toQuote(
    tx: DbOrTx,
    rows: QuoteRow[],
    caller: QuoteCaller,
    m: Membership | null,
  ): Promise<Quote[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const companyIds = [...new Set(rows.flatMap((r) => (r.companyId ? [r.companyId] : [])))];
    // One after the other: `tx` may be a transaction's one connection.
    const lines = await tx
      .select()
      .from(quoteLines)
      .where(inArray(quoteLines.quoteId, ids))
      .orderBy(asc(quoteLines.position));
    const names = companyIds.length
      ? await tx
          .select({ id: companies.id, name: companies.name })
          .from(companies)
          .where(inArray(companies.id, companyIds))
      : [];
    const companyName = new Map(names.map((c) => [c.id, c.name]));
    const orderIds = rows.flatMap((r) => (r.orderId ? [r.orderId] : []));
    const numbers = orderIds.length
      ? await tx
          .select({ id: orders.id, number: orders.number })
          .from(orders)
          .where(inArray(orders.id, orderIds))
      : [];
    const orderNumber = new Map(numbers.map((o) => [o.id, orderNumberText(o.number)]));
    const byQuote = new Map<string, QuoteLineRow[]>();
    for (const l of lines) byQuote.set(l.quoteId, [...(byQuote.get(l.quoteId) ?? []), l]);
    const admin = caller.role === "admin";
    return rows.map((r) => {
      const ls = byQuote.get(r.id) ?? [];
      const priced = ls.every((l) => l.quotedPriceCents !== null);
      return {
        id: r.id,
        reference: quoteNumberText(r.number),
        status: r.status,
        requesterName: r.requesterName,
        requesterEmail: r.requesterEmail,
        companyName: r.companyId ? (companyName.get(r.companyId) ?? null) : null,
        note: r.note,
        lines: ls.map((l) => ({
          productId: l.productId,
          productName: l.productName,
          partNumber: l.partNumber,
          qty: l.qty,
          seenPrice: centsToUnits(l.seenPriceCents),
          quotedPrice: l.quotedPriceCents === null ? null : centsToUnits(l.quotedPriceCents),
          lineTotal: l.quotedPriceCents === null ? null : centsToUnits(l.quotedPriceCents * l.qty),
        })),
        total:
          priced && ls.length
            ? centsToUnits(ls.reduce((s, l) => s + l.quotedPriceCents! * l.qty, 0))
            : null,
        currency: r.currency ?? opts.currency,
        // A consumer's quote in a market that shows VAT: its prices are gross (docs/tax.md).
        ...(r.pricesIncludeTax && {
          pricesIncludeTax: true,
          taxRate: percentFromMilli(r.taxRateMillipercent ?? 0),
        }),
        orderNumber: r.orderId ? (orderNumber.get(r.orderId) ?? null) : null,
        createdAt: r.createdAt.toISOString(),
        sentAt: r.sentAt?.toISOString() ?? null,
        expiresAt: r.expiresAt?.toISOString() ?? null,
        orderId: r.orderId,
        canDecide: !admin && r.status === "sent" && customerDecides(r, caller.id, m),
        canWrite: admin || customerWrites(r, caller.id, m),
      };
    });
  }

  /** The quote as this caller may see it (404 for another company's or another customer's). */
  async function visible(
    tx: DbOrTx,
    caller: QuoteCaller,
    m: Membership | null,
    id: string,
    lock = false,
  ) {
    const q = tx.select().from(quotes).where(eq(quotes.id, id));
    const [row] = lock ? await q.for("update") : await q;
    if (!row || (caller.role !== "admin" && !customerSees(row, caller.id, m))) {
      throw notFound(quoteMessages.notFound);
    }
    return row;
  }

  async function detail(
    tx: DbOrTx,
    caller: QuoteCaller,
    m: Membership | null,
    id: string,
  ): Promise<QuoteDetail> {
    const row = await visible(tx, caller, m, id);
    const [quote] = await toQuote(tx, [row], caller, m);
    const messages = await tx
      .select()
      .from(quoteMessagesTable)
      .where(eq(quoteMessagesTable.quoteId, id))
      .orderBy(asc(quoteMessagesTable.at), asc(quoteMessagesTable.id));
    return {
      ...quote!,
      messages: messages.map((x) => ({
        id: x.id,
        side: x.side,
        authorName: x.authorName,
        body: x.body,
        at: x.at.toISOString(),
      })),
    };
  }

  return {
    /**
     * The customer's cart becomes a request for quote (the cart stays as it is). Each line keeps
     * the price the customer would pay now (their company's prices included), for reference. In
     * `market` (the request's, docs/quotes.md "In the buyer's market"): the quote keeps its
     * currency, rate and rounding, and its prices are in that currency; absent: the store's.
     */
    async request(
      caller: QuoteCaller,
      m: Membership | null,
      note: string,
      market?: PricingMarket,
    ): Promise<Quote> {
      return db.transaction(async (tx) => {
        if (m?.role === "viewer") throw forbidden(quoteMessages.viewerCannotRequest);
        const cart = await tx
          .select({
            productId: cartItems.productId,
            qty: cartItems.qty,
            name: products.name,
            partNumber: products.partNumber,
            listPriceCents: products.priceCents,
            publicBreaks: products.breaks,
          })
          .from(cartItems)
          .innerJoin(products, eq(products.id, cartItems.productId))
          .where(eq(cartItems.userId, caller.id))
          .orderBy(asc(cartItems.addedAt), asc(cartItems.productId));
        if (cart.length === 0) throw unprocessable(quoteMessages.emptyCart);
        const pricing = await pricingFor(
          tx,
          caller.id,
          opts.currency,
          cart.map((l) => l.productId),
          market,
        );
        const priced = priceLines(pricing, cart);
        const [row] = await tx
          .insert(quotes)
          .values({
            userId: caller.id,
            requesterEmail: caller.email,
            requesterName: caller.name,
            companyId: m?.companyId ?? null,
            note,
            currency: pricing.currency,
            exchangeRate: pricing.market?.rate ?? 1,
            marketCode: pricing.market?.code ?? null,
            rounding: pricing.market?.rounding ?? null,
            pricesIncludeTax: !!pricing.taxIncluded,
            taxRateMillipercent: pricing.taxIncluded?.rateMillipercent ?? null,
          })
          .returning();
        await tx.insert(quoteLines).values(
          cart.map((l, i) => ({
            quoteId: row!.id,
            productId: l.productId,
            productName: l.name,
            partNumber: l.partNumber,
            qty: l.qty,
            seenPriceCents: priced[i]!.unitPriceCents,
            position: i,
          })),
        );
        return (await toQuote(tx, [row!], caller, m))[0]!;
      });
    },

    /**
     * Quotes, newest first, paged: a customer's company's (or their own, without a company);
     * every quote for admins. `q` searches the number ("Q-10001"; or an id's start, as quotes
     * were referred to before numbers), the requester and the company.
     */
    async list(caller: QuoteCaller, m: Membership | null, query: QuoteListQuery) {
      await expireDue(db);
      const filters: (SQL | undefined)[] = [];
      if (caller.role !== "admin") {
        filters.push(
          m
            ? eq(quotes.companyId, m.companyId)
            : and(eq(quotes.userId, caller.id), isNull(quotes.companyId)),
        );
      }
      if (query.status) filters.push(eq(quotes.status, query.status));
      if (query.q) {
        const like = containsPattern(query.q);
        const number = quoteNumberIn(query.q);
        filters.push(
          or(
            number === null ? undefined : eq(quotes.number, number),
            ilike(sql`${quotes.id}::text`, `${query.q.toLowerCase().replace(/[\\%_]/g, "")}%`),
            ilike(quotes.requesterEmail, like),
            ilike(quotes.requesterName, like),
            sql`exists (select 1 from ${companies} where ${companies.id} = ${quotes.companyId}
                          and lower(${companies.name}) like ${like})`,
          ),
        );
      }
      const where = and(...filters);
      const { rows, total } = await pageOf(
        db,
        db.select().from(quotes).where(where).orderBy(desc(quotes.createdAt), desc(quotes.id)),
        quotes,
        where,
        query,
      );
      return { items: await toQuote(db, rows, caller, m), total };
    },

    async get(caller: QuoteCaller, m: Membership | null, id: string): Promise<QuoteDetail> {
      await expireDue(db, eq(quotes.id, id));
      return detail(db, caller, m, id);
    },

    /** Makes a sent quote past its expiry `expired` before an acceptance is tried. */
    expire: (id: string) => expireDue(db, eq(quotes.id, id)),

    /**
     * An admin prices every line (more than 0) and sets the expiry (in the future); the quote is
     * sent: the requester is emailed, the audit log records it, all in one transaction.
     */
    async send(admin: QuoteCaller & AuditActor, id: string, input: QuoteSendInput) {
      const expiresAt = new Date(input.expiresAt);
      return db.transaction(async (tx) => {
        const row = await visible(tx, admin, null, id, true);
        if (row.status !== "requested") throw conflict(quoteMessages.notRequested(row.status));
        const [{ future } = { future: false }] = (
          await tx.execute<{ future: boolean }>(
            sql`select ${expiresAt.toISOString()}::timestamptz > now() as future`,
          )
        ).rows;
        if (!future) {
          throw new HttpError(400, "bad_request", quoteMessages.expiryInPast, {
            expiresAt: quoteMessages.expiryInPast,
          });
        }
        const lines = await tx
          .select()
          .from(quoteLines)
          .where(eq(quoteLines.quoteId, id))
          .orderBy(asc(quoteLines.position));
        const given = new Map(input.lines.map((l) => [l.productId, unitsToCents(l.unitPrice)]));
        for (const l of input.lines) {
          if (!lines.some((x) => x.productId === l.productId)) {
            throw new HttpError(400, "bad_request", quoteMessages.unknownLine, {
              [l.productId]: quoteMessages.unknownLine,
            });
          }
        }
        const missing = lines.filter((l) => !((given.get(l.productId) ?? 0) > 0));
        if (missing.length > 0) {
          throw new HttpError(
            400,
            "bad_request",
            quoteMessages.priceRequired,
            Object.fromEntries(missing.map((l) => [l.productId, quoteMessages.priceRequired])),
          );
        }
        for (const l of lines) {
          await tx
            .update(quoteLines)
            .set({ quotedPriceCents: given.get(l.productId)! })
            .where(and(eq(quoteLines.quoteId, id), eq(quoteLines.productId, l.productId)));
        }
        const [sent] = await tx
          .update(quotes)
          .set({ status: "sent", expiresAt, sentAt: sql`now()` })
          .where(eq(quotes.id, id))
          .returning();
        const totalCents = lines.reduce((s, l) => s + given.get(l.productId)! * l.qty, 0);
        // In the quote's own currency (the market it was requested in).
        const currency = row.currency ?? opts.currency;
        const money = (c: number) => formatCents(c, currency);
        const reference = quoteNumberText(sent!.number);
        await recordWebhookEvent(tx, {
          type: "quote.sent",
          data: {
            quoteId: id,
            number: reference,
            customerId: sent!.userId,
            companyId: sent!.companyId,
            status: "sent",
            total: centsToUnits(totalCents),
            currency,
            expiresAt: expiresAt.toISOString(),
          },
        });
        await recordAdminAction(tx, {
          actor: admin,
          action: "quote.send",
          target: { type: "quote", id },
          summary: `Sent quote ${reference} to ${row.requesterEmail}: ${lines.length} line(s), ${money(totalCents)}, expires ${expiresAt.toISOString()}`,
        });
        if (opts.mailer) {
          const mail = quoteSentMail({
            name: row.requesterName,
            reference,
            lines: lines.map((l) => [
              `${l.qty} × ${l.productName}${l.partNumber ? ` (${l.partNumber})` : ""} at ${money(given.get(l.productId)!)}`,
              money(given.get(l.productId)! * l.qty),
            ]),
            total: money(totalCents),
            expiresAt: mailTime(expiresAt.toISOString()),
            url: `${opts.publicUrl}${paths.quote.to(id)}`,
            publicUrl: opts.publicUrl,
          });
          await opts.mailer.sendIn(tx, { to: row.requesterEmail, ...mail }, `quote-sent:${id}`);
        }
        return (await toQuote(tx, [sent!], admin, null))[0]!;
      });
    },

    /** The requester (or an owner of their company) declines a sent quote. */
    async decline(caller: QuoteCaller, m: Membership | null, id: string): Promise<Quote> {
      await expireDue(db, eq(quotes.id, id));
      return db.transaction(async (tx) => {
        const row = await visible(tx, caller, m, id, true);
        if (m?.role === "viewer") throw forbidden(quoteMessages.viewerReadOnly);
        if (!customerDecides(row, caller.id, m)) {
          throw forbidden(quoteMessages.onlyRequesterOrOwner);
        }
        if (row.status === "accepted") throw conflict(quoteMessages.alreadyAccepted);
        if (row.status === "expired") throw conflict(quoteMessages.expired);
        if (row.status !== "sent") throw conflict(quoteMessages.notSent(row.status));
        const [declined] = await tx
          .update(quotes)
          .set({ status: "declined", decidedAt: sql`now()` })
          .where(eq(quotes.id, id))
          .returning();
        return (await toQuote(tx, [declined!], caller, m))[0]!;
      });
    },

    /** A message in the thread: the customer's side (not viewers), or the store's (admins, audited). */
    async postMessage(
      caller: QuoteCaller,
      m: Membership | null,
      id: string,
      body: string,
    ): Promise<QuoteDetail> {
      return db.transaction(async (tx) => {
        const row = await visible(tx, caller, m, id);
        const admin = caller.role === "admin";
        if (!admin && !customerWrites(row, caller.id, m)) {
          throw forbidden(quoteMessages.viewerReadOnly);
        }
        await tx.insert(quoteMessagesTable).values({
          quoteId: id,
          authorId: caller.id,
          authorName: admin ? "PartsWorks" : caller.name || caller.email,
          side: admin ? "store" : "customer",
          body,
        });
        if (admin) {
          await recordAdminAction(tx, {
            actor: caller,
            action: "quote.message",
            target: { type: "quote", id },
            summary: `Wrote on quote ${quoteNumberText(row.number)} to ${row.requesterEmail}: ${body.slice(0, 200)}`,
          });
        }
        return detail(tx, caller, m, id);
      });
    },
  };
}

export type QuoteService = ReturnType<typeof createQuoteService>;
