import { discountOfUnits } from "../pricing/discounts";
import { and, eq } from "drizzle-orm";
import { rmaNumber } from "../../contract/returns";
import { warrantyMessages } from "../../contract/warranty";
import type { DbOrTx } from "../db/database";
import { conflict, unprocessable } from "../errors";
import type { OrderItemRow, OrderRow } from "../orders/state";
import { returnEventData } from "../webhooks/events";
import { recordWebhookEvent } from "../webhooks/outbox";
import { insertRefund, netOfPaid } from "./refunds";
import { loadReturn } from "./service";
import { returnedByLine } from "./returned-units";
import { returnLines, returnRequests } from "./tables";

/*
 * A warranty claim's part, asked back through the returns flow (docs/warranty.md "The part
 * back"): a return of reason `defective`, approved at once (the RMA and the returns address), whose
 * receipt waits for the claim's decision (`inspecting`) instead of refunding; the approval refunds
 * it by the returns' rules (the refund engine, its credit note), anything else closes it. The
 * returns module writes these rows; the warranty workflow (workflows/warranty-claims.ts) calls.
 */

type ReturnRow = typeof returnRequests.$inferSelect;

/** The RMA of a claim's units of `item`: what they would refund, as any return of them would. */
export async function openClaimReturn(
  tx: DbOrTx,
  order: OrderRow,
  item: OrderItemRow,
  claim: { number: number; qty: number; userId: string | null; instructions: string | null },
  at: Date,
): Promise<ReturnRow> {
  const taken = (await returnedByLine(tx, order.id)).get(item.line) ?? 0;
  const taxOf = (units: number) => Math.round((item.taxCents * units) / item.qty);
  const [row] = await tx
    .insert(returnRequests)
    .values({
      orderId: order.id,
      userId: claim.userId ?? order.userId,
      reason: "defective",
      status: "approved",
      warrantyClaim: claim.number,
      note: null,
      adminMessage: claim.instructions,
      requestedAt: at,
      decidedAt: at,
    })
    .returning();
  await tx.insert(returnLines).values({
    returnId: row!.id,
    line: item.line,
    qty: claim.qty,
    netCents: netOfPaid(
      order,
      item.unitPriceCents * claim.qty -
        (discountOfUnits(item, taken + claim.qty) - discountOfUnits(item, taken)),
      taxOf(taken + claim.qty) - taxOf(taken),
    ),
    taxCents: taxOf(taken + claim.qty) - taxOf(taken),
  });
  await recordWebhookEvent(tx, {
    type: "return.requested",
    data: returnEventData(row!, { reason: row!.reason }),
  });
  return row!;
}

/** A claim's received part, refunded: its return's refund row, for the refund engine to run. */
export async function refundClaimReturn(
  tx: DbOrTx,
  returnId: string,
  order: OrderRow,
  gatewayName: string,
) {
  const r = await loadReturn(tx, returnId, true);
  if (r.status !== "inspecting") {
    throw conflict(warrantyMessages.partOnItsWay(rmaNumber(r.rmaNumber)));
  }
  const lines = await tx.select().from(returnLines).where(eq(returnLines.returnId, returnId));
  const netCents = lines.reduce((s, l) => s + (l.refundNetCents ?? 0), 0);
  const taxCents = lines.reduce((s, l) => s + (l.refundTaxCents ?? 0), 0);
  if (netCents + taxCents <= 0) {
    throw unprocessable(warrantyMessages.nothingArrived(rmaNumber(r.rmaNumber)));
  }
  await tx.update(returnRequests).set({ status: "received" }).where(eq(returnRequests.id, r.id));
  return insertRefund(
    tx,
    order,
    { kind: "return", returnId, netCents, taxCents, shippingCents: 0 },
    gatewayName,
  );
}

/** A claim decided without a refund (a replacement, a rejection): its received part owes nothing. */
export async function closeClaimReturn(tx: DbOrTx, returnId: string): Promise<void> {
  const [closed] = await tx
    .update(returnRequests)
    .set({ status: "closed" })
    .where(and(eq(returnRequests.id, returnId), eq(returnRequests.status, "inspecting")))
    .returning({ id: returnRequests.id });
  if (!closed) return;
  await tx
    .update(returnLines)
    .set({ refundNetCents: 0, refundTaxCents: 0 })
    .where(eq(returnLines.returnId, returnId));
}
