import { count, desc, sql } from "drizzle-orm";
import type { Review, ReviewCreate, ReviewSummary } from "../../contract/reviews";
import type { DbOrTx } from "../db/database";
import { reviews } from "../db/schema";

type ReviewRow = typeof reviews.$inferSelect;

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
  };
}

export function createReviewService(db: DbOrTx) {
  return {
    async list(page: {
      limit: number;
      offset: number;
    }): Promise<{ items: Review[]; total: number }> {
      const [rows, [totalRow]] = await Promise.all([
        db
          .select()
          .from(reviews)
          .orderBy(desc(reviews.createdAt), desc(reviews.id))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ total: count() }).from(reviews),
      ]);
      return { items: rows.map(toReview), total: totalRow?.total ?? 0 };
    },

    async create(author: ReviewAuthor, input: ReviewCreate): Promise<Review> {
      const [row] = await db
        .insert(reviews)
        .values({
          userId: author.id,
          authorName: author.name,
          email: author.email,
          ratings: input.ratings,
          descreption: input.descreption,
        })
        .returning();
      if (!row) throw new Error("inserting a review returned no row");
      return toReview(row);
    },

    async summary(): Promise<ReviewSummary> {
      // PostgreSQL rounds numeric half away from zero, so 4.25 shows as 4.3 as people expect;
      // numeric comes back from the driver as a string, hence the mapping.
      const [row] = await db
        .select({
          average: sql<number>`coalesce(round(avg(${reviews.ratings}), 1), 0)`.mapWith(Number),
          count: count(),
        })
        .from(reviews);
      return { average: row?.average ?? 0, count: row?.count ?? 0 };
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
