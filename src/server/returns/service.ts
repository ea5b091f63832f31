import { orderNumberText, WARRANTY_REPLACEMENT } from "../../contract/orders";
import { and, desc, eq, inArray } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  creditNotePdfPath,
  receivedConditionLabels,
  returnMessages,
  returnReasonLabels,
  rmaNumber,
  type CreditNote,
  type RestockingFee,
  type Return,
  type ReturnWindows,
  type ReturnWindowsInput,
  type ReturnDecision,
  type Returnable,
  type ReturnRequestInput,
  type ReturnsQuery,
} from "../../contract/returns";
import { claimNumber } from "../../contract/warranty";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { pageOf } from "../db/page";
import { invoices } from "../invoices/tables";
import { orderItems, orders } from "../orders/tables";
import { ownerOrAdmin, visibleOrder, type OrderViewer as Viewer } from "../orders/service";
import { returnedByLine } from "./returned-units";
import { refunds, returnLines, returnRequests } from "./tables";
import { netOfPaid } from "./refunds";
import { conflict, HttpError, notFound, unprocessable } from "../errors";
import { renderStored } from "../invoices/service";
import type { Mailer } from "../mail/mailer";
import { returnApprovedMail, returnRefusedMail, returnRequestedMail } from "./mail";
import { centsToUnits, formatCents } from "../money";
import { discountOfUnits } from "../pricing/discounts";
import type { ContactDetails } from "../config";
import { lineVehicleJson, unknownLineVehicle, type LineVehicle } from "../vehicles/service";
import { shippedByLine } from "../shipments/service";
import { photosOfReturns } from "./photos";
import { fitmentReport } from "./report";
import { restockingFee, setRestockingFee } from "./receiving";
import { returnWindowsOf, setReturnWindows } from "./windows";
import { type Clock, systemClock } from "../clock";
import { returnEventData } from "../webhooks/events";
import { recordWebhookEvent } from "../webhooks/outbox";

type ReturnRow = typeof returnRequests.$inferSelect;
type OrderRow = typeof orders.$inferSelect;
type ItemRow = typeof orderItems.$inferSelect;
/** An order's return window (parts' or cores'): open or not, until when, and per line. */
interface ReturnWindow {
  open: boolean;
  until: Date | null;
  why: string | null;
  days: number;
  lines: Map<number, { shipped: number; open: boolean }>;
}

export interface ReturnOptions {
  /** Days after shipping a return may be asked, until an admin saves the windows (windows.ts). */
  windowDays: number;
  /** The same for a core return (docs/core-charges.md); default 90. */
  coreWindowDays?: number;
  mailer?: Pick<Mailer, "sendIn">;
  publicUrl: string;
  /** The returns address the approval mail gives (the Contact page's). */
  contact?: Pick<ContactDetails, "returnsAddress">;
  now?: Clock;
  /**
   * Units of each line of an order in warranty claims not rejected (docs/warranty.md): they may
   * not be returned too. Given at composition (the warranty module reads returns, not the reverse).
   */
  claimedByLine?: (tx: DbOrTx, orderId: string) => Promise<Map<number, number>>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The tax of `qty` of a line's units: its tax shared by units, rounded so all of them add up to it. */
const taxOfUnits = (item: ItemRow, qty: number) => Math.round((item.taxCents * qty) / item.qty);

/** Returns as the wire shows them: lines, amounts, refund state, credit note, photos. */
export async function returnsView(tx: DbOrTx, rows: ReturnRow[]): Promise<Return[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const orderIds = [...new Set(rows.map((r) => r.orderId))];
  // One after the other: `tx` may be a transaction's one connection.
  const lines = await tx.select().from(returnLines).where(inArray(returnLines.returnId, ids));
  const items = await tx.select().from(orderItems).where(inArray(orderItems.orderId, orderIds));
  const orderRows = await tx
    .select({
      id: orders.id,
      number: orders.number,
      email: orders.orderEmail,
      currency: orders.currency,
    })
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
    const received = r.receivedAt !== null && own.every((l) => l.receivedQty !== null);
    return {
      id: r.id,
      rma: rmaNumber(r.rmaNumber),
      warrantyClaim: r.warrantyClaim === null ? null : claimNumber(r.warrantyClaim),
      orderId: r.orderId,
      orderNumber: orderNumberText(order.number),
      orderEmail: order.email,
      status: r.status,
      reason: r.reason,
      vehicle: r.vehicle,
      vehicleFromCatalog: r.vehicleBaseVehicleId !== null,
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
          received:
            received && l.condition
              ? {
                  qty: l.receivedQty!,
                  condition: l.condition,
                  fee: centsToUnits(l.feeCents),
                  refund: centsToUnits(refundOfLine(l)),
                }
              : null,
        };
      }),
      amount: centsToUnits(
        own.reduce((s, l) => s + (received ? refundOfLine(l) : l.netCents + l.taxCents), 0),
      ),
      fee: centsToUnits(own.reduce((s, l) => s + l.feeCents, 0)),
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

