import { eq } from "drizzle-orm";
import { rmaNumber } from "../../contract/returns";
import {
  claimNumber,
  claimRemedyLabels,
  isOpenClaim,
  warrantyMessages,
  type Claim,
  type ClaimApproval,
  type ClaimPartRequest,
} from "../../contract/warranty";
import { recordAdminAction, type AuditActor } from "../audit/service";
import { placeReplacement } from "../checkout/replacement";
import { type Clock, systemClock } from "../clock";
import type { ContactDetails } from "../config";
import type { DbOrTx } from "../db/database";
import { conflict, unprocessable } from "../errors";
import type { Inventory } from "../inventory/service";
import { STORE } from "../mail/layout";
import { linesOf, lockOrder } from "../orders/state";
import type { returnRequests } from "../returns/tables";
import { closeClaimReturn, openClaimReturn, refundClaimReturn } from "../returns/warranty-returns";
import {
  lockClaimToDecide,
  mailClaimant,
  recordClaimChange,
  type ClaimCaller,
  type ClaimMail,
  type ClaimRow,
} from "../warranty/claim-writes";
import { claimApprovedMail, claimPartReceivedMail, claimPartRequestedMail } from "../warranty/mail";
import { warrantyClaims } from "../warranty/tables";
import { withEvents } from "../warranty/views";
import type { Refunds } from "./refund";

export interface ClaimDecisionOptions extends ClaimMail {
  /** The returns address the part is sent to (the Contact page's). */
  contact?: Pick<ContactDetails, "returnsAddress">;
  now?: Clock;
}

type Admin = ClaimCaller & AuditActor;

const isOpen = (claim: ClaimRow) => isOpenClaim(claim.status);

/**
 * A warranty claim's decisions that reach other modules (docs/warranty.md "Its life"): the part
 * asked back through a return (an RMA, returns/warranty-returns.ts), its arrival (from the
 * returns' receiving), and the approval: a $0 replacement order through the order path's write
 * (checkout/replacement.ts), or the returned part's refund by the returns' rules (the refund
 * engine, its credit note). Each locks the claim first: two clicks at once decide once.
 */
