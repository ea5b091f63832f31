import { orderNumberText } from "../../contract/orders";
import {
  receivedConditionLabels,
  returnMessages,
  rmaNumber,
  type ReceiveReturnInput,
  type Return,
} from "../../contract/returns";
import { claimNumber } from "../../contract/warranty";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { conflict, HttpError } from "../errors";
import type { Inventory } from "../inventory/service";
import { formatCents } from "../money";
import { linesOf, lockOrder } from "../orders/state";
import { receiveRule, recordReceipt, restockingFee } from "../returns/receiving";
import { insertRefund, refundOfReturn } from "../returns/refunds";
import { linesOfReturn, loadReturn, returnsView } from "../returns/service";
import type { Refunds } from "./refund";
import { type Clock, systemClock } from "../clock";

/**
 * The returned parts arrived (an admin's "Mark received", docs/returns.md "Receiving"): read the
 * return, its lines and the fee rule; decide what arrived refunds and what goes back on sale (the
 * pure `receiveRule`); then in one transaction put back on sale only what came back as new, write
 * what arrived on each line, the refund and the return's status. Any refusal or failure there
 * rolls all of it back: the return stays approved, the stock as it was. Then the refund goes
 * through the gateway and its credit note is issued (the refund engine). Received twice: the
 * second changes nothing (and retries a failed refund).
 */
export function createReceiveReturn(
  db: Db,
  inventory: Inventory,
  refunds: Refunds,
  opts: {
    now?: Clock;
    /**
     * A warranty claim's part arrived (workflows/warranty-claims.ts `partArrived`): answers
     * whether its claim is still open, so the return waits for its decision.
     */
    claimPartArrived?: (tx: DbOrTx, r: Awaited<ReturnType<typeof loadReturn>>) => Promise<boolean>;
  } = {},
) {
  const now = opts.now ?? systemClock;
  const view = async (id: string) => (await returnsView(db, [await loadReturn(db, id)]))[0]!;

  /** `input` left out (an API client of before): every line arrived in full, as new. */
  async function receive(
    id: string,
    actor: AuditActor,
    input?: ReceiveReturnInput,
  ): Promise<Return> {
    const refundId = await inventory.transaction(async (stock, tx) => {
      const r = await loadReturn(tx, id, true);
      if (r.status === "inspecting") return null;
      if (r.status === "received" || r.status === "refund_failed" || r.status === "refunded") {
        return (await refundOfReturn(tx, id))?.id ?? null;
      }
      if (r.status === "closed") return null;
      if (r.status !== "approved") {
        throw conflict(`Only an approved return can be received; this one is ${r.status}`);
      }
      const order = (await lockOrder(tx, r.orderId))!;
      const asked = await linesOfReturn(tx, id);
      const found = input?.lines ?? asked.map((l) => ({ ...l, condition: "as_new" as const }));
      const receipt = receiveRule(r.reason, asked, found, await restockingFee(tx));
      // A claim's part failed in use: it never goes back on sale, and its claim decides the money.
      const forClaim = r.warrantyClaim !== null;
      const amountCents = forClaim ? 0 : receipt.refundNetCents + receipt.refundTaxCents;
      if (
        input?.expectedRefund !== undefined &&
        Math.round(input.expectedRefund * 100) !== amountCents
      ) {
        throw new HttpError(
          409,
          "total_changed",
          returnMessages.refundChanged(formatCents(amountCents, order.currency)),
        );
      }
      const items = await linesOf(tx, [r.orderId]);
      const restock = forClaim ? [] : receipt.lines.filter((l) => l.restock > 0);
      if (restock.length > 0) {
        await stock.restock(
          restock.map((l) => ({
            productId: items.find((i) => i.line === l.line)?.productId ?? null,
            qty: l.restock,
          })),
        );
      }
      const claim = forClaim ? { open: !!(await opts.claimPartArrived?.(tx, r)) } : undefined;
      await recordReceipt(tx, id, receipt, now(), claim);
      const refund =
        amountCents > 0
          ? await insertRefund(
              tx,
              order,
              {
                kind: "return",
                returnId: id,
                netCents: receipt.refundNetCents,
                taxCents: receipt.refundTaxCents,
                shippingCents: 0,
              },
              refunds.gatewayName,
            )
          : null;
      const what = receipt.lines
        .map(
          (l) =>
            `line ${l.line}: ${l.receivedQty} ${receivedConditionLabels[l.condition].toLowerCase()}`,
        )
        .join(", ");
      await recordAdminAction(tx, {
        actor,
        action: "return.receive",
        target: { type: "return", id },
        summary: `Received ${rmaNumber(r.rmaNumber)}, a ${r.reason === "core" ? "core " : ""}return of order ${orderNumberText(order.number)} (${order.orderEmail}): ${what}; ${receipt.feeCents > 0 ? `restocking fee ${formatCents(receipt.feeCents, order.currency)}; ` : ""}${forClaim ? `kept for warranty claim ${claimNumber(r.warrantyClaim!)}` : `refunding ${formatCents(amountCents, order.currency)}`}`,
      });
      return refund?.id ?? null;
    });
    if (refundId) await refunds.run(refundId);
    return view(id);
  }

  /** Admin: tries a failed refund again (the same idempotency key: it cannot refund twice). */
  async function retryRefund(id: string, actor: AuditActor): Promise<Return> {
    const r = await loadReturn(db, id);
    if (r.status !== "refund_failed" && r.status !== "received") {
      throw conflict(`Only a return whose refund failed can be retried; this one is ${r.status}`);
    }
    const refund = await refundOfReturn(db, id);
    if (!refund) throw conflict("This return has no refund to retry");
    await db.transaction((tx) =>
      recordAdminAction(tx, {
        actor,
        action: "return.refund_retry",
        target: { type: "return", id },
        summary: `Retried the refund of ${rmaNumber(r.rmaNumber)}`,
      }),
    );
    await refunds.run(refund.id);
    return view(id);
  }

  return { receive, retryRefund };
}

export type ReceiveReturn = ReturnType<typeof createReceiveReturn>;
