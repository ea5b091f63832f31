import { z } from "zod";

/**
 * The product CSV (docs/admin.md, "Product CSV import and export"): one product per row, the columns
 * below in any order, a header row first. Export writes them in this order; import needs them all
 * but the optional ones.
 */
export const productCsvColumns = [
  "part_number",
  "name",
  "description",
  "category",
  "price",
  "stock",
  "minimum_order",
  "retail_minimum",
  "pack_size",
  "warranty_months",
  "weight_grams",
  "length_mm",
  "width_mm",
  "height_mm",
  "image_url",
  "cross_references",
] as const;
export type ProductCsvColumn = (typeof productCsvColumns)[number];

/**
 * A product's size in millimetres: the three columns come together (a file with some of them is
 * refused). Without them every product keeps its dimensions (a new one has none); with them, a
 * row gives all three or leaves all three empty (none).
 */
export const dimensionCsvColumns = ["length_mm", "width_mm", "height_mm"] as const;

/**
 * Columns a file may leave out: files made before they existed still import. Without
 * `weight_grams` every product keeps its weight (a new one weighs 0 g); with it, an empty cell is
 * 0 g (not given). Without `retail_minimum` or `pack_size` every product keeps its own (a new one
 * gets 1); with them, an empty cell is 1. The dimension columns: `dimensionCsvColumns`.
 */
export const optionalProductCsvColumns: readonly ProductCsvColumn[] = [
  "weight_grams",
  "retail_minimum",
  "pack_size",
  ...dimensionCsvColumns,
];

/** The header's error when it has some of the dimension columns but not `column`. */
export const dimensionColumnsTogether = (column: string) =>
  `Missing column ${column}: length_mm, width_mm and height_mm come together`;

/**
 * Written by the export, optional on import: a file without it leaves every product's fitment as
 * it is; with it, each row's cell replaces that product's fitment (an empty cell removes it).
 */
export const FITMENT_COLUMN = "fitment";

/**
 * Written by the export (the stock when the file was made), optional on import: with it, a row's
 * `stock` is applied as a change from it ("+20" when the admin raised it by 20, nothing when it
 * is unchanged), so orders placed since the export are never overwritten; without it (a file
 * made by hand), `stock` is the new stock.
 */
export const STOCK_AT_EXPORT_COLUMN = "stock_at_export";

/**
 * Written by the export, optional on import: a product's attribute values, `Diameter=280; Vent
 * type=Vented` (names of the row's category's attributes, docs/attributes.md; a `;`, `=` or `\`
 * inside a name or value is written `\;`, `\=`, `\\`). A file without it leaves every
 * product's values as they are; with it, each row's cell replaces that product's values (an empty
 * cell clears them).
 */
export const ATTRIBUTES_COLUMN = "attributes";

/** Codes of the cross-reference kinds in the `cross_references` cell: `OE:Toyota:04465-02220`. */
export const crossReferenceCodes = { OE: "OE", COMP: "competitor", SUP: "superseded" } as const;

/** The largest file the upload takes (the server answers 413 beyond it). */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;
/** The most product rows one file may hold. */
export const MAX_CSV_ROWS = 20_000;
/** The multipart field the file is sent in. */
export const CSV_FIELD = "file";

/** One problem of the file: its line (1 is the header), the column if one, and what is wrong. */
export const csvRowErrorSchema = z.object({
  line: z.number().int(),
  column: z.string().optional(),
  message: z.string(),
});
export type CsvRowError = z.infer<typeof csvRowErrorSchema>;

/**
 * The answer to a CSV file written all or nothing (incoming supply, shipped lines' lots): whether
 * it was written (no problems), its rows, and every problem with its line.
 */
export const csvImportResultSchema = z.object({
  applied: z.boolean(),
  rows: z.number().int(),
  errors: z.array(csvRowErrorSchema),
});

/** What an import would do, read before anything is written. */
export const csvPreviewSchema = z.object({
  rows: z.number().int(),
  creates: z.number().int(),
  updates: z.number().int(),
  /** Every problem, in line order; the import is refused while there is one. */
  errors: z.array(csvRowErrorSchema),
});
export type CsvPreview = z.infer<typeof csvPreviewSchema>;

export const importJobStatuses = ["running", "done", "failed"] as const;

/** An import as it runs (polled by the page): `done` of `total` rows written so far. */
export const importJobSchema = z.object({
  id: z.uuid(),
  status: z.enum(importJobStatuses),
  total: z.number().int(),
  done: z.number().int(),
  creates: z.number().int(),
  updates: z.number().int(),
  /** Why it failed; nothing was written then (one transaction). */
  error: z.string().nullable(),
});
export type ImportJob = z.infer<typeof importJobSchema>;