export function createClaimDecisions(
  inventory: Inventory,
  refunds: Refunds,
  opts: ClaimDecisionOptions,
) {
  const db = inventory.db;
  const now = opts.now ?? systemClock;
  const view = async (tx: DbOrTx, row: ClaimRow): Promise<Claim> =>
    (await withEvents(tx, [row], now()))[0]!;

  /**
   * The claim, locked and still open (its part's return locked before it: lockClaimToDecide),
   * with its order locked and the claimed line.
   */
  async function openClaim(tx: DbOrTx, id: string, actor: Admin) {
    const { claim, partReturn } = await lockClaimToDecide(tx, id, actor);
    if (!isOpen(claim)) throw conflict(warrantyMessages.notOpen);
    const order = (await lockOrder(tx, claim.orderId))!;
    const item = (await linesOf(tx, [order.id])).find((i) => i.line === claim.line)!;
    return { claim, partReturn, order, item };
  }

  const audit = (tx: DbOrTx, actor: Admin, claim: ClaimRow, action: string, summary: string) =>
    recordAdminAction(tx, {
      actor,
      action: `warranty.${action}`,
      target: { type: "warranty_claim", id: claim.id },
      summary: `${summary} (warranty claim ${claimNumber(claim.number)})`,
    });

  /** The claim's units are asked back: a return approved at once, its RMA and address emailed. */
  async function requestPart(id: string, input: ClaimPartRequest, actor: Admin): Promise<Claim> {
    return db.transaction(async (tx) => {
      const { claim, order, item } = await openClaim(tx, id, actor);
      if (claim.returnId) {
        throw conflict(warrantyMessages.partAsked((await view(tx, claim)).partReturn!.rma));
      }
      const instructions = input.instructions || null;
      const r = await openClaimReturn(
        tx,
        order,
        item,
        { number: claim.number, qty: claim.qty, userId: claim.userId, instructions },
        now(),
      );
      const rma = rmaNumber(r.rmaNumber);
      const updated = await recordClaimChange(
        tx,
        claim,
        {
          side: "store",
          author: STORE,
          body: `Please send the part back with return ${rma}${instructions ? `: ${instructions}` : ""}`,
        },
        "part_requested",
        now(),
        { returnId: r.id },
      );
      await audit(tx, actor, claim, "request-part", `Asked for the part back as ${rma}`);
      await mailClaimant(tx, opts, updated, `part:${id}`, claimPartRequestedMail, instructions, {
        rma,
        returnsAddress: opts.contact?.returnsAddress ?? [],
      });
      return view(tx, updated);
    });
  }

  /**
   * The returns' receiving found a claim's part (in its transaction): the claim, when still open,
   * waits for the inspection (`part_received`, emailed) and the return for the claim's decision.
   * Answers whether the claim is open (else the return owes nothing and is closed).
   */
  async function partArrived(
    tx: DbOrTx,
    r: Pick<typeof returnRequests.$inferSelect, "id" | "rmaNumber">,
  ): Promise<boolean> {
    const [claim] = await tx
      .select()
      .from(warrantyClaims)
      .where(eq(warrantyClaims.returnId, r.id))
      .for("update");
    if (!claim || !isOpen(claim)) return false;
    const rma = rmaNumber(r.rmaNumber);
    const updated = await recordClaimChange(
      tx,
      claim,
      { side: "store", author: STORE, body: `The part arrived (${rma})` },
      "part_received",
      now(),
    );
    await mailClaimant(tx, opts, updated, `arrived:${claim.id}`, claimPartReceivedMail, null, {
      rma,
    });
    return true;
  }

  /**
   * Approves an open claim whose part is not on its way: a replacement on a $0 order (shipped as
   * any order, its tracking on the claim), or the returned part's refund (the card; on account a
   * credit note) once it came back.
   */
  async function approve(id: string, input: ClaimApproval, actor: Admin): Promise<Claim> {
    const decide = async (tx: DbOrTx, stock: Parameters<typeof placeReplacement>[1]) => {
      const { claim, partReturn, order, item } = await openClaim(tx, id, actor);
      // Asked back and not arrived yet: the decision waits for the part (or is a rejection).
      if (partReturn?.status === "approved") {
        throw conflict(warrantyMessages.partOnItsWay(rmaNumber(partReturn.rma)));
      }
      const number = claimNumber(claim.number);
      let refundId: string | null = null;
      let replacement: { id: string; number: string } | null = null;
      if (input.remedy === "refund") {
        if (!claim.returnId) throw unprocessable(warrantyMessages.refundNeedsPart);
        refundId = (await refundClaimReturn(tx, claim.returnId, order, refunds.gatewayName)).id;
      } else {
        const placed = await placeReplacement(tx, stock, {
          order,
          item,
          qty: claim.qty,
          claim: number,
        });
        replacement = { id: placed._id, number: placed.number };
        if (claim.returnId) await closeClaimReturn(tx, claim.returnId);
      }
      const message = input.message || null;
      const updated = await recordClaimChange(
        tx,
        claim,
        {
          side: "store",
          author: STORE,
          body: `Approved: ${claimRemedyLabels[input.remedy]}${replacement ? ` (order ${replacement.number})` : ""}${message ? `. ${message}` : ""}`,
        },
        "approved",
        now(),
        { remedy: input.remedy, replacementOrderId: replacement?.id ?? null, decidedAt: now() },
      );
      await audit(
        tx,
        actor,
        claim,
        "approve",
        `Approved with ${replacement ? `replacement order ${replacement.number}` : "a refund of the returned part"}`,
      );
      await mailClaimant(tx, opts, updated, `approved:${id}`, claimApprovedMail, message, {
        replacementOrder: replacement?.number ?? null,
      });
      return { updated, refundId };
    };
    const { updated, refundId } = await inventory.transaction((stock, tx) => decide(tx, stock));
    // The money goes back through the gateway outside the transaction, as a return's does.
    if (refundId) await refunds.run(refundId);
    return view(db, updated);
  }

  return { requestPart, partArrived, approve };
}

export type ClaimDecisions = ReturnType<typeof createClaimDecisions>;
