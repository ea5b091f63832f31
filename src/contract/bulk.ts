import { z } from "zod";
import { adminOrderSchema } from "./orders";
import { invoiceSummarySchema } from "./invoices";
import { formatCount, pluralCount } from "./count";

// Bulk stock and price sync, and change cursors for systems that poll (docs/bulk-sync.md):
// `PUT /api/bulk/stock`, `PUT /api/bulk/prices`, `GET /api/sync/orders`, `GET /api/sync/invoices`.

/** Most lines (after the CSV header) one bulk request takes. */
export const MAX_BULK_LINES = 100_000;
/** Most bytes one bulk request's body may have: 100,000 long lines fit with room to spare. */
export const MAX_BULK_BYTES = 32 * 1024 * 1024;
/** Most characters on one line (a longer one is that line's error; the rest is read on). */
export const MAX_BULK_LINE_CHARS = 2000;

/** The body's formats. */
export const BULK_CSV = "text/csv";
export const BULK_NDJSON = "application/x-ndjson";
export const bulkContentTypes = [BULK_CSV, BULK_NDJSON] as const;

/** The CSV header of each kind, in this order (names compared case-insensitively). */
export const BULK_STOCK_HEADER = ["partNumber", "stock"] as const;
export const BULK_PRICES_HEADER = ["partNumber", "price", "priceList"] as const;

export const bulkKinds = ["stock", "prices"] as const;
export type BulkKind = (typeof bulkKinds)[number];

/** Most units of stock (the product form's ceiling). */
export const MAX_BULK_STOCK = 10_000_000;
/** Every price is below this (the catalog's and the price lists' ceiling). */
export const MAX_BULK_PRICE = 1_000_000;

/** Words the API answers, word for word. */
export const bulkMessages = {
  contentType: `Send the lines as ${BULK_CSV} (a header row, then one line per part) or ${BULK_NDJSON} (one JSON object per line)`,
  tooLarge: `The body is larger than ${MAX_BULK_BYTES / 1024 / 1024} MiB, the most one bulk request takes: split it into several requests`,
  tooManyLines: `At most ${formatCount(MAX_BULK_LINES)} lines in one request: split the file into several requests`,
  empty: "The body has no lines: send at least one part",
  notUtf8: "The body is not UTF-8 text",
  header: (kind: BulkKind) =>
    `The first line must be the header ${(kind === "stock" ? BULK_STOCK_HEADER : BULK_PRICES_HEADER).join(",")}`,
  csvBroken: (line: number, why: string) =>
    `Line ${line} is not valid CSV (${why}): nothing was read`,
  refused: (bad: number) =>
    `${pluralCount(bad, "line has a problem", "lines have problems")}: nothing was written. Fix them, or send ?partial=true to write the good lines`,
  // One line's problem.
  lineTooLong: `The line is longer than ${formatCount(MAX_BULK_LINE_CHARS)} characters`,
  notJson: "The line is not a JSON object",
  cells: (want: number, got: number) => `Expected ${want} cells, found ${got}`,
  unknownField: (name: string) => `Unknown field ${name}`,
  partNumberMissing: "Part number is missing",
  unknownPart: (partNumber: string) => `Unknown part number ${partNumber}`,
  duplicate: (line: number) => `The same part is also on line ${line}: send each part once`,
  duplicatePrice: (line: number) =>
    `The same part and price list are also on line ${line}: send each once`,
  stockForm: `Stock must be a whole number from 0 to ${formatCount(MAX_BULK_STOCK)}`,
  belowHeld: (stock: number, held: number) =>
    `Stock ${formatCount(stock)} is below the ${pluralCount(held, "unit")} held by unpaid orders`,
  /** The level is the sum over locations: the others' stock on sale is part of it. */
  belowElsewhere: (stock: number, elsewhere: number) =>
    `Stock ${formatCount(stock)} is below the ${pluralCount(elsewhere, "unit")} on sale at other locations`,
  priceForm: "Price must be an amount greater than 0 with at most 2 decimals, like 12.50",
  priceTooHigh: "Price must be less than 1,000,000",
  unknownPriceList: (name: string) => `No price list is named ${name}`,
  breakNotCheaper:
    "The part's quantity breaks must stay cheaper than the price: change them in the admin screens first",
  // The change cursors.
  cursor: "The cursor is not one this API gave: start again without a cursor",
  limit: "The limit is a whole number from 1 to 500",
} as const;

export const bulkLineStatuses = ["updated", "unchanged", "error"] as const;
export type BulkLineStatus = (typeof bulkLineStatuses)[number];

/** One line of the body, as it was applied (or would have been). */
export const bulkLineResultSchema = z.object({
  /** The line of the body (the CSV header is line 1, its first part line 2; NDJSON from 1). */
  line: z.number().int(),
  /** As the line wrote it (empty when it had none). */
  partNumber: z.string(),
  /** The price list the line named (prices only); absent for the list price. */
  priceList: z.string().optional(),
  status: z.enum(bulkLineStatuses),
  /** The line's problem (status `error`). */
  message: z.string().optional(),
});
export type BulkLineResult = z.infer<typeof bulkLineResultSchema>;

export const bulkCountsSchema = z.object({
  lines: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  errors: z.number().int(),
});
export type BulkCounts = z.infer<typeof bulkCountsSchema>;

/** The answer: whether the good lines were written, the counts and every line's outcome. */
export const bulkResultSchema = z.object({
  /** True when the lines marked `updated` were written (all good, or `partial=true`). */
  applied: z.boolean(),
  counts: bulkCountsSchema,
  /** One entry per line of the body, in its order. */
  lines: z.array(bulkLineResultSchema),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;

/** 422: a line had a problem and `partial` was not asked for: nothing was written. */
export const bulkRefusedSchema = bulkResultSchema.extend({
  error: z.string(),
  message: z.string(),
});

const booleanText = z
  .enum(["true", "false"], { error: "partial is true or false" })
  .transform((v) => v === "true");

export const bulkQuerySchema = z.strictObject({
  /** true: the good lines are written and the bad ones reported; else all or nothing. */
  partial: booleanText.default(false),
});

/** Most items a sync page has (and its default). */
export const MAX_SYNC_LIMIT = 500;
export const DEFAULT_SYNC_LIMIT = 100;

export const syncQuerySchema = z.strictObject({
  /** Where the last page ended (its `nextCursor`); none: from the first change kept. */
  cursor: z.string().max(200, bulkMessages.cursor).optional(),
  limit: z.coerce
    .number({ error: bulkMessages.limit })
    .int(bulkMessages.limit)
    .min(1, bulkMessages.limit)
    .max(MAX_SYNC_LIMIT, bulkMessages.limit)
    .default(DEFAULT_SYNC_LIMIT),
});
export type SyncQuery = z.infer<typeof syncQuerySchema>;

const syncPage = <T extends z.ZodType>(item: T) =>
  z.object({
    /** Changed since the cursor, oldest change first: each as the admin screens' answer. */
    items: z.array(item),
    /** Give it as `cursor` next time (also when `items` is empty: it keeps the place). */
    nextCursor: z.string(),
    /** More changes are waiting: ask again at once with `nextCursor`. */
    hasMore: z.boolean(),
  });

export const syncOrdersPageSchema = syncPage(adminOrderSchema);
export type SyncOrdersPage = z.infer<typeof syncOrdersPageSchema>;
export const syncInvoicesPageSchema = syncPage(invoiceSummarySchema);
export type SyncInvoicesPage = z.infer<typeof syncInvoicesPageSchema>;