type LineRow = typeof returnLines.$inferSelect;
/** What a received line refunds (net and tax, after any fee). */
const refundOfLine = (l: LineRow) => (l.refundNetCents ?? 0) + (l.refundTaxCents ?? 0);

/** One return, locked for the rest of the caller's transaction when `lock`. */
export async function loadReturn(tx: DbOrTx, id: string, lock = false): Promise<ReturnRow> {
  const q = tx.select().from(returnRequests).where(eq(returnRequests.id, id));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw notFound("Return not found");
  return row;
}

/**
 * A return's rows and amounts as its emails list them: what was asked for, or once received
 * what arrived (its condition, its value) and the restocking fee kept, so the rows add up to
 * the refund.
 */
export async function returnMailLines(
  tx: DbOrTx,
  r: ReturnRow,
  order: OrderRow,
): Promise<[string, string][]> {
  const lines = await tx.select().from(returnLines).where(eq(returnLines.returnId, r.id));
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, r.orderId));
  const core = r.reason === "core" ? "Core of " : "";
  const name = (l: LineRow) =>
    `${core}${items.find((i) => i.line === l.line)?.productName ?? `Line ${l.line}`}`;
  const money = (cents: number) => formatCents(cents, order.currency);
  if (!r.receivedAt)
    return lines.map((l) => [`${l.qty} × ${name(l)}`, money(l.netCents + l.taxCents)]);
  const fee = lines.reduce((s, l) => s + l.feeCents, 0);
  return [
    ...lines.map((l): [string, string] => [
      `${l.receivedQty ?? 0} × ${name(l)} (${l.condition ? receivedConditionLabels[l.condition].toLowerCase() : "not received"})`,
      money(refundOfLine(l) + l.feeCents),
    ]),
    ...(fee > 0 ? [["Restocking fee", `−${money(fee)}`] as [string, string]] : []),
  ];
}

/**
 * A return's lines as its refund's credit note lists them: what was asked for, or once received
 * what arrived and what it refunds (lines that refund nothing are left off).
 */
export async function linesOfReturn(tx: DbOrTx, returnId: string) {
  const rows = await tx.select().from(returnLines).where(eq(returnLines.returnId, returnId));
  if (rows.every((l) => l.receivedQty === null)) return rows;
  return rows
    .filter((l) => (l.receivedQty ?? 0) > 0 && refundOfLine(l) > 0)
    .map((l) => ({
      ...l,
      qty: l.receivedQty!,
      netCents: l.refundNetCents ?? 0,
      taxCents: l.refundTaxCents ?? 0,
    }));
}

