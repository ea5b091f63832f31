import { and, eq } from "drizzle-orm";
import {
  lineReceipt,
  returnMessages,
  type ReceivedCondition,
  type RestockingFee,
  type ReturnReason,
} from "../../contract/returns";
import type { DbOrTx } from "../db/database";
import { saveSettingsRow, settingsRowOf } from "../db/settings-row";
import { unprocessable } from "../errors";
import { returnLines, returnRequests, returnSettings } from "./tables";
import { centsToUnits } from "../money";
import { returnEventData } from "../webhooks/events";
import { recordWebhookEvent } from "../webhooks/outbox";

/** A line of a return as it was asked for: quantity, and what it refunds (net and tax). */
interface AskedLine {
  line: number;
  qty: number;
  netCents: number;
  taxCents: number;
}

/** What the admin found for a line. */
export interface ReceivedLine {
  line: number;
  qty: number;
  condition: ReceivedCondition;
}

export interface ReceiptLine {
  line: number;
  receivedQty: number;
  condition: ReceivedCondition;
  refundNetCents: number;
  refundTaxCents: number;
  feeCents: number;
  /** Units that go back on sale: only what came back as new (never a core). */
  restock: number;
}

export interface Receipt {
  lines: ReceiptLine[];
  refundNetCents: number;
  refundTaxCents: number;
  feeCents: number;
}

/** No fee: the rule before an admin sets one. */
export const NO_FEE: RestockingFee = { percent: 0, conditions: [] };

/**
 * The receive rule (docs/returns.md, "Receiving"), a pure function: every line of the return
 * said once, at most what was sent back; each line's figures are the contract's `lineReceipt`.
 */
export function receiveRule(
  reason: ReturnReason,
  asked: AskedLine[],
  received: ReceivedLine[],
  fee: RestockingFee,
): Receipt {
  const byLine = new Map<number, ReceivedLine>();
  for (const r of received) {
    if (!asked.some((a) => a.line === r.line)) {
      throw unprocessable(returnMessages.receiveNoSuchLine(r.line));
    }
    if (byLine.has(r.line)) throw unprocessable(`Line ${r.line} is listed twice`);
    byLine.set(r.line, r);
  }
  const lines = [...asked]
    .sort((a, b) => a.line - b.line)
    .map((a): ReceiptLine => {
      const r = byLine.get(a.line);
      if (!r) throw unprocessable(returnMessages.receiveAllLines(a.line));
      if (r.qty > a.qty) throw unprocessable(returnMessages.receiveTooMany(a.line, a.qty));
      return {
        line: a.line,
        receivedQty: r.qty,
        condition: r.condition,
        ...lineReceipt(reason, a, r, fee),
      };
    });
  return {
    lines,
    refundNetCents: lines.reduce((s, l) => s + l.refundNetCents, 0),
    refundTaxCents: lines.reduce((s, l) => s + l.refundTaxCents, 0),
    feeCents: lines.reduce((s, l) => s + l.feeCents, 0),
  };
}

/** The restocking-fee rule in force (no row: no fee). */
export async function restockingFee(tx: DbOrTx): Promise<RestockingFee> {
  const row = await settingsRowOf(tx, returnSettings);
  return row ? { percent: row.restockingFeePercent, conditions: row.feeConditions } : NO_FEE;
}

/** Admin: sets the restocking-fee rule (later receipts only). */
export async function setRestockingFee(tx: DbOrTx, fee: RestockingFee, at: Date): Promise<void> {
  await saveSettingsRow(tx, returnSettings, {
    restockingFeePercent: fee.percent,
    feeConditions: fee.conditions,
    updatedAt: at,
  });
}

/**
 * Writes what arrived on each line and the return's new status, in the caller's transaction
 * (workflows/receive-return.ts): `received` when money is owed back, `closed` when nothing is;
 * a warranty claim's part (`claim`) `inspecting` while its claim is open (its decision says
 * what it owes), else `closed`.
 */
export async function recordReceipt(
  tx: DbOrTx,
  id: string,
  receipt: Receipt,
  at: Date,
  claim?: { open: boolean },
): Promise<void> {
  // A decided claim's part owes nothing; an open claim's keeps what it would refund, for its decision.
  const owesNothing = claim !== undefined && !claim.open;
  for (const l of receipt.lines) {
    await tx
      .update(returnLines)
      .set({
        receivedQty: l.receivedQty,
        condition: l.condition,
        refundNetCents: owesNothing ? 0 : l.refundNetCents,
        refundTaxCents: owesNothing ? 0 : l.refundTaxCents,
        feeCents: l.feeCents,
      })
      .where(and(eq(returnLines.returnId, id), eq(returnLines.line, l.line)));
  }
  const owed = receipt.refundNetCents + receipt.refundTaxCents > 0;
  const [row] = await tx
    .update(returnRequests)
    .set({
      status: claim ? (claim.open ? "inspecting" : "closed") : owed ? "received" : "closed",
      receivedAt: at,
    })
    .where(eq(returnRequests.id, id))
    .returning();
  if (row) {
    await recordWebhookEvent(tx, {
      type: "return.received",
      data: returnEventData(row, {
        refund: centsToUnits(receipt.refundNetCents + receipt.refundTaxCents),
      }),
    });
  }
}
