import { orderNumberText } from "../../contract/orders";
import { eq } from "drizzle-orm";
import { rmaNumber } from "../../contract/returns";
import { refundMessages, type RefundToRetry } from "../../contract/refunds";
import { ON_ACCOUNT } from "../../contract/terms";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { SellerDetails } from "../config";
import type { Db, DbOrTx } from "../db/database";
import { conflict, HttpError, notFound } from "../errors";
import { issueCreditNote } from "../invoices/credit-note";
import type { Mailer } from "../mail/mailer";
import { formatCents } from "../money";
import { discountOfUnits } from "../pricing/discounts";
import { linesOf } from "../orders/state";
import { orders } from "../orders/tables";
import type { PaymentGateway } from "../payments/gateway";
import { returnRefundedMail } from "../returns/mail";
import {
  backorderCreditsOf,
  markRefundFailed,
  netOfPaid,
  markRefundSucceeded,
  refundById,
  refundsDueForRetry,
  refundsToRetry,
  toRefundToRetry,
  type RefundRow,
} from "../returns/refunds";
import { linesOfReturn, loadReturn, returnMailLines } from "../returns/service";
import { type Clock, systemClock } from "../clock";
import { syncAccountSettlement } from "../terms/service";

export interface RefundOptions {
  seller: SellerDetails;
  mailer?: Pick<Mailer, "sendIn">;
  publicUrl: string;
  log: { error(obj: object, msg: string): void };
  now?: Clock;
}

/**
 * The refund engine, for a received return and for a paid order the store cancelled: gives a
 * refund's money back through the gateway that took it (or, on account, nothing: the credit note
 * is the refund), then issues its credit note and marks it done, once. The gateway is called
 * outside any transaction, with the refund row's id as its idempotency key: a retry or a second
 * confirmation refunds once. A gateway failure leaves the refund failed (a return "refund
 * failed") with the gateway's words, to be retried; nothing else is written. A refund failed, or
 * cut off before the gateway answered (still pending minutes later), is listed for admins
 * (`toRetry`), retried by a recurring job (`retryDue`) and by an admin (`retry`), always with
 * that same key, until it succeeds: then, and only then, its credit note is issued.
 */
