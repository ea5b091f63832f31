import { and, count, desc, eq, lte, or, type SQL } from "drizzle-orm";
import { dueDateWords } from "../../contract/payment-words";
import {
  CLAIM_PHOTO_FIELD,
  MAX_CLAIM_PHOTOS,
  claimNumber,
  isOpenClaim,
  warrantyMessages,
  type Claim,
  type Claimable,
  type ClaimInput,
  type ClaimInspection,
  type FailureCode,
  type FailureCodeInput,
  type ClaimMessageInput,
  type ClaimPhoto,
  type ClaimsQuery,
  type ClaimStatus,
  type ClaimSummary,
} from "../../contract/warranty";
import { recordAdminAction, type AuditActor } from "../audit/service";
import { type Clock, systemClock } from "../clock";
import { membershipOf } from "../companies/membership";
import type { Db, DbOrTx } from "../db/database";
import { pageOf } from "../db/page";
import { containsPattern } from "../db/like";
import { sql } from "../db/sql";
import { conflict, forbidden, HttpError, notFound, unprocessable } from "../errors";
import { STORE } from "../mail/layout";
import type { Mailer } from "../mail/mailer";
import { orderItems, orders } from "../orders/tables";
import type { FileStorage } from "../storage/storage";
import { checkVin } from "../vehicles/vin";
import {
  claimFiledMail,
  claimInspectedMail,
  claimQuestionMail,
  claimRejectedMail,
  type ClaimMailFacts,
} from "./mail";
import {
  checkPhotoUploads,
  photoOfRow,
  photoRows,
  refuseBeyondMax,
  storePhotos,
  type PhotoRule,
  type PhotoUpload,
} from "../photos/private";
import { claimableLines, dayOf } from "./eligibility";
import { closeClaimReturn } from "../returns/warranty-returns";
import {
  actsForCompany,
  canSeeClaim,
  loadClaim,
  lockClaimToDecide,
  mailClaimant,
  recordClaimChange,
  type ClaimCaller,
  type ClaimChange,
  type ClaimRow,
} from "./claim-writes";
import {
  warrantyClaimEvents,
  warrantyClaimPhotos,
  warrantyClaims,
  warrantyFailureCodes,
} from "./tables";
import { summaries, withEvents } from "./views";

export type { ClaimCaller } from "./claim-writes";

export interface WarrantyOptions {
  mailer?: Pick<Mailer, "sendIn">;
  publicUrl: string;
  now?: Clock;
  /** The file storage: claimants' photos are in its private `warranty-photos` area. */
  storage: FileStorage;
}

/** A claim's photos: up to MAX_CLAIM_PHOTOS, in field `photos`, said in the claims' words. */
export const claimPhotoRule: PhotoRule = {
  field: CLAIM_PHOTO_FIELD,
  max: MAX_CLAIM_PHOTOS,
  messages: warrantyMessages,
};

const fieldError = (field: string, message: string) =>
  new HttpError(400, "invalid_request", message, { [field]: message });

