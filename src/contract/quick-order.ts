import { z } from "zod";
import { productAttributeSchema } from "./attributes";
import { availabilityFields } from "./availability";
import { cartSchema } from "./cart";
import { formatCount } from "./count";
import { text } from "./text";

/**
 * Quick order (docs/quick-order.md): lines of `part number, quantity`, typed, pasted or uploaded
 * as CSV, each resolved to our part, its price for the caller, its stock and its problems.
 */

/** The most lines one quick order may hold (after blank lines and a header are left out). */
export const MAX_QUICK_ORDER_LINES = 500;
/** The most characters of pasted text (500 lines of a long number, a quantity and a note). */
export const MAX_QUICK_ORDER_TEXT = 100_000;
/** The largest CSV file the upload takes (the server answers 413 beyond it). */
export const MAX_QUICK_ORDER_FILE_BYTES = 256 * 1024;
/** The multipart field the CSV file is sent in. */
export const QUICK_ORDER_FILE_FIELD = "file";
/** A number longer than this is no part number (it is answered as unknown, not looked up). */
export const MAX_PART_NUMBER_LENGTH = 60;

export const quickOrderMessages = {
  tooManyLines: (n: number) =>
    `A quick order takes at most ${MAX_QUICK_ORDER_LINES} lines at a time; this one has ${n}. Split it in two.`,
  empty: "Enter at least one line: a part number and a quantity",
  textTooLong: `Paste at most ${formatCount(MAX_QUICK_ORDER_TEXT)} characters at a time`,
  fileTooLarge: `The file must be ${MAX_QUICK_ORDER_FILE_BYTES / 1024} KiB or smaller (at most ${MAX_QUICK_ORDER_LINES} lines)`,
  notCsv: "The file is not text: upload a CSV file with a part number and a quantity per row",
  unknown: (number: string) => `No part has the number ${number}`,
  ambiguous: (number: string) => `${number} fits more than one of our parts: choose one`,
  badQuantity: "Enter a whole quantity of at least 1",
  outOfStock: "Out of stock",
  superseded: (old: string, ours: string) => `${old} is superseded by ${ours}`,
  merged: (lines: number[]) => `Merged from lines ${lines.join(", ")}`,
  nothingToAdd: "None of these lines can be added yet: fix their problems first",
} as const;

/** What a number matched: our own part number, or one of the product's cross-references. */
export const matchKinds = ["ours", "OE", "competitor", "superseded"] as const;
export type MatchKind = (typeof matchKinds)[number];

const lineInputSchema = z.object({
  number: text({ message: "Enter a part number" }).max(200, "That part number is too long"),
  /** Any value: a line with a bad quantity is answered with its problem, not refused. */
  qty: z.union([z.number(), text().max(40)]).optional(),
});
export type QuickOrderLineInput = z.infer<typeof lineInputSchema>;

/** Either the lines, or the text a customer pasted (one line per part). */
export const quickOrderInputSchema = z
  .object({
    lines: z.array(lineInputSchema).max(5_000).optional(),
    text: text({}, { multiline: true })
      .max(MAX_QUICK_ORDER_TEXT, quickOrderMessages.textTooLong)
      .optional(),
  })
  .refine((b) => (b.lines === undefined) !== (b.text === undefined), {
    message: 'Send either "lines" or "text"',
  });
export type QuickOrderInput = z.infer<typeof quickOrderInputSchema>;

export const problemCodes = [
  "unknown",
  "ambiguous",
  "bad_quantity",
  "out_of_stock",
  "below_minimum",
  /** A trade buyer's quantity that is not a multiple of the part's pack size. */
  "pack_size",
  "over_stock",
  "superseded",
  "merged",
  "backorder",
] as const;
export type ProblemCode = (typeof problemCodes)[number];

export const suggestionSchema = z.object({
  productId: z.uuid(),
  /** The number to use (ours, or the cross-reference that was nearly typed). */
  number: z.string(),
  name: z.string(),
});
export type Suggestion = z.infer<typeof suggestionSchema>;

export const problemSchema = z.object({
  code: z.enum(problemCodes),
  message: z.string(),
  /** A blocking problem keeps the line out of the cart; the others only say something. */
  blocking: z.boolean(),
  /** "Did you mean": the nearest numbers (unknown) or the parts to choose from (ambiguous). */
  suggestions: z.array(suggestionSchema).optional(),
  /** A quantity that would clear the problem (the minimum, or the stock). */
  qty: z.number().int().optional(),
});
export type Problem = z.infer<typeof problemSchema>;

export const quickOrderProductSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  partNumber: z.string(),
  img: z.string(),
  minimumOrder: z.number().int(),
  availableQuantity: z.number().int(),
  /** Its attribute values, as product answers carry them (docs/attributes.md). */
  attributes: z.array(productAttributeSchema),
  /** Where it is on sale and its backorder offer, as product answers carry them. */
  ...availabilityFields,
});

export const quickOrderLineSchema = z.object({
  /** Where the line came from: its line in the text or file, or its place in `lines` (from 1). */
  line: z.number().int(),
  /** The number as written. */
  number: z.string(),
  /** Null when the quantity is not a whole number of at least 1. */
  qty: z.number().int().nullable(),
  product: quickOrderProductSchema.nullable(),
  /** Which number matched: ours, or a cross-reference (its kind, brand and number as printed). */
  matched: z.object({ kind: z.enum(matchKinds), brand: z.string(), number: z.string() }).nullable(),
  /** The unit price for the caller, in currency units (null without a product). */
  unitPrice: z.number().nullable(),
  lineTotal: z.number().nullable(),
  problems: z.array(problemSchema),
});
export type QuickOrderLine = z.infer<typeof quickOrderLineSchema>;

export const quickOrderResultSchema = z.object({
  lines: z.array(quickOrderLineSchema),
  currency: z.string(),
  /** Lines without a blocking problem (what "Add all to cart" adds). */
  ready: z.number().int(),
});
export type QuickOrderResult = z.infer<typeof quickOrderResultSchema>;

export const quickOrderAddedSchema = z.object({
  /** How many lines went into the cart. */
  added: z.number().int(),
  cart: cartSchema,
  /** The lines left out (each with its blocking problem), to edit and add again. */
  left: z.array(quickOrderLineSchema),
  currency: z.string(),
});
export type QuickOrderAdded = z.infer<typeof quickOrderAddedSchema>;
