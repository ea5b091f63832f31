import { z } from "zod";
import { DEFAULTS_IN_FORCE, wholeNumber } from "./common";
import { refundToRetrySchema } from "./refunds";

/**
 * The admin's home, "Today" (docs/admin-home.md): what is waiting for an admin, each with the
 * page where it is handled.
 */

/** How many rows of each list the home shows (the counts are of all). */
export const ADMIN_HOME_ROWS = 5;
/** How many low-stock products the home lists. */
export const LOW_STOCK_ROWS = 20;
export const MAX_REORDER_LEVEL = 10_000_000;

const orderRowSchema = z.object({
  id: z.uuid(),
  /** `PW-100234` */
  orderNumber: z.string(),
  customerName: z.string(),
  totalCents: z.number().int(),
  currency: z.string(),
  /** When it was paid (to ship) or when its hold runs out (expiring). */
  at: z.iso.datetime({ offset: true }),
});

export const lowStockProductSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  partNumber: z.string(),
  availableQuantity: z.number().int(),
  /** The level the product is low below: the admin's, or the default (2 × minimum order). */
  reorderLevel: z.number().int(),
  /** Whether an admin set the level (false: the default). */
  reorderLevelSet: z.boolean(),
});
export type LowStockProduct = z.infer<typeof lowStockProductSchema>;

/** A part whose stock on sale at one location is below the reorder level set for it there. */
export const lowAtLocationSchema = z.object({
  productId: z.uuid(),
  name: z.string(),
  partNumber: z.string(),
  /** The location's name. */
  location: z.string(),
  onSale: z.number().int(),
  reorderLevel: z.number().int(),
});
export type LowAtLocation = z.infer<typeof lowAtLocationSchema>;

export const adminHomeSchema = z.object({
  /** Paid orders not shipped yet, oldest payment first. */
  toShip: z.object({ count: z.number().int(), oldest: z.array(orderRowSchema) }),
  /** Unpaid orders whose stock hold runs out within `withinMinutes`, soonest first. */
  expiringHolds: z.object({
    count: z.number().int(),
    withinMinutes: z.number().int(),
    soonest: z.array(orderRowSchema),
  }),
  /** Products whose stock is below their reorder level, least stock first. */
  lowStock: z.object({ count: z.number().int(), products: z.array(lowStockProductSchema) }),
  /**
   * Parts below the reorder level an admin set at a location (docs/inventory.md), least on sale
   * first.
   */
  lowAtLocations: z.object({ count: z.number().int(), rows: z.array(lowAtLocationSchema) }),
  /** Units waiting on backorder across all parts, and in how many order lines (docs/inventory.md). */
  backorders: z.object({ units: z.number().int(), lines: z.number().int() }),
  /** Reviews waiting for an admin's approval. */
  reviewsToModerate: z.number().int(),
  /** Requests for quote waiting for an admin's prices. */
  quotesToPrice: z.number().int(),
  /** Returns waiting for an admin: to decide, to receive, or a refund to retry. */
  returnsToHandle: z.number().int(),
  /** Company orders waiting for an owner's approval. */
  approvalsWaiting: z.number().int(),
  /** Payments taken that the store could not apply: to refund. */
  refundsDue: z.number().int(),
  /** Refunds of returns and cancelled orders that have not gone through, oldest first: to retry. */
  refundsToRetry: z.object({ count: z.number().int(), oldest: z.array(refundToRetrySchema) }),
});
export type AdminHome = z.infer<typeof adminHomeSchema>;

/** An admin's reorder level for one product; null goes back to the default (2 × minimum order). */
export const reorderLevelInputSchema = z.strictObject({
  reorderLevel: z
    .number({ message: "Enter a whole number of units" })
    .int("Enter a whole number of units")
    .min(0, "A reorder level cannot be negative")
    .max(MAX_REORDER_LEVEL, `A reorder level is at most ${MAX_REORDER_LEVEL}`)
    .nullable(),
});
export type ReorderLevelInput = z.infer<typeof reorderLevelInputSchema>;

export const reorderLevelSchema = z.object({
  productId: z.uuid(),
  reorderLevel: z.number().int(),
  reorderLevelSet: z.boolean(),
});

/** An hour of the day (UTC) as the low-stock email's words give it: 7 → "07:00 UTC". */
const hourWords = (hourUtc: number) => `${String(hourUtc).padStart(2, "0")}:00 UTC`;

/**
 * The daily low-stock email (docs/admin-home.md): whether every admin gets it, and from which
 * hour of the day (UTC). Set on Today; until an admin saves, the environment's values are in force
 * (`LOW_STOCK_EMAIL`, `LOW_STOCK_EMAIL_HOUR`).
 */
export const lowStockEmailWords = {
  title: "Low-stock email",
  enabled: "Email every admin the low-stock list once a day",
  hourUtc: "From this hour of the day (UTC, 0 to 23)",
  hourRange: "The hour is a whole number from 0 to 23",
  hint: "The list goes once a day, from that hour on, and only on a day something is low.",
  defaultsInForce: DEFAULTS_IN_FORCE,
  /** What the admin is told once the settings are saved. */
  saved: (s: LowStockEmailInput) => `Low-stock email saved: ${lowStockEmailState(s)}`,
} as const;

/** The settings in words: "every admin gets it once a day from 07:00 UTC", "it is off". */
export const lowStockEmailState = (s: LowStockEmailInput) =>
  s.enabled ? `every admin gets it once a day from ${hourWords(s.hourUtc)}` : "it is off";

/** `PUT /api/admin-home/low-stock-email` (admin). */
export const lowStockEmailSchema = z.strictObject({
  enabled: z.boolean({ error: "Say whether the email goes" }),
  hourUtc: wholeNumber(lowStockEmailWords.hourRange, 0, 23),
});
export type LowStockEmailInput = z.infer<typeof lowStockEmailSchema>;

/** The settings in force: the saved ones, or the environment's (`updatedAt` null). */
export const lowStockEmailAnswerSchema = z.object({
  enabled: z.boolean(),
  hourUtc: z.number().int(),
  /** When an admin last saved them; null: never, the environment's values are in force. */
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type LowStockEmail = z.infer<typeof lowStockEmailAnswerSchema>;
