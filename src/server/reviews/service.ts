import { count, desc } from "drizzle-orm";
import type { Review } from "../../contract/reviews";
import type { DbOrTx } from "../db/database";
import { reviews } from "../db/schema";

type ReviewRow = typeof reviews.$inferSelect;

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
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
