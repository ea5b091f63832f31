import { sql } from "../db/sql";
import { boolean, check, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestampNow, timestampTz, uuidPrimaryKey } from "../db/columns";

export const reviews = pgTable(
  "reviews",
  {
    id: uuidPrimaryKey(),
    /** The author's account; null for demo reviews and for authors whose account was removed. */
    userId: text("user_id"),
    authorName: text("author_name").notNull(),
    email: text("email").notNull(),
    ratings: integer("ratings").notNull(),
    descreption: text("descreption").notNull(),
    createdAt: timestampNow("created_at"),
    /** Set when an admin hides the review: it leaves the public list, the average and the count. */
    hiddenAt: timestampTz("hidden_at"),
    /**
     * Set when the review was posted by an account without a paid (or shipped) order: it waits for
     * an admin's approval, out of the public list, the average and the count (docs/reviews.md).
     * Null: published. Existing and demo reviews are published.
     */
    pendingSince: timestampTz("pending_since"),
    /** The author had a paid or shipped order when they posted it: shown as "Verified buyer". */
    verifiedBuyer: boolean("verified_buyer").notNull().default(false),
  },
  (t) => [
    check("reviews_ratings_range", sql`${t.ratings} between 1 and 5`),
    index("reviews_user_created_idx").on(t.userId, t.createdAt),
    index("reviews_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);
