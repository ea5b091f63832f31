import { eq } from "drizzle-orm";
import { warrantyMessages, type ClaimStatus } from "../../contract/warranty";
import type { DbOrTx } from "../db/database";
import { notFound } from "../errors";
import type { Membership } from "../http/request-context";
import type { Mailer } from "../mail/mailer";
import type { ClaimMailFacts } from "./mail";
import { returnRequests } from "../returns/tables";
import { warrantyClaimEvents, warrantyClaims } from "./tables";
import { summaries } from "./views";

/*
 * What every change of a claim shares (the service's filing and thread, and the decisions of
 * workflows/warranty-claims.ts): who may see it, the claim locked, a history entry with its status,
 * the claimant's email. The warranty module writes its tables here and in service.ts only.
 */

export type ClaimRow = typeof warrantyClaims.$inferSelect;

/** Who asks: the signed-in caller, and their company as the route's company hook read it. */
export interface ClaimCaller {
  id: string;
  role: string;
  name: string;
  email: string;
  company: Membership | null;
}

/** Owners and buyers act for their company's orders and claims; viewers only read invoices. */
export const actsForCompany = (company: Membership | null): company is Membership =>
  company !== null && (company.role === "owner" || company.role === "buyer");

/** Admins, the claimant, and their company's owners and buyers. */
export const canSeeClaim = (claim: ClaimRow, who: ClaimCaller) =>
  who.role === "admin" ||
  claim.userId === who.id ||
  (actsForCompany(who.company) && claim.companyId === who.company.companyId);

/** One claim the caller may see (404 for anyone else), locked for the transaction when `lock`. */
export async function loadClaim(tx: DbOrTx, id: string, who: ClaimCaller, lock = false) {
  const q = tx.select().from(warrantyClaims).where(eq(warrantyClaims.id, id));
  const [claim] = lock ? await q.for("update") : await q;
  if (!claim || !canSeeClaim(claim, who)) throw notFound(warrantyMessages.claimNotFound);
  return claim;
}

/**
 * An open claim's decision: its part's return (when asked back) locked first, then the claim, in
 * the order the returns' receiving takes them (the return, then the claim), so a decision and
 * the part's arrival at the same moment wait for each other instead of deadlocking. Answers the
 * claim and where its part's return stands (null: never asked back).
 */
export async function lockClaimToDecide(tx: DbOrTx, id: string, who: ClaimCaller) {
  const [peek] = await tx
    .select({ returnId: warrantyClaims.returnId })
    .from(warrantyClaims)
    .where(eq(warrantyClaims.id, id));
  const [partReturn] = peek?.returnId
    ? await tx
        .select({ status: returnRequests.status, rma: returnRequests.rmaNumber })
        .from(returnRequests)
        .where(eq(returnRequests.id, peek.returnId))
        .for("update")
    : [];
  const claim = await loadClaim(tx, id, who, true);
  return { claim, partReturn: partReturn ?? null };
}

/** What a claim's changes may set besides its status. */
export type ClaimChange = Partial<
  Pick<
    ClaimRow,
    | "rejectionReason"
    | "failureCode"
    | "findings"
    | "inspectedAt"
    | "returnId"
    | "remedy"
    | "replacementOrderId"
    | "decidedAt"
  >
>;

/** Writes one history entry and, when it changes the status, the claim's status. */
export async function recordClaimChange(
  tx: DbOrTx,
  claim: ClaimRow,
  event: { side: "customer" | "store"; author: string; body: string | null },
  status: ClaimStatus | null,
  at: Date,
  extra: ClaimChange = {},
): Promise<ClaimRow> {
  await tx.insert(warrantyClaimEvents).values({ claimId: claim.id, ...event, status, at });
  const [updated] = await tx
    .update(warrantyClaims)
    .set({ ...(status ? { status } : {}), ...extra, updatedAt: at })
    .where(eq(warrantyClaims.id, claim.id))
    .returning();
  return updated!;
}

/** The claimed units as the emails name them: "2 × Ceramic brake pads (PW-BK-3001)". */
export const claimedPart = (
  claim: Pick<ClaimRow, "qty">,
  s: { productName: string; partNumber: string | null },
) => `${claim.qty} × ${s.productName}${s.partNumber ? ` (${s.partNumber})` : ""}`;

export interface ClaimMail {
  mailer?: Pick<Mailer, "sendIn">;
  publicUrl: string;
}

/** Queues a claim's email to its claimant in the caller's transaction (sent once per `key`). */
export async function mailClaimant<F extends ClaimMailFacts>(
  tx: DbOrTx,
  opts: ClaimMail,
  claim: ClaimRow,
  key: string,
  build: (facts: F) => { subject: string; text: string; html: string },
  message: string | null = null,
  more?: Omit<F, keyof ClaimMailFacts>,
): Promise<void> {
  if (!opts.mailer) return;
  const [s] = await summaries(tx, [claim]);
  const part = claimedPart(claim, s!);
  const facts = {
    name: claim.claimantName,
    number: s!.number,
    orderId: claim.orderId,
    orderNumber: s!.orderNumber,
    part,
    message,
    publicUrl: opts.publicUrl,
    ...more,
  } as F;
  await opts.mailer.sendIn(tx, { to: claim.claimantEmail, ...build(facts) }, `warranty-${key}`);
}
