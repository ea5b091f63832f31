import { and, count, desc, eq, gt, inArray, isNotNull, isNull } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  REVIEW_NOT_PENDING_MESSAGE,
  type Review,
  type ReviewCreate,
  type ReviewSummary,
} from "../../contract/reviews";
import type { DbOrTx } from "../db/database";
import { conflict, HttpError, notFound } from "../errors";
import { orders } from "../orders/tables";
import { reviews } from "./tables";
import { recordAdminAction, type AuditActor } from "../audit/service";
import { advisoryLocks, lockWithin } from "../db/advisory-locks";
import { pageOf } from "../db/page";

type ReviewRow = typeof reviews.$inferSelect;

/** A customer may post one review per rolling week (hidden ones count; deleted ones do not). */
export const REVIEW_PERIOD_DAYS = 7;
export const REVIEW_PERIOD_MESSAGE = "You can post one review a week. Please come back later.";

/** Public: neither hidden by an admin nor waiting for approval. */
const shown = and(isNull(reviews.hiddenAt), isNull(reviews.pendingSince));
/** The admin's queue: waiting for approval (a hidden one is in the hidden list instead). */
const pending = and(isNotNull(reviews.pendingSince), isNull(reviews.hiddenAt));
const hiddenOnes = isNotNull(reviews.hiddenAt);

/** The order statuses that make an account a verified buyer: the money was taken. */
export const BUYER_ORDER_STATUSES = ["paid", "shipped"] as const;

export type ReviewListKind = "public" | "hidden" | "pending";

/** Who writes a review: always the signed-in user, never what the request body claims. */
export interface ReviewAuthor {
  id: string;
  name: string;
  email: string;
}

export function toReview(row: ReviewRow): Review {
  return {
    _id: row.id,
    name: row.authorName,
    ratings: row.ratings,
    descreption: row.descreption,
    createdAt: row.createdAt.toISOString(),
    verifiedBuyer: row.verifiedBuyer,
  };
}

/** Reviews have no foreign key (demo reviews have no account): a removed author's stay, detached. */
export async function detachReviewsOf(tx: DbOrTx, userId: string): Promise<void> {
  await tx.update(reviews).set({ userId: null }).where(eq(reviews.userId, userId));
}

export function createReviewService(db: DbOrTx) {
  return {
    /**
     * The public reviews, the ones an admin hid (`hidden`), or the ones waiting for approval
     * (`pending`), newest first.
     */
    async list(
      page: { limit: number; offset: number },
      kind: ReviewListKind = "public",
    ): Promise<{ items: Review[]; total: number }> {
      const which = kind === "hidden" ? hiddenOnes : kind === "pending" ? pending : shown;
      const { rows, total } = await pageOf(
        db,
        db.select().from(reviews).where(which).orderBy(desc(reviews.createdAt), desc(reviews.id)),
        reviews,
        which,
        page,
      );
      return { items: rows.map(toReview), total };
    },

    /**
     * Adds the author's review. A verified buyer's (a paid or shipped order) is published at once;
     * anyone else's waits for an admin's approval (`pending`).
     */
    async create(
      author: ReviewAuthor,
      input: ReviewCreate,
    ): Promise<{ review: Review; pending: boolean }> {
      return db.transaction(async (tx) => {
        // One author's posts take turns, so two at once cannot both find the week free.
        await tx.execute(lockWithin(advisoryLocks.perReviewAuthor, author.id));
        const [recent] = await tx
          .select({ id: reviews.id })
          .from(reviews)
          .where(
            and(
              eq(reviews.userId, author.id),
              gt(reviews.createdAt, sql`now() - make_interval(days => ${REVIEW_PERIOD_DAYS})`),
            ),
          )
          .limit(1);
        if (recent) throw new HttpError(429, "review_limit", REVIEW_PERIOD_MESSAGE);
        const [bought] = await tx
          .select({ id: orders.id })
          .from(orders)
          .where(and(eq(orders.userId, author.id), inArray(orders.status, BUYER_ORDER_STATUSES)))
          .limit(1);
        const verifiedBuyer = bought !== undefined;
        const [row] = await tx
          .insert(reviews)
          .values({
            userId: author.id,
            authorName: author.name.slice(0, 80),
            email: author.email,
            ratings: input.ratings,
            descreption: input.descreption,
            verifiedBuyer,
            pendingSince: verifiedBuyer ? null : sql`now()`,
          })
          .returning();
        if (!row) throw new Error("inserting a review returned no row");
        return { review: toReview(row), pending: row.pendingSince !== null };
      });
    },

    /** Admin: hide a review (out of the list, the average and the count) or show it again. */
    async setHidden(id: string, hidden: boolean, actor: AuditActor): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .update(reviews)
          .set({ hiddenAt: hidden ? sql`coalesce(${reviews.hiddenAt}, now())` : null })
          .where(eq(reviews.id, id))
          .returning({ id: reviews.id, author: reviews.authorName, ratings: reviews.ratings });
        if (!row) throw notFound("No such review");
        await recordAdminAction(tx, {
          actor,
          action: hidden ? "review.hide" : "review.show",
          target: { type: "review", id },
          summary: `${hidden ? "Hid" : "Showed"} the ${row.ratings}-star review by ${row.author}`,
        });
      });
    },

    /** Admin: publish a review that waits for approval (into the list, the average and the count). */
    async approve(id: string, actor: AuditActor): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .update(reviews)
          .set({ pendingSince: null })
          .where(and(eq(reviews.id, id), isNotNull(reviews.pendingSince)))
          .returning({ id: reviews.id, author: reviews.authorName, ratings: reviews.ratings });
        if (!row) {
          const [exists] = await tx
            .select({ id: reviews.id })
            .from(reviews)
            .where(eq(reviews.id, id));
          if (!exists) throw notFound("No such review");
          throw conflict(REVIEW_NOT_PENDING_MESSAGE);
        }
        await recordAdminAction(tx, {
          actor,
          action: "review.approve",
          target: { type: "review", id },
          summary: `Approved the ${row.ratings}-star review by ${row.author}`,
        });
      });
    },

    /** Admin: delete a review for good. */
    async remove(id: string, actor: AuditActor): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .delete(reviews)
          .where(eq(reviews.id, id))
          .returning({ id: reviews.id, author: reviews.authorName, ratings: reviews.ratings });
        if (!row) throw notFound("No such review");
        await recordAdminAction(tx, {
          actor,
          action: "review.delete",
          target: { type: "review", id },
          summary: `Deleted the ${row.ratings}-star review by ${row.author}`,
        });
      });
    },

    async summary(): Promise<ReviewSummary> {
      // PostgreSQL rounds numeric half away from zero, so 4.25 shows as 4.3 as people expect;
      // numeric comes back from the driver as a string, hence the mapping.
      const [row] = await db
        .select({
          average: sql<number>`coalesce(round(avg(${reviews.ratings}), 1), 0)`.mapWith(Number),
          count: count(),
        })
        .from(reviews)
        .where(shown);
      return { average: row?.average ?? 0, count: row?.count ?? 0 };
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
