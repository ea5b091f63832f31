import { z } from "zod";
import { text } from "./text";

export const MIN_RATING = 1;
export const MAX_RATING = 5;
export const MAX_REVIEW_LENGTH = 1000;

/** The exact texts a customer sees after adding a review (SPEC section 8). */
export const reviewMessages = {
  added: "Your review is added",
  failed: "there is a problem adding your review! try again",
} as const;

/** A review as the public sees it: the author's name, never their email. */
export const reviewSchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  ratings: z.number().int().min(MIN_RATING).max(MAX_RATING),
  descreption: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type Review = z.infer<typeof reviewSchema>;

const ratingMessage = "Choose a rating from 1 to 5";

/**
 * What a customer sends to add a review. Strict, because the author (name and email) comes from
 * the session: a body that tries to name one is refused rather than silently ignored.
 */
export const reviewCreateSchema = z.strictObject({
  ratings: z
    .number({ error: ratingMessage })
    .int(ratingMessage)
    .min(MIN_RATING, ratingMessage)
    .max(MAX_RATING, ratingMessage),
  descreption: text({ error: "Write your review" }, { multiline: true })
    .trim()
    .min(1, "Write your review")
    .max(MAX_REVIEW_LENGTH, "Must be 1000 characters or shorter"),
});
export type ReviewCreate = z.infer<typeof reviewCreateSchema>;

export const reviewCreatedSchema = z.object({ success: z.literal(true), review: reviewSchema });
export type ReviewCreated = z.infer<typeof reviewCreatedSchema>;

/** The average rating (one decimal; 0 when there are no reviews) and how many reviews there are. */
export const reviewSummarySchema = z.object({
  average: z.number().min(0).max(MAX_RATING),
  count: z.number().int().min(0),
});
export type ReviewSummary = z.infer<typeof reviewSummarySchema>;
