import type { DbOrTx } from "../db/database";
import { reviews } from "./tables";

/** The demo's reviews (published: they were written before reviews waited for approval). */
export const demoReviews = [
  {
    authorName: "Marta Kowalski",
    email: "marta.kowalski@example.com",
    ratings: 5,
    descreption:
      "Ordered forty brake kits for our fleet workshop. Every box arrived labelled with the OE cross-reference and fitment was spot on.",
  },
  {
    authorName: "Daniel Okafor",
    email: "daniel.okafor@example.com",
    ratings: 4,
    descreption:
      "Good alternators at a fair wholesale price. Delivery took a day longer than promised, but support kept me posted the whole way.",
  },
  {
    authorName: "Sofia Lindqvist",
    email: "sofia.lindqvist@example.com",
    ratings: 5,
    descreption:
      "The radiators are properly finished, no sharp fins and the tanks are crimped cleanly. Our customers have had zero comebacks.",
  },
  {
    authorName: "Rahul Mehta",
    email: "rahul.mehta@example.com",
    ratings: 4,
    descreption:
      "Minimum order on spark plugs is sensible for a garage our size. Paying by card was quick and the invoice came straight away.",
  },
];

/** Adds the demo reviews, the newest an hour before `now`. */
export async function seedDemoReviews(tx: DbOrTx, now: number): Promise<void> {
  await tx
    .insert(reviews)
    .values(demoReviews.map((r, i) => ({ ...r, createdAt: new Date(now - (i + 1) * 3_600_000) })));
}
