import { and, count, desc, eq, inArray, ne } from "drizzle-orm";
import { sql } from "../db/sql";
import { ON_ACCOUNT } from "../../contract/terms";
import {
  creditNotePdfPath,
  returnMessages,
  returnReasonLabels,
  type CreditNote,
  type FitmentReport,
  type Return,
  type ReturnDecision,
  type Returnable,
  type ReturnRequestInput,
  type ReturnsQuery,
} from "../../contract/returns";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { SellerDetails } from "../config";
import type { Db, DbOrTx } from "../db/database";
import { invoices, orderItems, orders, refunds, returnLines, returnRequests } from "../db/schema";
import { conflict, HttpError, notFound, unprocessable } from "../errors";
import type { Inventory } from "../inventory/service";
import { issueCreditNote } from "../invoices/credit-note";
import { renderStored } from "../invoices/service";
import type { Mailer } from "../mail/mailer";
import { returnApprovedMail, returnRefundedMail, returnRefusedMail } from "../mail/templates";
import { centsToUnits, formatCents } from "../money";
import type { PaymentGateway } from "../payments/gateway";
import { shippedByLine } from "../shipments/service";
import { photosOfReturns } from "./photos";

type ReturnRow = typeof returnRequests.$inferSelect;
type OrderRow = typeof orders.$inferSelect;
type ItemRow = typeof orderItems.$inferSelect;
type RefundRow = typeof refunds.$inferSelect;

export interface Viewer {
  id: string;
  role: string;
}

interface Logger {
  error(obj: object, msg: string): void;
}