export function createRefunds(db: Db, gateway: PaymentGateway, opts: RefundOptions) {
  const now = opts.now ?? systemClock;

  /** Calls the gateway; null when nothing goes through it (on account, or nothing to give). */
  async function giveBack(refund: RefundRow, transactionId: string | null | undefined) {
    if (refund.gateway === ON_ACCOUNT || refund.amountCents <= 0) return null;
    if (refund.gateway !== gateway.name) {
      throw new HttpError(
        409,
        "refund_gateway",
        `This order was paid through ${refund.gateway}, which this store no longer uses: refund it there`,
      );
    }
    if (!transactionId) throw conflict("This order has no payment to refund");
    const done = await gateway.refund({
      intentId: transactionId,
      amountCents: refund.amountCents,
      idempotencyKey: `refund-${refund.id}`,
    });
    if (done.status === "failed" || done.status === "canceled") {
      throw new HttpError(502, "refund_failed", `The gateway answered ${done.status}`);
    }
    return done.id;
  }

  async function run(refundId: string): Promise<RefundRow> {
    const refund = await refundById(db, refundId);
    if (!refund) throw notFound("Refund not found");
    if (refund.status === "succeeded") return refund;
    const [order] = await db.select().from(orders).where(eq(orders.id, refund.orderId));
    let gatewayRefundId: string | null;
    try {
      gatewayRefundId = await giveBack(refund, order?.transactionId);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      opts.log.error({ err, refundId, orderId: refund.orderId }, "returns: the refund failed");
      await db.transaction(async (tx) => {
        const fresh = await refundById(tx, refundId, true);
        if (fresh && fresh.status !== "succeeded") {
          await markRefundFailed(tx, fresh, message, now());
        }
      });
      return (await refundById(db, refundId))!;
    }
    return db.transaction(async (tx) => {
      const fresh = await refundById(tx, refundId, true);
      if (!fresh || fresh.status === "succeeded") return fresh!;
      const ofReturn = refund.returnId ? await loadReturn(tx, refund.returnId) : null;
      const core = ofReturn?.reason === "core";
      const lines = ofReturn
        ? await linesOfReturn(tx, ofReturn.id)
        : await cancelledLines(tx, refund, order?.pricesIncludeTax ?? false);
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
              : refund.kind === "backorder"
                ? "Backordered parts cancelled"
                : order?.cancelReason === "buyer"
                  ? "Order cancelled at your request"
                  : "Order cancelled by the store",
          paymentTerms:
            refund.gateway === ON_ACCOUNT
              ? "Credited to your account: deduct it from what you owe"
              : "Refunded to the card the order was paid with",
        },
        opts.seller,
        now(),
      );
      const done = await markRefundSucceeded(tx, fresh, {
        gatewayRefundId,
        creditNoteId: note.id,
        at: now(),
      });
      // On account the credit note is the refund: it may be what settles the invoice.
      if (refund.gateway === ON_ACCOUNT) await syncAccountSettlement(tx, refund.orderId, now());
      if (ofReturn && opts.mailer && order) {
        const mail = returnRefundedMail({
          name: order.customerName,
          orderId: order.id,
          rma: rmaNumber(ofReturn.rmaNumber),
          orderNumber: orderNumberText(order.number),
          amount: formatCents(refund.amountCents, order.currency),
          creditNoteNumber: note.number,
          onAccount: refund.gateway === ON_ACCOUNT,
          lines: await returnMailLines(tx, ofReturn, order),
          publicUrl: opts.publicUrl,
        });
        await opts.mailer.sendIn(
          tx,
          { to: order.orderEmail, ...mail, attach: [{ kind: "invoice-pdf", id: note.id }] },
          `return-refunded:${refund.id}`,
        );
      }
      return done;
    });
  }

  /** Refunds failed or stuck, oldest first (admin: "Payments to refund", the home page). */
  async function toRetry(): Promise<RefundToRetry[]> {
    return (await refundsToRetry(db, now())).map(toRefundToRetry);
  }

  /** Admin: tries a refund again now (the same idempotency key: it cannot refund twice). */
  async function retry(id: string, actor: AuditActor): Promise<RefundToRetry> {
    const refund = await refundById(db, id);
    if (!refund) throw notFound(refundMessages.notFound);
    const [order] = await db
      .select({ number: orders.number })
      .from(orders)
      .where(eq(orders.id, refund.orderId));
    if (refund.status !== "succeeded") {
      await db.transaction((tx) =>
        recordAdminAction(tx, {
          actor,
          action: "refund.retry",
          target: { type: "refund", id },
          summary: `Retried the ${refund.kind} refund of ${formatCents(refund.amountCents, refund.currency)} for order ${orderNumberText(order!.number)}`,
        }),
      );
    }
    return toRefundToRetry({ refund: await run(id), orderNumber: order!.number });
  }

  /**
   * The recurring job's run: every refund failed (its wait after the last attempt over) or
   * stuck, one after another. Answers how many went through.
   */
  async function retryDue(): Promise<number> {
    let done = 0;
    for (const id of await refundsDueForRetry(db, now())) {
      if ((await run(id)).status === "succeeded") done++;
    }
    return done;
  }

  return { run, toRetry, retry, retryDue, gatewayName: gateway.name };
}

export type Refunds = ReturnType<typeof createRefunds>;

/**
 * The credit note lines of a refund that is not a return's: a cancelled order's lines (less the
 * units its backorder refunds credited already), or one line's cancelled backordered units. Each
 * line's core deposit goes back too, as its own line.
 */
async function cancelledLines(tx: DbOrTx, refund: RefundRow, pricesIncludeTax: boolean) {
  const items = await linesOf(tx, [refund.orderId]);
  const credited =
    refund.kind === "cancellation" ? await backorderCreditsOf(tx, refund.orderId) : null;
  return items.flatMap((i) => {
    const before = credited?.get(i.line);
    const qty =
      refund.kind === "backorder"
        ? i.line === refund.line
          ? refund.units!
          : 0
        : i.qty - (before?.units ?? 0);
    if (qty <= 0) return [];
    const taxCents =
      refund.kind === "backorder" ? refund.taxCents : i.taxCents - (before?.taxCents ?? 0);
    // What was paid for these units: their price less their share of a discount code (the
    // backordered units are the line's last; a cancellation's, its first: those not credited).
    const done = refund.kind === "backorder" ? i.qty - qty : 0;
    const discount = discountOfUnits(i, done + qty) - discountOfUnits(i, done);
    return [
      {
        line: i.line,
        qty,
        // Of an order with VAT included, the price paid contains the tax (docs/tax.md).
        netCents: netOfPaid({ pricesIncludeTax }, i.unitPriceCents * qty - discount, taxCents),
        taxCents,
        coreDeposit: false,
      },
      ...(i.coreDepositCents > 0
        ? [
            {
              line: i.line,
              qty,
              netCents: i.coreDepositCents * qty,
              taxCents: 0,
              coreDeposit: true,
            },
          ]
        : []),
    ];
  });
}