export function createReturnService(db: Db, opts: ReturnOptions) {
  const now = opts.now ?? systemClock;
  const defaults = { days: opts.windowDays, coreDays: opts.coreWindowDays ?? 90 };

  /**
   * Units of each line already in a return (not refused): parts returns, or with `core` the
   * cores sent back for their deposit.
   */
  async function alreadyReturned(
    tx: DbOrTx,
    orderId: string,
    core = false,
  ): Promise<Map<number, number>> {
    const taken = await returnedByLine(tx, orderId, core);
    // A part in a warranty claim is the manufacturer's to judge: it is not returned as well.
    if (!core && opts.claimedByLine) {
      for (const [line, qty] of await opts.claimedByLine(tx, orderId)) {
        taken.set(line, (taken.get(line) ?? 0) + qty);
      }
    }
    return taken;
  }

  /**
   * What of each line may be returned, parts and cores: its shipped units (docs/shipments.md),
   * while the window counted from the line's last shipment is open (the core return window for
   * cores, docs/core-charges.md). The order is eligible while any line is. The windows in force and
   * the shipments are read once for both.
   */
  async function windowsOf(
    tx: DbOrTx,
    order: OrderRow,
  ): Promise<{ parts: ReturnWindow; cores: ReturnWindow }> {
    const windows = await returnWindowsOf(tx, defaults);
    const closedFor = (why: string) => ({
      parts: { open: false, until: null, why, days: windows.days, lines: new Map() },
      cores: { open: false, until: null, why, days: windows.coreDays, lines: new Map() },
    });
    // A warranty claim's replacement was not paid for: nothing of it can be refunded.
    if (order.paidWith === WARRANTY_REPLACEMENT) return closedFor(returnMessages.replacement);
    const shipped =
      order.status === "paid" || order.status === "shipped"
        ? await shippedByLine(tx, order.id)
        : new Map<number, { qty: number; lastAt: Date }>();
    if (shipped.size === 0) return closedFor(returnMessages.notShipped);
    const windowOf = (days: number, closed: string): ReturnWindow => {
      const lines = new Map<number, { shipped: number; open: boolean }>();
      let until: Date | null = null;
      for (const [line, s] of shipped) {
        const lineUntil = new Date(s.lastAt.getTime() + days * DAY_MS);
        if (!until || lineUntil > until) until = lineUntil;
        lines.set(line, { shipped: s.qty, open: now() <= lineUntil });
      }
      const open = [...lines.values()].some((l) => l.open);
      return { open, until, why: open ? null : closed, days, lines };
    };
    return {
      parts: windowOf(windows.days, returnMessages.windowClosed(windows.days)),
      cores: windowOf(windows.coreDays, returnMessages.coreWindowClosed(windows.coreDays)),
    };
  }

  /** What a return's emails say: the customer, the RMA, the lines, where to send the parts. */
  async function mailFacts(tx: DbOrTx, r: ReturnRow, order: OrderRow, message: string | null) {
    return {
      name: order.customerName,
      orderId: order.id,
      orderNumber: orderNumberText(order.number),
      rma: rmaNumber(r.rmaNumber),
      lines: await returnMailLines(tx, r, order),
      message,
      returnsAddress: opts.contact?.returnsAddress ?? [],
      publicUrl: opts.publicUrl,
    };
  }

  return {
    /** Admin: "did not fit" returns per product, with the vehicles customers named. */
    fitmentReport: () => fitmentReport(db),

    /** Admin: the restocking-fee rule in force. */
    restockingFee: () => restockingFee(db),

    /** Admin: sets the restocking-fee rule, for returns received from now on (audited). */
    async setRestockingFee(fee: RestockingFee, actor: AuditActor): Promise<RestockingFee> {
      await db.transaction(async (tx) => {
        await setRestockingFee(tx, fee, now());
        await recordAdminAction(tx, {
          actor,
          action: "return.restocking_fee",
          target: { type: "return", id: "restocking-fee" },
          summary:
            fee.percent > 0 && fee.conditions.length > 0
              ? `Set the restocking fee to ${fee.percent}% of parts received ${fee.conditions.map((c) => receivedConditionLabels[c].toLowerCase()).join(", ")}`
              : "Turned the restocking fee off",
        });
      });
      return restockingFee(db);
    },

    /** Admin: the return windows in force. */
    returnWindows: () => returnWindowsOf(db, defaults),

    /** Admin: sets the return windows, for every order from now on (audited). */
    async setReturnWindows(input: ReturnWindowsInput, actor: AuditActor): Promise<ReturnWindows> {
      await setReturnWindows(db, input, actor, now());
      return returnWindowsOf(db, defaults);
    },

    /** What the customer may still return of an order, and until when. */
    async returnable(orderId: string, viewer: Viewer): Promise<Returnable> {
      const order = await visibleOrder(db, orderId, viewer);
      const items = await db
        .select()
        .from(orderItems)
        .where(eq(orderItems.orderId, orderId))
        .orderBy(orderItems.line);
      const [taken, cores, { parts: w, cores: cw }] = await Promise.all([
        alreadyReturned(db, orderId),
        alreadyReturned(db, orderId, true),
        windowsOf(db, order),
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
        const order = await visibleOrder(tx, orderId, viewer, true);
        if (order.userId !== viewer.id) throw notFound("Order not found");
        const core = input.reason === "core";
        const w = (await windowsOf(tx, order))[core ? "cores" : "parts"];
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
          const taxCents = taxOfUnits(item, before + l.qty) - taxOfUnits(item, before);
          // What was paid for these units: their price less their share of a discount code.
          const paid =
            item.unitPriceCents * l.qty -
            (discountOfUnits(item, before + l.qty) - discountOfUnits(item, before));
          return { line: l.line, qty: l.qty, netCents: netOfPaid(order, paid, taxCents), taxCents };
        });
        const vehicle =
          input.reason === "did_not_fit" ? await vehicleOf(tx, input, items) : undefined;
        const [row] = await tx
          .insert(returnRequests)
          .values({
            orderId,
            userId: viewer.id,
            reason: input.reason,
            vehicle: vehicle?.label ?? null,
            vehicleBaseVehicleId: vehicle?.baseVehicleId ?? null,
            vehicleEngineId: vehicle?.engineId ?? null,
            note: input.note || null,
            requestedAt: now(),
          })
          .returning();
        await tx.insert(returnLines).values(lines.map((l) => ({ ...l, returnId: row!.id })));
        await recordWebhookEvent(tx, {
          type: "return.requested",
          data: returnEventData(row!, { reason: row!.reason }),
        });
        // The customer's confirmation, queued with the request: it goes exactly when it is written.
        if (opts.mailer) {
          const facts = await mailFacts(tx, row!, order, null);
          await opts.mailer.sendIn(
            tx,
            { to: order.orderEmail, ...returnRequestedMail(facts) },
            `return-requested:${row!.id}`,
          );
        }
        return (await returnsView(tx, [row!]))[0]!;
      });
    },

    /** An order's returns (its owner or an admin). */
    async forOrder(orderId: string, viewer: Viewer): Promise<Return[]> {
      await visibleOrder(db, orderId, viewer);
      const rows = await db
        .select()
        .from(returnRequests)
        .where(eq(returnRequests.orderId, orderId))
        .orderBy(desc(returnRequests.requestedAt));
      return returnsView(db, rows);
    },

    /** Admin: every return, newest first, paged, optionally of one status. */
    async list(query: ReturnsQuery): Promise<{ items: Return[]; total: number }> {
      const where = query.status ? eq(returnRequests.status, query.status) : undefined;
      const newestFirst = db
        .select()
        .from(returnRequests)
        .where(where)
        .orderBy(desc(returnRequests.requestedAt), desc(returnRequests.id));
      const { rows, total } = await pageOf(db, newestFirst, returnRequests, where, query);
      return { items: await returnsView(db, rows), total };
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
        if (r.status === next) return (await returnsView(tx, [r]))[0]!;
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
          summary: `${d.decision === "approve" ? "Approved" : "Refused"} a return of order ${orderNumberText(order!.number)} (${order!.orderEmail})${d.message ? `: ${d.message}` : ""}`,
        });
        if (opts.mailer) {
          const facts = await mailFacts(tx, r, order!, d.message || null);
          const mail = next === "approved" ? returnApprovedMail(facts) : returnRefusedMail(facts);
          await opts.mailer.sendIn(tx, { to: order!.orderEmail, ...mail }, `return-${next}:${id}`);
        }
        return (await returnsView(tx, [updated!]))[0]!;
      });
    },

    /** An order's credit notes (its owner or an admin). */
    async creditNotes(orderId: string, viewer: Viewer): Promise<CreditNote[]> {
      await visibleOrder(db, orderId, viewer);
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
      if (!note || !ownerOrAdmin(note.userId, viewer)) {
        throw notFound("Credit note not found");
      }
      return { filename: `${note.note.number}.pdf`, bytes: await renderStored(note.note) };
    },
  };
}

