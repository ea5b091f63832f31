import { z } from "zod";
import { cartSchema } from "./cart";

/**
 * "Order again": a past order's lines go into the cart at today's prices, and the answer says
 * what differs from the order (docs/quick-order.md "Order again").
 */
export const reorderChangeKinds = ["price", "unavailable", "capped", "raised"] as const;

export const reorderChangeSchema = z.object({
  /** Null when the part is no longer in the catalog. */
  productId: z.uuid().nullable(),
  productName: z.string(),
  kind: z.enum(reorderChangeKinds),
  message: z.string(),
});
export type ReorderChange = z.infer<typeof reorderChangeSchema>;

export const reorderResultSchema = z.object({
  /** How many of the order's parts went into the cart. */
  added: z.number().int(),
  changes: z.array(reorderChangeSchema),
  cart: cartSchema,
});
export type ReorderResult = z.infer<typeof reorderResultSchema>;

export const reorderMessages = {
  gone: (name: string) => `${name} is no longer sold`,
  outOfStock: (name: string) => `${name} is out of stock`,
  capped: (name: string, qty: number, available: number) =>
    `${name}: only ${available} in stock, so ${available} instead of ${qty}`,
  raised: (name: string, qty: number, minimum: number) =>
    `${name}: at least ${minimum} per order, so ${minimum} instead of ${qty}`,
  /** Raised to the next whole pack (a trade buyer's pack size, docs/pricing.md). */
  packs: (name: string, qty: number, pack: number, to: number) =>
    `${name}: sold in packs of ${pack}, so ${to} instead of ${qty}`,
  /** The stock does not hold the quantity in whole packs: the most it does. */
  cappedToPacks: (name: string, qty: number, available: number, pack: number, to: number) =>
    `${name}: only ${available} in stock, in packs of ${pack}, so ${to} instead of ${qty}`,
  price: (name: string, was: string, now: string) => `${name} now costs ${now} (was ${was})`,
  nothing: "None of this order's parts can be ordered now",
} as const;