export interface ReturnOptions {
  windowDays: number;
  /** Days after shipping a core return may be asked (docs/core-charges.md); default 90. */
  coreWindowDays?: number;
  seller: SellerDetails;
  mailer?: Pick<Mailer, "sendIn">;
  publicUrl: string;
  log: Logger;
  now?: () => Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The tax of `qty` of a line's units: its tax shared by units, rounded so all of them add up to it. */
const taxOfUnits = (item: ItemRow, qty: number) => Math.round((item.taxCents * qty) / item.qty);

/** The returns still counting against a line's quantity: every return not refused. */
const activeReturn = ne(returnRequests.status, "refused");

/**
 * A core return (reason `core`, docs/core-charges.md) sends back the old part for the deposit:
 * it counts against the line's cores (one per unit bought), never against its parts.
 */
const isCore = eq(returnRequests.reason, "core");
const isPart = ne(returnRequests.reason, "core");

export function createReturnService(
  db: Db,
  inventory: Inventory,
  gateway: PaymentGateway,
  opts: ReturnOptions,
) {
  const now = () => opts.now?.() ?? new Date();
  const coreWindowDays = opts.coreWindowDays ?? 90;

  /**
   * Units of each line already in a return (not refused): parts returns, or with `core` the
   * cores sent back for their deposit.
   */
  async function alreadyReturned(
    tx: DbOrTx,
    orderId: string,
    core = false,
  ): Promise<Map<number, number>> {
    const rows = await tx
      .select({ line: returnLines.line, qty: sql<number>`sum(${returnLines.qty})::int` })
      .from(returnLines)
      .innerJoin(returnRequests, eq(returnRequests.id, returnLines.returnId))
      .where(and(eq(returnRequests.orderId, orderId), activeReturn, core ? isCore : isPart))
      .groupBy(returnLines.line);
    return new Map(rows.map((r) => [r.line, r.qty]));
  }

  /**
   * What of each line may be returned: its shipped units (docs/partial-shipment.md), while the
   * window counted from the line's last shipment is open (the core return window for cores,
   * docs/core-charges.md). The order is eligible while any line is.
   */
  async function windowOf(
    tx: DbOrTx,
    order: OrderRow,
    core = false,
  ): Promise<{
    open: boolean;
    until: Date | null;
    why: string | null;
    days: number;
    lines: Map<number, { shipped: number; open: boolean }>;
  }> {
    const days = core ? coreWindowDays : opts.windowDays;
    const shipped =
      order.status === "paid" || order.status === "shipped"
        ? await shippedByLine(tx, order.id)
        : new Map<number, { qty: number; lastAt: Date }>();
    if (shipped.size === 0) {
      return { open: false, until: null, why: returnMessages.notShipped, days, lines: new Map() };
    }
    const lines = new Map<number, { shipped: number; open: boolean }>();
    let until: Date | null = null;
    for (const [line, s] of shipped) {
      const lineUntil = new Date(s.lastAt.getTime() + days * DAY_MS);
      if (!until || lineUntil > until) until = lineUntil;
      lines.set(line, { shipped: s.qty, open: now() <= lineUntil });
    }
    const open = [...lines.values()].some((l) => l.open);
    const closed = core ? returnMessages.coreWindowClosed(days) : returnMessages.windowClosed(days);
    return { open, until, why: open ? null : closed, days, lines };
  }

  async function ownOrder(tx: DbOrTx, orderId: string, viewer: Viewer, lock = false) {
    const q = tx.select().from(orders).where(eq(orders.id, orderId));
    const [order] = lock ? await q.for("update") : await q;
    if (!order || (order.userId !== viewer.id && viewer.role !== "admin")) {
      throw notFound("Order not found");
    }
    return order;
  }

  async function toReturns(tx: DbOrTx, rows: ReturnRow[]): Promise<Return[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const orderIds = [...new Set(rows.map((r) => r.orderId))];
    // One after the other: `tx` may be a transaction's one connection.
    const lines = await tx.select().from(returnLines).where(inArray(returnLines.returnId, ids));
    const items = await tx.select().from(orderItems).where(inArray(orderItems.orderId, orderIds));
    const orderRows = await tx
      .select({ id: orders.id, email: orders.orderEmail, currency: orders.currency })
      .from(orders)
      .where(inArray(orders.id, orderIds));
    const refundRows = await tx
      .select({ refund: refunds, number: invoices.number })
      .from(refunds)
      .leftJoin(invoices, eq(invoices.id, refunds.creditNoteId))
      .where(inArray(refunds.returnId, ids));
    const photos = await photosOfReturns(tx, ids);
    const orderOf = new Map(orderRows.map((o) => [o.id, o]));
    return rows.map((r) => {
      const own = lines.filter((l) => l.returnId === r.id).sort((a, b) => a.line - b.line);
      const refund = refundRows.find((f) => f.refund.returnId === r.id);
      const order = orderOf.get(r.orderId)!;
      return {
        id: r.id,
        orderId: r.orderId,
        orderEmail: order.email,
        status: r.status,
        reason: r.reason,
        vehicle: r.vehicle,
        note: r.note,
        adminMessage: r.adminMessage,
        lines: own.map((l) => {
          const item = items.find((i) => i.orderId === r.orderId && i.line === l.line);
          return {
            line: l.line,
            productId: item?.productId ?? null,
            productName: item?.productName ?? `Line ${l.line}`,
            partNumber: item?.partNumber ?? null,
            qty: l.qty,
            net: centsToUnits(l.netCents),
            tax: centsToUnits(l.taxCents),
          };
        }),
        amount: centsToUnits(own.reduce((s, l) => s + l.netCents + l.taxCents, 0)),
        currency: order.currency,
        requestedAt: r.requestedAt.toISOString(),
        decidedAt: r.decidedAt?.toISOString() ?? null,
        receivedAt: r.receivedAt?.toISOString() ?? null,
        refundError: refund?.refund.status === "failed" ? refund.refund.error : null,
        creditNote:
          refund?.refund.creditNoteId && refund.number
            ? {
                id: refund.refund.creditNoteId,
                number: refund.number,
                pdfUrl: creditNotePdfPath(refund.refund.creditNoteId),
              }
            : null,
        photos: photos.get(r.id) ?? [],
      };
    });
  }

  async function loadReturn(tx: DbOrTx, id: string, lock = false): Promise<ReturnRow> {
    const q = tx.select().from(returnRequests).where(eq(returnRequests.id, id));
    const [row] = lock ? await q.for("update") : await q;
    if (!row) throw notFound("Return not found");
    return row;
  }

  async function mailLines(tx: DbOrTx, r: ReturnRow, order: OrderRow): Promise<[string, string][]> {
    const lines = await tx.select().from(returnLines).where(eq(returnLines.returnId, r.id));
    const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, r.orderId));
    const core = r.reason === "core" ? "Core of " : "";
    return lines.map((l) => [
      `${l.qty} × ${core}${items.find((i) => i.line === l.line)?.productName ?? `Line ${l.line}`}`,
      formatCents(l.netCents + l.taxCents, order.currency),
    ]);
  }

  /**
   * Gives a refund's money back through the gateway that took it (or, on account, nothing: the
   * credit note is the refund), then issues its credit note and marks it done, once. The gateway
   * is called outside any transaction, with the refund row's id as its idempotency key: a retry
   * or a second confirmation refunds once. A gateway failure leaves the refund failed (the
   * return "refund failed") with the gateway's words, to be retried; nothing else is written.
   */
  async function runRefund(refundId: string): Promise<RefundRow> {
    const [refund] = await db.select().from(refunds).where(eq(refunds.id, refundId));
    if (!refund) throw notFound("Refund not found");
    if (refund.status === "succeeded") return refund;
    const [order] = await db.select().from(orders).where(eq(orders.id, refund.orderId));
    let gatewayRefundId: string | null = null;
    if (refund.gateway !== ON_ACCOUNT && refund.amountCents > 0) {
      try {
        if (refund.gateway !== gateway.name) {
          throw new HttpError(
            409,
            "refund_gateway",
            `This order was paid through ${refund.gateway}, which this store no longer uses: refund it there`,
          );
        }
        if (!order?.transactionId) throw conflict("This order has no payment to refund");
        const done = await gateway.refund({
          intentId: order.transactionId,
          amountCents: refund.amountCents,
          idempotencyKey: `refund-${refund.id}`,
        });
        if (done.status === "failed" || done.status === "canceled") {
          throw new HttpError(502, "refund_failed", `The gateway answered ${done.status}`);
        }
        gatewayRefundId = done.id;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        opts.log.error({ err, refundId, orderId: refund.orderId }, "returns: the refund failed");
        await db.transaction(async (tx) => {
          const [fresh] = await tx
            .select()
            .from(refunds)
            .where(eq(refunds.id, refundId))
            .for("update");
          if (fresh?.status === "succeeded") return;
          await tx
            .update(refunds)
            .set({ status: "failed", error: message.slice(0, 500) })
            .where(eq(refunds.id, refundId));
          if (refund.returnId) {
            await tx
              .update(returnRequests)
              .set({ status: "refund_failed" })
              .where(eq(returnRequests.id, refund.returnId));
          }
        });
        const [after] = await db.select().from(refunds).where(eq(refunds.id, refundId));
        return after!;
      }
    }
    return db.transaction(async (tx) => {
      const [fresh] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for("update");
      if (!fresh || fresh.status === "succeeded") return fresh!;
      const [ofReturn] = refund.returnId
        ? await tx
            .select({ reason: returnRequests.reason })
            .from(returnRequests)
            .where(eq(returnRequests.id, refund.returnId))
        : [];
      const core = ofReturn?.reason === "core";
      const lines = refund.returnId
        ? await tx.select().from(returnLines).where(eq(returnLines.returnId, refund.returnId))
        : (
            await tx.select().from(orderItems).where(eq(orderItems.orderId, refund.orderId))
          ).flatMap((i) => [
            {
              line: i.line,
              qty: i.qty,
              netCents: i.unitPriceCents * i.qty,
              taxCents: i.taxCents,
              coreDeposit: false,
            },
            // A cancelled order gives its core deposits back too (their own lines).
            ...(i.coreDepositCents > 0
              ? [
                  {
                    line: i.line,
                    qty: i.qty,
                    netCents: i.coreDepositCents * i.qty,
                    taxCents: 0,
                    coreDeposit: true,
                  },
                ]
              : []),
          ]);
      const note = await issueCreditNote(
        tx,
        refund.orderId,
        {
          lines: lines.map((l) => ({ coreDeposit: core, ...l })),
          shippingCents: refund.shippingCents,
          shippingTaxCents: refund.kind === "cancellation" ? (order?.shippingTaxCents ?? 0) : 0,
          reason: core
            ? "Core deposit refunded: the old part came back"
            : refund.returnId
              ? "Return of parts"
              : "Order cancelled by the store",
          paymentTerms:
            refund.gateway === ON_ACCOUNT
              ? "Credited to your account: deduct it from what you owe"
              : "Refunded to the card the order was paid with",
        },
        opts.seller,
        now(),
      );
      const [done] = await tx
        .update(refunds)
        .set({
          status: "succeeded",
          gatewayRefundId,
          error: null,
          creditNoteId: note.id,
          refundedAt: now(),
        })
        .where(eq(refunds.id, refundId))
        .returning();
      if (refund.returnId) {
        const [returned] = await tx
          .update(returnRequests)
          .set({ status: "refunded" })
          .where(eq(returnRequests.id, refund.returnId))
          .returning();
        if (opts.mailer && order) {
          const mail = returnRefundedMail({
            name: order.customerName,
            orderId: order.id,
            amount: formatCents(refund.amountCents, order.currency),
            creditNoteNumber: note.number,
            onAccount: refund.gateway === ON_ACCOUNT,
            lines: await mailLines(tx, returned!, order),
            publicUrl: opts.publicUrl,
          });
          await opts.mailer.sendIn(
            tx,
            { to: order.orderEmail, ...mail, attach: [{ kind: "invoice-pdf", id: note.id }] },
            `return-refunded:${refund.id}`,
          );
        }
      }
      return done!;
    });
  }

  /**
   * Writes a refund row for an order, in the caller's transaction (the order row locked): never
   * more, with what is refunded already, than the order's total.
   */
  async function addRefund(
    tx: DbOrTx,
    order: OrderRow,
    values: {
      kind: "return" | "cancellation";
      returnId: string | null;
      netCents: number;
      taxCents: number;
      shippingCents: number;
    },
  ): Promise<RefundRow> {
    const [sum] = await tx
      .select({ refunded: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
      .from(refunds)
      .where(eq(refunds.orderId, order.id));
    const refunded = sum?.refunded ?? 0;
    const amountCents = values.netCents + values.taxCents + values.shippingCents;
    if (refunded + amountCents > order.totalCents) {
      throw conflict(
        `This would refund ${formatCents(refunded + amountCents, order.currency)} of an order of ${formatCents(order.totalCents, order.currency)}`,
      );
    }
    const [row] = await tx
      .insert(refunds)
      .values({
        orderId: order.id,
        ...values,
        amountCents,
        currency: order.currency,
        gateway: order.paidWith ?? gateway.name,
      })
      .returning();
    return row!;
  }

  return {
    runRefund,
    addRefund,

    /** A paid order the store cancels: all of it is refunded (lines, shipping, tax). */
    refundCancelled: (tx: DbOrTx, order: OrderRow) =>
      addRefund(tx, order, {
        kind: "cancellation",
        returnId: null,
        netCents: order.totalCents - order.taxCents - order.shippingCents,
        taxCents: order.taxCents,
        shippingCents: order.shippingCents,
      }),

    /** What the customer may still return of an order, and until when. */
    async returnable(orderId: string, viewer: Viewer): Promise<Returnable> {
      const order = await ownOrder(db, orderId, viewer);
      const items = await db
        .select()
        .from(orderItems)
        .where(eq(orderItems.orderId, orderId))
        .orderBy(orderItems.line);
      const [taken, cores, w, cw] = await Promise.all([
        alreadyReturned(db, orderId),
        alreadyReturned(db, orderId, true),
        windowOf(db, order),
        windowOf(db, order, true),
      ]);
      return {
        eligible: w.open,
        reason: w.why,
        until: w.until?.toISOString() ?? null,
        coreUntil: cw.until?.toISOString() ?? null,
        currency: order.currency,
        lines: items.map((i) => ({
          line: i.line,
          productName: i.productName,
          partNumber: i.partNumber,
          bought: i.qty,
          returnable: w.lines.get(i.line)?.open
            ? Math.max(0, w.lines.get(i.line)!.shipped - (taken.get(i.line) ?? 0))
            : 0,
          vehicle: i.vehicleLabel,
          coreDeposit: centsToUnits(i.coreDepositCents),
          coresReturnable:
            cw.lines.get(i.line)?.open && i.coreDepositCents > 0
              ? Math.max(0, cw.lines.get(i.line)!.shipped - (cores.get(i.line) ?? 0))
              : 0,
        })),
      };
    },

    /**
     * The customer asks to return lines of their own shipped order within the window. The order
     * row is locked, so two requests at once cannot return the same units twice.
     */
    async request(orderId: string, viewer: Viewer, input: ReturnRequestInput): Promise<Return> {
      return db.transaction(async (tx) => {
        const order = await ownOrder(tx, orderId, viewer, true);
        if (order.userId !== viewer.id) throw notFound("Order not found");
        const core = input.reason === "core";
        const w = await windowOf(tx, order, core);
        if (!w.open) throw unprocessable(w.why!);
        const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId));
        const taken = await alreadyReturned(tx, orderId, core);
        const seen = new Set<number>();
        const lines = input.lines.map((l) => {
          const item = items.find((i) => i.line === l.line);
          if (!item) throw unprocessable(returnMessages.noSuchLine(l.line));
          if (seen.has(l.line)) throw unprocessable(`Line ${l.line} is listed twice`);
          seen.add(l.line);
          // Only shipped units, within the window of the line's shipment.
          const shipped = w.lines.get(l.line);
          if (!shipped) throw unprocessable(returnMessages.lineNotShipped(l.line));
          if (!shipped.open) {
            throw unprocessable(returnMessages.lineWindowClosed(l.line, w.days));
          }
          const before = taken.get(l.line) ?? 0;
          const left = Math.max(0, shipped.shipped - before);
          if (core) {
            // A core return refunds the deposit of the cores sent back, untaxed, one per unit.
            if (item.coreDepositCents <= 0)
              throw unprocessable(returnMessages.noCoreDeposit(l.line));
            if (l.qty > left) throw unprocessable(returnMessages.tooManyCores(l.line, left));
            return {
              line: l.line,
              qty: l.qty,
              netCents: item.coreDepositCents * l.qty,
              taxCents: 0,
            };
          }
          if (l.qty > left) throw unprocessable(returnMessages.tooMany(l.line, left));
          return {
            line: l.line,
            qty: l.qty,
            netCents: item.unitPriceCents * l.qty,
            taxCents: taxOfUnits(item, before + l.qty) - taxOfUnits(item, before),
          };
        });
        const [row] = await tx
          .insert(returnRequests)
          .values({
            orderId,
            userId: viewer.id,
            reason: input.reason,
            vehicle:
              input.reason === "did_not_fit"
                ? input.vehicle || lineVehicleOf(items, input.lines) || null
                : null,
            note: input.note || null,
            requestedAt: now(),
          })
          .returning();
        await tx.insert(returnLines).values(lines.map((l) => ({ ...l, returnId: row!.id })));
        return (await toReturns(tx, [row!]))[0]!;
      });
    },

    /** An order's returns (its owner or an admin). */
    async forOrder(orderId: string, viewer: Viewer): Promise<Return[]> {
      await ownOrder(db, orderId, viewer);
      const rows = await db
        .select()
        .from(returnRequests)
        .where(eq(returnRequests.orderId, orderId))
        .orderBy(desc(returnRequests.requestedAt));
      return toReturns(db, rows);
    },

    /** Admin: every return, newest first, paged, optionally of one status. */
    async list(query: ReturnsQuery): Promise<{ items: Return[]; total: number }> {
      const where = query.status ? eq(returnRequests.status, query.status) : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(returnRequests)
          .where(where)
          .orderBy(desc(returnRequests.requestedAt), desc(returnRequests.id))
          .limit(query.limit)
          .offset(query.offset),
        db.select({ n: count() }).from(returnRequests).where(where),
      ]);
      return { items: await toReturns(db, rows), total: total?.n ?? 0 };
    },

    /** Admin: approve (the customer gets the instructions) or refuse with a message (emailed). */
    async decide(id: string, d: ReturnDecision, actor: AuditActor): Promise<Return> {
      if (d.decision === "refuse" && !d.message) {
        throw new HttpError(400, "invalid_request", returnMessages.refuseNeedsMessage, {
          message: returnMessages.refuseNeedsMessage,
        });
      }
      return db.transaction(async (tx) => {
        const r = await loadReturn(tx, id, true);
        const next = d.decision === "approve" ? "approved" : "refused";
        if (r.status === next) return (await toReturns(tx, [r]))[0]!;
        if (r.status !== "requested") {
          throw conflict(`This return is ${r.status} already: it can no longer be ${next}`);
        }
        const [updated] = await tx
          .update(returnRequests)
          .set({ status: next, adminMessage: d.message || null, decidedAt: now() })
          .where(eq(returnRequests.id, id))
          .returning();
        const [order] = await tx.select().from(orders).where(eq(orders.id, r.orderId));
        await recordAdminAction(tx, {
          actor,
          action: d.decision === "approve" ? "return.approve" : "return.refuse",
          target: { type: "return", id },
          summary: `${d.decision === "approve" ? "Approved" : "Refused"} a return of order ${r.orderId.slice(0, 8).toUpperCase()} (${order!.orderEmail})${d.message ? `: ${d.message}` : ""}`,
        });
        if (opts.mailer) {
          const facts = {
            name: order!.customerName,
            orderId: order!.id,
            lines: await mailLines(tx, r, order!),
            message: d.message || null,
            publicUrl: opts.publicUrl,
          };
          const mail = next === "approved" ? returnApprovedMail(facts) : returnRefusedMail(facts);
          await opts.mailer.sendIn(tx, { to: order!.orderEmail, ...mail }, `return-${next}:${id}`);
        }
        return (await toReturns(tx, [updated!]))[0]!;
      });
    },

    /**
     * Admin: the parts arrived. In one transaction the stock comes back (inventory) and the
     * refund is written; then the refund goes through the gateway and the credit note is issued
     * (`runRefund`). Received twice: the second changes nothing (and retries a failed refund).
     */
    async receive(id: string, actor: AuditActor): Promise<Return> {
      const refundId = await inventory.transaction(async (stock, tx) => {
        const r = await loadReturn(tx, id, true);
        if (r.status === "received" || r.status === "refund_failed" || r.status === "refunded") {
          const [existing] = await tx.select().from(refunds).where(eq(refunds.returnId, id));
          return existing?.id ?? null;
        }
        if (r.status !== "approved") {
          throw conflict(`Only an approved return can be received; this one is ${r.status}`);
        }
        const [order] = await tx
          .select()
          .from(orders)
          .where(eq(orders.id, r.orderId))
          .for("update");
        const lines = await tx.select().from(returnLines).where(eq(returnLines.returnId, id));
        const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, r.orderId));
        // A core is the customer's old part: it does not go back on sale.
        if (r.reason !== "core") {
          await stock.release(
            lines.map((l) => ({
              productId: items.find((i) => i.line === l.line)?.productId ?? null,
              qty: l.qty,
            })),
          );
        }
        const refund = await addRefund(tx, order!, {
          kind: "return",
          returnId: id,
          netCents: lines.reduce((s, l) => s + l.netCents, 0),
          taxCents: lines.reduce((s, l) => s + l.taxCents, 0),
          shippingCents: 0,
        });
        await tx
          .update(returnRequests)
          .set({ status: "received", receivedAt: now() })
          .where(eq(returnRequests.id, id));
        await recordAdminAction(tx, {
          actor,
          action: "return.receive",
          target: { type: "return", id },
          summary: `Received a ${r.reason === "core" ? "core " : ""}return of order ${r.orderId.slice(0, 8).toUpperCase()} (${order!.orderEmail}); refunding ${formatCents(refund.amountCents, order!.currency)}`,
        });
        return refund.id;
      });
      if (refundId) await runRefund(refundId);
      return (await toReturns(db, [await loadReturn(db, id)]))[0]!;
    },

    /** Admin: tries a failed refund again (the same idempotency key: it cannot refund twice). */
    async retryRefund(id: string, actor: AuditActor): Promise<Return> {
      const r = await loadReturn(db, id);
      if (r.status !== "refund_failed" && r.status !== "received") {
        throw conflict(`Only a return whose refund failed can be retried; this one is ${r.status}`);
      }
      const [refund] = await db.select().from(refunds).where(eq(refunds.returnId, id));
      if (!refund) throw conflict("This return has no refund to retry");
      await db.transaction((tx) =>
        recordAdminAction(tx, {
          actor,
          action: "return.refund_retry",
          target: { type: "return", id },
          summary: `Retried the refund of a return of order ${r.orderId.slice(0, 8).toUpperCase()}`,
        }),
      );
      await runRefund(refund.id);
      return (await toReturns(db, [await loadReturn(db, id)]))[0]!;
    },

    /** Admin: "did not fit" returns per product, with the vehicles customers named. */
    async fitmentReport(): Promise<FitmentReport> {
      const rows = await db
        .select({
          productId: orderItems.productId,
          productName: orderItems.productName,
          partNumber: orderItems.partNumber,
          returnId: returnRequests.id,
          vehicle: returnRequests.vehicle,
          qty: returnLines.qty,
        })
        .from(returnRequests)
        .innerJoin(returnLines, eq(returnLines.returnId, returnRequests.id))
        .innerJoin(
          orderItems,
          and(
            eq(orderItems.orderId, returnRequests.orderId),
            eq(orderItems.line, returnLines.line),
          ),
        )
        .where(and(eq(returnRequests.reason, "did_not_fit"), activeReturn));
      const byProduct = new Map<string, FitmentReport[number] & { ids: Set<string> }>();
      for (const r of rows) {
        const key = r.productId ?? `name:${r.productName}`;
        let p = byProduct.get(key);
        if (!p) {
          p = {
            productId: r.productId,
            productName: r.productName,
            partNumber: r.partNumber,
            returns: 0,
            units: 0,
            vehicles: [],
            ids: new Set(),
          };
          byProduct.set(key, p);
        }
        if (!p.ids.has(r.returnId)) {
          p.ids.add(r.returnId);
          p.returns += 1;
          const vehicle = r.vehicle?.trim() || "(vehicle not given)";
          const v = p.vehicles.find((x) => x.vehicle.toLowerCase() === vehicle.toLowerCase());
          if (v) v.returns += 1;
          else p.vehicles.push({ vehicle, returns: 1 });
        }
        p.units += r.qty;
      }
      return [...byProduct.values()]
        .map(({ ids: _ids, ...p }) => ({
          ...p,
          vehicles: p.vehicles.sort((a, b) => b.returns - a.returns),
        }))
        .sort((a, b) => b.returns - a.returns || a.productName.localeCompare(b.productName));
    },

    /** An order's credit notes (its owner or an admin). */
    async creditNotes(orderId: string, viewer: Viewer): Promise<CreditNote[]> {
      await ownOrder(db, orderId, viewer);
      const rows = await db
        .select()
        .from(invoices)
        .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, "credit_note")))
        .orderBy(invoices.issuedAt);
      return rows.map((n) => ({
        id: n.id,
        number: n.number,
        orderId: n.orderId,
        corrects: n.snapshot.creditNote?.corrects ?? null,
        issuedAt: n.issuedAt.toISOString(),
        currency: n.currency,
        total: centsToUnits(n.totalCents),
        pdfUrl: creditNotePdfPath(n.id),
      }));
    },

    /** A credit note's PDF (the order's owner or an admin). */
    async creditNotePdf(id: string, viewer: Viewer) {
      const [note] = await db
        .select({ note: invoices, userId: orders.userId })
        .from(invoices)
        .innerJoin(orders, eq(orders.id, invoices.orderId))
        .where(and(eq(invoices.id, id), eq(invoices.kind, "credit_note")));
      if (!note || (note.userId !== viewer.id && viewer.role !== "admin")) {
        throw notFound("Credit note not found");
      }
      return { filename: `${note.note.number}.pdf`, bytes: await renderStored(note.note) };
    },
  };
}

export type ReturnService = ReturnType<typeof createReturnService>;
export { returnReasonLabels };

/**
 * The vehicle the returned lines were bought for (the first of them that kept one), for a "did
 * not fit" return that names none: it starts from the line's vehicle (docs/vehicle-on-line.md).
 */
function lineVehicleOf(
  items: { line: number; vehicleLabel: string | null }[],
  lines: { line: number }[],
): string | null {
  for (const l of lines) {
    const label = items.find((i) => i.line === l.line)?.vehicleLabel;
    if (label) return label;
  }
  return null;
}
