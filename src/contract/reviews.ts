import { z } from "zod";

/** A review as the public sees it: the author's name, never their email. */
export const reviewSchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  ratings: z.number().int().min(1).max(5),
  descreption: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type Review = z.infer<typeof reviewSchema>;
