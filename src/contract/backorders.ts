import { z } from "zod";
import { idParamsSchema } from "./common";
import { dueDateWords } from "./payment-words";

/*
 * Backorders (docs/inventory.md "Backorders"): units of an order line not on the shelf when it
 * was placed, each waiting for supply with the date it is promised. The words every page and
 * email uses for them.
 */

/** A promised date as pages and emails say it ("12 Jan 2027"); none: "date to be confirmed". */
export const promisedWords = (on: string | null): string =>
  on ? `expected ${dueDateWords(on)}` : "date to be confirmed";

export const backorderMessages = {
  /** An order line's units still waiting: "6 on backorder · expected 12 Jan 2027". */
  waiting: (units: number, on: string | null) => `${units} on backorder · ${promisedWords(on)}`,
  /** A cart line that takes more than the shelf has: what the checkout will do with the rest. */
  cartLine: (onShelf: number, units: number, on: string | null) =>
    `${onShelf} in stock now; ${units} on backorder, ${promisedWords(on)}`,
  /** The checkout's choice, when some units are on backorder. */
  chooseHow: "Some parts are on backorder. How should we ship your order?",
  shipAvailable: "Ship what is in stock now, the rest when it arrives",
  shipComplete: "Ship everything together when it has all arrived",
  /** A shipment asked for units still waiting for supply. */
  notYet: (line: number, units: number) =>
    `Line ${line}: ${units} of it ${units === 1 ? "is" : "are"} on backorder and cannot ship yet`,
  /** An order the buyer wants in one go, with units still waiting. */
  shipsComplete: (units: number) =>
    `This order ships complete: ${units} ${units === 1 ? "unit is" : "units are"} still on backorder`,
  /** "Mark shipped" of an order with units still waiting. */
  stillWaiting: (units: number) =>
    `${units} ${units === 1 ? "unit is" : "units are"} still on backorder; ship what is here as a partial shipment`,
  /** The order page's button beside a line's waiting units, and its dialog. */
  cancelButton: (units: number) => `Cancel the ${units} on backorder`,
  cancelTitle: "Cancel the backordered parts?",
  cancelBody: (units: number, product: string) =>
    `${units} × ${product} will not be sent. What they cost, with their tax, is refunded the way the order was paid; the rest of the order still ships.`,
  cancelLast:
    "Nothing else of this order is left to ship, so the whole order is cancelled and refunded, shipping included.",
  /** What the buyer or admin is told once it is done. */
  cancelled: (units: number, amount: string) =>
    `${units} backordered ${units === 1 ? "unit" : "units"} cancelled; ${amount} refunded`,
  /** A line's units cancelled while on backorder, as the order page lists them. */
  cancelledLine: (units: number, product: string) =>
    `${units} × ${product}: not sent, refunded with a credit note`,
  /** Refusals. */
  cancelUnpaid: "This order is not paid yet: pay for it, or delete it and order what is in stock",
  cancelNotNow: (status: string) =>
    `Backordered parts can be cancelled only on a paid order; this one is ${status}`,
  nothingWaiting: (line: number) => `Line ${line} has no parts waiting on backorder`,
  noSuchLine: (line: number) => `This order has no line ${line}`,
} as const;

/** Cancel a line's units on backorder: `DELETE /api/orders/{id}/backorders/{line}`. */
export const backorderLineParamsSchema = idParamsSchema.extend({
  line: z.coerce.number().int().min(1).max(10_000),
});

/** What cancelling a line's waiting units did. */
export const backorderCancelledSchema = z.object({
  line: z.number().int(),
  /** Units cancelled. */
  units: z.number().int(),
  /** Refunded, in currency units (with tax; shipping too when the whole order was cancelled). */
  refunded: z.number(),
  currency: z.string(),
  /** Whether the refund has gone through already (else it is retried, as every refund is). */
  refundStatus: z.enum(["pending", "failed", "succeeded"]),
  /** Nothing else was left to ship: the whole order is cancelled. */
  orderCancelled: z.boolean(),
  /** The rest had all shipped: the order is now shipped. */
  orderShipped: z.boolean(),
});
export type BackorderCancelled = z.infer<typeof backorderCancelledSchema>;

/** An order line's units on backorder, as the order's shipments answer carries them. */
export const lineBackorderSchema = z.object({
  /** Units put on backorder when the order was placed. */
  qty: z.number().int(),
  /** Still waiting for supply. */
  waiting: z.number().int(),
  /** Cancelled: they will not ship (the order was cancelled, or the line's rest). */
  cancelled: z.number().int(),
  /** The date promised now (YYYY-MM-DD); null: to be confirmed. */
  promisedOn: z.iso.date().nullable(),
});
export type LineBackorder = z.infer<typeof lineBackorderSchema>;