export function createWarrantyService(db: Db, opts: WarrantyOptions) {
  const now = opts.now ?? systemClock;

  /**
   * The order, when the caller may claim on it or see its claims: its buyer, their company's
   * owners and buyers, or an admin (404 for anyone else, as for an order of no one).
   */
  async function orderFor(tx: DbOrTx, orderId: string, who: ClaimCaller, lock = false) {
    const q = tx.select().from(orders).where(eq(orders.id, orderId));
    const [order] = lock ? await q.for("no key update") : await q;
    if (!order) throw notFound(warrantyMessages.orderNotFound);
    if (who.role === "admin" || order.userId === who.id) return order;
    if (actsForCompany(who.company) && order.userId) {
      const buyer = await membershipOf(tx, order.userId);
      if (buyer?.companyId === who.company.companyId) return order;
    }
    throw notFound(warrantyMessages.orderNotFound);
  }

  /** Writes one history entry and, when it changes the status, the claim's status. */
  const record = (
    tx: DbOrTx,
    claim: ClaimRow,
    event: { side: "customer" | "store"; author: string; body: string | null },
    status: ClaimStatus | null,
    extra: ClaimChange = {},
  ) => recordClaimChange(tx, claim, event, status, now(), extra);

  const mail = (
    tx: DbOrTx,
    claim: ClaimRow,
    key: string,
    build: (facts: ClaimMailFacts) => { subject: string; text: string; html: string },
    message: string | null = null,
  ) => mailClaimant(tx, opts, claim, key, build, message);

  const isOpen = (claim: ClaimRow) => isOpenClaim(claim.status);

  return {
    /** What of the order's lines may still be claimed under warranty, and until when. */
    async claimable(orderId: string, who: ClaimCaller): Promise<Claimable> {
      const order = await orderFor(db, orderId, who);
      return { lines: await claimableLines(db, order, now()) };
    },

    /**
     * A customer (or their company's owner or buyer) claims units of a shipped line within its
     * warranty. The order row is locked, as a return's request locks it, so claims and returns
     * at the same moment cannot take the same units twice.
     */
    async file(input: ClaimInput, who: ClaimCaller): Promise<Claim> {
      const vin = checkVin(input.vin, now());
      if (!vin.ok) throw new HttpError(400, "invalid_vin", vin.message, { vin: vin.message });
      const today = dayOf(now());
      if (input.installedOn > today) throw fieldError("installedOn", warrantyMessages.inFuture);
      if (input.failedOn > today) throw fieldError("failedOn", warrantyMessages.inFuture);
      return db.transaction(async (tx) => {
        const order = await orderFor(tx, input.orderId, who, true);
        if (input.installedOn < dayOf(order.createdAt)) {
          const placedOn = dueDateWords(order.createdAt);
          throw fieldError("installedOn", warrantyMessages.fittedBeforeOrdered(placedOn));
        }
        const line = (await claimableLines(tx, order, now())).find((l) => l.line === input.line);
        if (!line) throw unprocessable(warrantyMessages.noSuchLine(input.line));
        if (line.reason) throw unprocessable(line.reason);
        if (input.qty > line.claimable)
          throw unprocessable(warrantyMessages.tooMany(line.claimable));
        const at = now();
        const [claim] = await tx
          .insert(warrantyClaims)
          .values({
            orderId: order.id,
            line: input.line,
            qty: input.qty,
            userId: who.id,
            companyId: actsForCompany(who.company) ? who.company.companyId : null,
            claimantName: who.name,
            claimantEmail: who.email,
            vin: vin.vin,
            mileageAtInstall: input.mileageAtInstall,
            mileageAtFailure: input.mileageAtFailure,
            installedOn: input.installedOn,
            failedOn: input.failedOn,
            installedBy: input.installedBy,
            description: input.description,
            customerInvoiceRef: input.customerInvoiceRef || null,
            warrantyEndsOn: line.endsOn!,
            filedAt: at,
            updatedAt: at,
          })
          .returning();
        await tx.insert(warrantyClaimEvents).values({
          claimId: claim!.id,
          side: "customer",
          author: who.name,
          body: null,
          status: "submitted",
          at,
        });
        await mail(tx, claim!, `filed:${claim!.id}`, claimFiledMail);
        return (await withEvents(tx, [claim!], now()))[0]!;
      });
    },

    /** The order's claims the caller may see (its buyer, their company, admins). */
    async forOrder(orderId: string, who: ClaimCaller): Promise<Claim[]> {
      await orderFor(db, orderId, who);
      const rows = await db
        .select()
        .from(warrantyClaims)
        .where(eq(warrantyClaims.orderId, orderId))
        .orderBy(desc(warrantyClaims.filedAt), desc(warrantyClaims.id));
      return withEvents(
        db,
        rows.filter((r) => canSeeClaim(r, who)),
        now(),
      );
    },

    /** One claim with its history. */
    async get(id: string, who: ClaimCaller): Promise<Claim> {
      return (await withEvents(db, [await loadClaim(db, id, who)], now()))[0]!;
    },

    /**
     * Claims, newest first: every claim for admins (the queue), else the caller's own and, for a
     * company's owners and buyers, their company's. Filtered by status, part or number, failure
     * code, and age.
     */
    async list(
      query: ClaimsQuery,
      who: ClaimCaller,
    ): Promise<{ items: ClaimSummary[]; total: number }> {
      const conditions: (SQL | undefined)[] = [];
      if (who.role !== "admin") {
        conditions.push(
          or(
            eq(warrantyClaims.userId, who.id),
            actsForCompany(who.company)
              ? eq(warrantyClaims.companyId, who.company.companyId)
              : undefined,
          ),
        );
      }
      if (query.status) conditions.push(eq(warrantyClaims.status, query.status));
      if (query.failureCode) conditions.push(eq(warrantyClaims.failureCode, query.failureCode));
      if (query.olderThanDays !== undefined) {
        const before = new Date(now().getTime() - query.olderThanDays * 24 * 60 * 60 * 1000);
        conditions.push(lte(warrantyClaims.filedAt, before));
      }
      if (query.q) {
        const number = /^(?:wc-?)?(\d{1,9})$/i.exec(query.q)?.[1];
        const pattern = containsPattern(query.q);
        conditions.push(
          or(
            ...(number ? [eq(warrantyClaims.number, Number(number))] : []),
            sql`exists (select 1 from ${orderItems} where ${orderItems.orderId} = ${warrantyClaims.orderId} and ${orderItems.line} = ${warrantyClaims.line} and (lower(${orderItems.productName}) like ${pattern} or lower(coalesce(${orderItems.partNumber}, '')) like ${pattern}))`,
          ),
        );
      }
      const where = and(...conditions);
      const newestFirst = db
        .select()
        .from(warrantyClaims)
        .where(where)
        .orderBy(desc(warrantyClaims.filedAt), desc(warrantyClaims.id));
      const { rows, total } = await pageOf(db, newestFirst, warrantyClaims, where, query);
      return { items: await summaries(db, rows, now()), total };
    },

    /**
     * A message on the claim's thread. The claimant's side answering a question sends the claim
     * back to the store (`submitted`); the store may ask a question (`information_requested`,
     * emailed). Nothing more is said on a decided claim.
     */
    async message(id: string, who: ClaimCaller, input: ClaimMessageInput): Promise<Claim> {
      const store = who.role === "admin";
      if (input.askForInformation && !store) throw forbidden("Only the store asks for information");
      return db.transaction(async (tx) => {
        const claim = await loadClaim(tx, id, who, true);
        if (!isOpen(claim)) throw conflict(warrantyMessages.notOpen);
        const status: ClaimStatus | null = store
          ? input.askForInformation
            ? "information_requested"
            : null
          : claim.status === "information_requested"
            ? "submitted"
            : null;
        const updated = await record(
          tx,
          claim,
          {
            side: store ? "store" : "customer",
            author: store ? STORE : who.name,
            body: input.body,
          },
          status,
        );
        if (status === "information_requested") {
          await recordAdminAction(tx, {
            actor: who as AuditActor,
            action: "warranty.ask",
            target: { type: "warranty_claim", id },
            summary: `Asked for more information on warranty claim ${claimNumber(claim.number)}`,
          });
          await mail(
            tx,
            updated,
            `ask:${id}:${updated.updatedAt.getTime()}`,
            claimQuestionMail,
            input.body,
          );
        }
        return (await withEvents(tx, [updated], now()))[0]!;
      });
    },

    /**
     * The claimant's side adds photos of the failed part while the claim is open, up to
     * MAX_CLAIM_PHOTOS in all. Every photo is checked before any is written; a refusal or a failed
     * write leaves no file and no row behind (photos/private.ts).
     */
    async addPhotos(id: string, who: ClaimCaller, uploads: PhotoUpload[]): Promise<ClaimPhoto[]> {
      if (who.role === "admin") throw forbidden("Photos are added by the claimant");
      const photos = checkPhotoUploads(uploads, claimPhotoRule);
      const added = await storePhotos(opts.storage, "warranty-photos", photos, (write) =>
        db.transaction(async (tx) => {
          // Locked: two uploads at once cannot pass the count together.
          const claim = await loadClaim(tx, id, who, true);
          if (!isOpen(claim)) {
            throw new HttpError(409, "conflict", warrantyMessages.photosClosed);
          }
          const [had] = await tx
            .select({ n: count() })
            .from(warrantyClaimPhotos)
            .where(eq(warrantyClaimPhotos.claimId, id));
          refuseBeyondMax(claimPhotoRule, photos, had?.n ?? 0);
          await write();
          await tx
            .insert(warrantyClaimPhotos)
            .values(photoRows(photos, now().getTime()).map((row) => ({ ...row, claimId: id })));
          return (await withEvents(tx, [claim], now()))[0]!.photos;
        }),
      );
      return added;
    },

    /** One photo (streamed) and its type, for those who see the claim. */
    async photo(id: string, photoId: string, who: ClaimCaller) {
      await loadClaim(db, id, who);
      const [row] = await db
        .select()
        .from(warrantyClaimPhotos)
        .where(and(eq(warrantyClaimPhotos.id, photoId), eq(warrantyClaimPhotos.claimId, id)));
      return photoOfRow(opts.storage, "warranty-photos", row);
    },

    /** Admin: the failure codes, in use first, then by code. */
    async failureCodes(): Promise<FailureCode[]> {
      return db
        .select({
          code: warrantyFailureCodes.code,
          label: warrantyFailureCodes.label,
          active: warrantyFailureCodes.active,
        })
        .from(warrantyFailureCodes)
        .orderBy(desc(warrantyFailureCodes.active), warrantyFailureCodes.code);
    },

    /** Admin: adds a failure code, or renames one or retires it (audited). */
    async setFailureCode(
      code: string,
      input: FailureCodeInput,
      actor: AuditActor,
    ): Promise<FailureCode> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(warrantyFailureCodes)
          .values({ code, ...input })
          .onConflictDoUpdate({ target: warrantyFailureCodes.code, set: input })
          .returning();
        await recordAdminAction(tx, {
          actor,
          action: "warranty.failure-code",
          target: { type: "warranty_failure_code", id: code },
          summary: `Set failure code ${code}: ${input.label}${input.active ? "" : " (retired)"}`,
        });
        return { code: row!.code, label: row!.label, active: row!.active };
      });
    },

    /**
     * Admin: what the inspection of the part (or its photos) found: a failure code in use and
     * the findings, shown to the claimant and emailed. An inspected claim may be inspected again
     * (the last inspection stands; each is in the history).
     */
    async inspect(
      id: string,
      input: ClaimInspection,
      actor: ClaimCaller & AuditActor,
    ): Promise<Claim> {
      return db.transaction(async (tx) => {
        const claim = await loadClaim(tx, id, actor, true);
        if (!isOpen(claim)) throw conflict(warrantyMessages.notOpen);
        const [code] = await tx
          .select()
          .from(warrantyFailureCodes)
          .where(eq(warrantyFailureCodes.code, input.failureCode));
        if (!code?.active) throw fieldError("failureCode", warrantyMessages.unknownFailureCode);
        const updated = await record(
          tx,
          claim,
          { side: "store", author: STORE, body: `${code.label}: ${input.findings}` },
          "inspected",
          { failureCode: code.code, findings: input.findings, inspectedAt: now() },
        );
        await recordAdminAction(tx, {
          actor,
          action: "warranty.inspect",
          target: { type: "warranty_claim", id },
          summary: `Inspected warranty claim ${claimNumber(claim.number)}: ${code.code} ${code.label}`,
        });
        await mail(
          tx,
          updated,
          `inspected:${id}:${updated.updatedAt.getTime()}`,
          claimInspectedMail,
          `${code.label}: ${input.findings}`,
        );
        return (await withEvents(tx, [updated], now()))[0]!;
      });
    },

    /**
     * Admin: rejects an open claim with the reason, shown to the claimant and emailed. A part
     * that came back refunds nothing (its return is closed); one still on its way is closed when
     * it arrives.
     */
    async reject(id: string, reason: string, actor: ClaimCaller & AuditActor): Promise<Claim> {
      return db.transaction(async (tx) => {
        const { claim } = await lockClaimToDecide(tx, id, actor);
        if (!isOpen(claim)) throw conflict(warrantyMessages.notOpen);
        if (claim.returnId) await closeClaimReturn(tx, claim.returnId);
        const updated = await record(
          tx,
          claim,
          { side: "store", author: STORE, body: reason },
          "rejected",
          { rejectionReason: reason, decidedAt: now() },
        );
        await recordAdminAction(tx, {
          actor,
          action: "warranty.reject",
          target: { type: "warranty_claim", id },
          summary: `Rejected warranty claim ${claimNumber(claim.number)}: ${reason}`,
        });
        await mail(tx, updated, `rejected:${id}`, claimRejectedMail, reason);
        return (await withEvents(tx, [updated], now()))[0]!;
      });
    },
  };
}

export type WarrantyService = ReturnType<typeof createWarrantyService>;