export type ReturnService = ReturnType<typeof createReturnService>;
export { returnReasonLabels };

/**
 * The vehicle a "did not fit" return names: the one picked from My garage or the selector (the
 * catalog's, named by the server; unknown: 400), else the vehicle a returned line was bought for
 * when the words are its name or none are given (docs/vehicle-on-line.md), else the customer's
 * words. Undefined: none given.
 */
async function vehicleOf(
  tx: DbOrTx,
  input: ReturnRequestInput,
  items: ItemRow[],
): Promise<{ label: string; baseVehicleId: number | null; engineId: number | null } | undefined> {
  if (input.vehicleChoice) {
    const found = await tx.execute<{ v: LineVehicle | null }>(
      sql`select ${lineVehicleJson(input.vehicleChoice)} as v`,
    );
    const v = found.rows[0]?.v;
    if (!v) throw unknownLineVehicle();
    return v;
  }
  // The vehicle a returned line was bought for, named as it was (the form starts from it).
  const bought = input.lines
    .map((l) => items.find((i) => i.line === l.line))
    .find((i) => i?.vehicleLabel && (!input.vehicle || i.vehicleLabel === input.vehicle));
  if (bought?.vehicleLabel) {
    return {
      label: bought.vehicleLabel,
      baseVehicleId: bought.vehicleBaseVehicleId,
      engineId: bought.vehicleEngineId,
    };
  }
  return input.vehicle ? { label: input.vehicle, baseVehicleId: null, engineId: null } : undefined;
}
