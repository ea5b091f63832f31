import { z } from "zod";
import { idParam, pagingQuerySchema } from "./common";
import { text } from "./text";

/*
 * The admin's backorder queue (docs/inventory.md "The backorder queue"): every order line with
 * units still waiting for supply, across all parts, first placed first (the order supply fills
 * them in), with the date promised to each.
 */

/** `GET /api/backorders`: paged; by part, and a search of the order, buyer, company or part. */
export const backorderQueueQuerySchema = pagingQuerySchema.extend({
  productId: idParam().optional(),
  q: text().trim().max(100).optional(),
});
export type BackorderQueueQuery = z.infer<typeof backorderQueueQuerySchema>;

/** One order line's units waiting for supply. */
export const queuedBackorderSchema = z.object({
  /** The backorder's id (one per order line). */
  id: z.uuid(),
  orderId: z.uuid(),
  /** `PW-100234` */
  orderNumber: z.string(),
  line: z.number().int(),
  /** The buyer as the order names them, and their email. */
  customerName: z.string(),
  customerEmail: z.string(),
  /** The buyer's company (the one they order for now, else the ship-to's); null: none. */
  companyName: z.string().nullable(),
  productId: z.uuid(),
  productName: z.string(),
  partNumber: z.string(),
  /** Units put on backorder when the order was placed. */
  qty: z.number().int(),
  /** Units still waiting for supply. */
  waiting: z.number().int(),
  /** The date promised now (YYYY-MM-DD); null: no date yet. */
  promisedOn: z.iso.date().nullable(),
  /** When the order was placed (its place in the queue). */
  placedAt: z.iso.datetime({ offset: true }),
  /** The buyer's choice: the whole order ships in one go once every unit is there. */
  shipComplete: z.boolean(),
});
export type QueuedBackorder = z.infer<typeof queuedBackorderSchema>;

/** The queue's words, word for word on both sides. */
export const backorderQueueWords = {
  noDate: "no date yet",
  empty: "No units wait on backorder.",
  noMatch: (q: string) => `No backorder matches “${q}”.`,
  shipsComplete: "Ships complete",
  shipsWhatIsThere: "Ships what is there",
} as const;
