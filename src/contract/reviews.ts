import { z } from "zod";
import { wholeNumber } from "./common";
import { text } from "./text";

export const MIN_RATING = 1;
export const MAX_RATING = 5;
export const MAX_REVIEW_LENGTH = 1000;

/** The exact texts a customer sees after adding a review (SPEC section 8). */
export const reviewMessages = {
  added: "Your review is added",
  failed: "there is a problem adding your review! try again",
  /** Shown besides `added` when the review waits for an admin (docs/reviews.md). */
  pending:
    "It will appear once we have checked it (reviews from customers with a paid order appear at once).",
} as const;

/** The mark on a review whose author had a paid or shipped order when they wrote it. */
export const VERIFIED_BUYER_LABEL = "Verified buyer";

/** Why approving a review fails when it is not waiting for approval. */
export const REVIEW_NOT_PENDING_MESSAGE = "This review is not awaiting approval";

/** A review as the public sees it: the author's name, never their email. */
export const reviewSchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  ratings: z.number().int().min(MIN_RATING).max(MAX_RATING),
  descreption: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  /** The author had a paid or shipped order when they posted it. */
  verifiedBuyer: z.boolean(),
});
export type Review = z.infer<typeof reviewSchema>;

const ratingMessage = "Choose a rating from 1 to 5";

/**
 * What a customer sends to add a review. Strict, because the author (name and email) comes from
 * the session: a body that tries to name one is refused rather than silently ignored.
 */
export const reviewCreateSchema = z.strictObject({
  ratings: wholeNumber(ratingMessage, MIN_RATING, MAX_RATING),
  descreption: text({ error: "Write your review" }, { multiline: true })
    .trim()
    .min(1, "Write your review")
    .max(MAX_REVIEW_LENGTH, "Must be 1000 characters or shorter"),
});
export type ReviewCreate = z.infer<typeof reviewCreateSchema>;

/**
 * The answer to adding a review. `pending`: the author has no paid order yet, so the review waits
 * for an admin's approval before it is listed and counted.
 */
export const reviewCreatedSchema = z.object({
  success: z.literal(true),
  review: reviewSchema,
  pending: z.boolean(),
});
export type ReviewCreated = z.infer<typeof reviewCreatedSchema>;

/** The average rating (one decimal; 0 when there are no reviews) and how many reviews there are. */
export const reviewSummarySchema = z.object({
  average: z.number().min(0).max(MAX_RATING),
  count: z.number().int().min(0),
});
export type ReviewSummary = z.infer<typeof reviewSummarySchema>;
