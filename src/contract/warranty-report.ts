import { z } from "zod";

// The warranty report (docs/warranty.md "The report"): claims per 1,000 units sold, per part, by
// failure code, by month of sale and by production lot, and what approved claims cost.

/** A month of sale, `2027-03`. */
const MONTH_MESSAGE = "Enter a month as YYYY-MM";
const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, MONTH_MESSAGE);

/** `GET /api/warranty/report`: the orders placed in these months (UTC, both inclusive), or all. */
export const warrantyReportQuerySchema = z
  .object({
    from: month.optional(),
    to: month.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    path: ["to"],
    message: "The last month cannot be before the first",
  });
export type WarrantyReportQuery = z.infer<typeof warrantyReportQuerySchema>;

/** How long the server keeps a report it summed before summing it again. */
export const REPORT_MAX_AGE_SECONDS = 60;

/** The lots the report lists (the CSV: every lot with claims). */
export const MAX_REPORT_LOTS = 100;

/** Claimed units per 1,000 units sold, to one decimal (0 when nothing sold). */
export const perThousand = (claimed: number, sold: number) =>
  sold === 0 ? 0 : Math.round((claimed * 10_000) / sold) / 10;

const rate = {
  /** Units shipped of paid or shipped orders (not the $0 warranty replacements). */
  sold: z.number().int(),
  /** Claims not rejected, and their units. */
  claims: z.number().int(),
  claimedUnits: z.number().int(),
  /** `claimedUnits` per 1,000 `sold`, to one decimal. */
  perThousand: z.number(),
};

export const warrantyReportSchema = z.object({
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** When the figures were summed: a report is kept REPORT_MAX_AGE_SECONDS. */
  asOf: z.iso.datetime(),
  /** The store's currency, which the costs are in (minor units). */
  currency: z.string(),
  totals: z.object({
    ...rate,
    /** Approved claims' units at the order line's unit price. */
    approvedCostCents: z.number().int(),
  }),
  /** Per part (the order line's product), most claimed per 1,000 first. */
  parts: z.array(
    z.object({
      productId: z.string().nullable(),
      partNumber: z.string().nullable(),
      productName: z.string(),
      ...rate,
    }),
  ),
  /** Inspected or approved claims per failure code, most first. */
  failureCodes: z.array(
    z.object({
      code: z.string(),
      label: z.string(),
      claims: z.number().int(),
      claimedUnits: z.number().int(),
    }),
  ),
  /** By the month the order was placed (UTC), oldest first; with approved claims' cost. */
  months: z.array(
    z.object({
      month: z.string(),
      ...rate,
      approvedCostCents: z.number().int(),
    }),
  ),
  /**
   * The lots with claims (a claim counts for each lot its line shipped in), most claimed units
   * first, then most per 1,000 sold; at most MAX_REPORT_LOTS (the CSV lists every one).
   */
  lots: z.array(z.object({ lot: z.string(), ...rate })),
  /** How many lots have claims. */
  lotsWithClaims: z.number().int(),
});
export type WarrantyReport = z.infer<typeof warrantyReportSchema>;

/** The report's CSV file name and path. */
export const WARRANTY_REPORT_CSV_PATH = "/api/warranty/report.csv";
