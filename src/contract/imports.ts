import { formatCount, pluralCount } from "./count";
import { z } from "zod";
import { pagingQuery } from "./common";

/**
 * Catalog data files imported by admins (docs/imports.md): ACES fitment and PIES product data.
 * Each upload is checked first (a preview: nothing written), then imported as a job.
 */
export const importKinds = ["aces", "pies"] as const;
export type ImportKind = (typeof importKinds)[number];

/**
 * Where an import is: `previewed` (checked, waiting for the admin's "Import"), `queued` (on the
 * job queue), `running`, `done` or `failed` (nothing written then: one transaction).
 */
export const importStatuses = ["previewed", "queued", "running", "done", "failed"] as const;
export type ImportStatus = (typeof importStatuses)[number];

/** The multipart field the file is sent in. */
export const IMPORT_FILE_FIELD = "file";
/** At most this many problems are kept and shown (the count says how many there were). */
export const MAX_IMPORT_ERRORS_KEPT = 200;
/** Imports shown per page on the admin's Imports page (the list API's default `limit`). */
export const IMPORTS_PAGE_SIZE = 20;

/**
 * Why an application (ACES: the vehicle, the part or the quantity) or an item (PIES: its category,
 * its list price, another brand's part, a value we cannot take, an asset not at an https address,
 * a part number the file lists twice) is skipped.
 */
export const importErrorKinds = [
  "unknown_vehicle",
  "unknown_part",
  "bad_quantity",
  "unknown_category",
  "no_price",
  "other_brand",
  "bad_value",
  "bad_asset",
  "duplicate_part",
] as const;
export type ImportErrorKind = (typeof importErrorKinds)[number];

/**
 * One application or item the import skips: the App's `id` attribute (PIES: the item's part
 * number), its line and what is wrong.
 */
export const importErrorSchema = z.object({
  appId: z.string(),
  line: z.number().int(),
  kind: z.enum(importErrorKinds),
  message: z.string(),
});
export type ImportError = z.infer<typeof importErrorSchema>;

/** What the file holds and what importing it does (the preview's, then the import's own). */
export const importCountsSchema = z.object({
  /** `App` elements read. */
  applications: z.number().int(),
  /** Different part numbers named by the applications. */
  parts: z.number().int(),
  /** Different base vehicles of the fitment rows the file asks for. */
  vehicles: z.number().int(),
  /** Fitment rows the import adds (not there yet). */
  rowsToWrite: z.number().int(),
  /** Fitment rows the file asks for that are there already. */
  rowsUnchanged: z.number().int(),
  /** Fitment rows of the file's products that the file no longer asks for: removed. */
  rowsToRemove: z.number().int(),
  /** Applications skipped (each one's problem is in `errors`, the first 200). */
  errorCount: z.number().int(),
});
export type ImportCounts = z.infer<typeof importCountsSchema>;

/**
 * What a PIES file holds and what importing it does (null for ACES imports): its items, the parts
 * it adds, changes and leaves as they are, and what the good items carry. Items with problems are
 * `counts.errorCount`.
 */
export const piesCountsSchema = z.object({
  /** `Item` elements read. */
  items: z.number().int(),
  /** Good items whose part we do not have yet: added. */
  newParts: z.number().int(),
  /** Good items whose part changes (any field, cross reference, attribute or asset). */
  updatedParts: z.number().int(),
  /** Good items whose part is already exactly as the file says. */
  unchangedParts: z.number().int(),
  /** Attribute values of the good items. */
  attributeValues: z.number().int(),
  /** Attribute definitions the import adds to a category. */
  newAttributes: z.number().int(),
  /** Interchange numbers (cross references) of the good items. */
  interchangeNumbers: z.number().int(),
  /** Digital assets (pictures, documents) of the good items. */
  assets: z.number().int(),
});
export type PiesCounts = z.infer<typeof piesCountsSchema>;

/** One import: the record the preview answers and the job updates as it runs. */
export const importRecordSchema = z.object({
  id: z.uuid(),
  kind: z.enum(importKinds),
  /** The file's brand (ACES Header `BrandAAIAID`; PIES: its items' `BrandAAIAID`s). */
  brand: z.string(),
  fileName: z.string(),
  status: z.enum(importStatuses),
  counts: importCountsSchema,
  /** A PIES import's own counts (null for ACES). */
  pies: piesCountsSchema.nullable(),
  /** The first 200 problems, in file order. */
  errors: z.array(importErrorSchema),
  /** Applications (PIES: items) read so far of `total` while it runs. */
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  /** Set when done: fitment rows added and removed (PIES: parts added and changed, and 0). */
  result: z.object({ inserted: z.number().int(), deleted: z.number().int() }).nullable(),
  /** Why it failed; nothing was written then. */
  failure: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  startedAt: z.iso.datetime({ offset: true }).nullable(),
  finishedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type ImportRecord = z.infer<typeof importRecordSchema>;

export const importListQuerySchema = pagingQuery(IMPORTS_PAGE_SIZE);
export type ImportListQuery = z.infer<typeof importListQuerySchema>;

/** What the admin is told when an import cannot start from where it is. */
export const importNotStartable = (status: ImportStatus) =>
  status === "queued" || status === "running"
    ? "This import has already started"
    : status === "done"
      ? "This import is done; upload the file again to import it again"
      : status === "failed"
        ? "This import failed; upload the file again"
        : "This import cannot start";

/** The words the Imports page shows (and the tests assert). */
export const importWords = {
  status: {
    previewed: "Checked, not imported",
    queued: "Waiting to start",
    running: "Importing",
    done: "Imported",
    failed: "Failed",
  } satisfies Record<ImportStatus, string>,
  /** "8 applications of 4 parts for 3 vehicles". */
  contents: (c: ImportCounts) =>
    `${pluralCount(c.applications, "application")} of ${pluralCount(c.parts, "part")} for ${pluralCount(c.vehicles, "vehicle")}`,
  /** What the import would do, or did. */
  changes: (c: ImportCounts) =>
    `${pluralCount(c.rowsToWrite, "fitment row")} to add, ${pluralCount(c.rowsToRemove, "row")} to remove, ${pluralCount(c.rowsUnchanged, "row")} unchanged`,
  errors: (count: number) =>
    count === 0
      ? "No problems"
      : `${pluralCount(count, "application")} with problems will be skipped`,
  /** Shown when more problems were found than kept. */
  errorsCut: (shown: number, count: number) =>
    `The first ${formatCount(shown)} of ${formatCount(count)} are listed.`,
  progress: (done: number, total: number) =>
    `Importing… ${formatCount(done)} of ${pluralCount(total, "application")} read`,
  done: (r: { inserted: number; deleted: number }) =>
    `Imported: ${pluralCount(r.inserted, "fitment row")} added, ${pluralCount(r.deleted, "row")} removed`,
  confirmTitle: "Import this file?",
  confirmBody: (brand: string, c: ImportCounts) =>
    `The fitment of brand ${brand}'s ${pluralCount(c.parts, "part")} in this file, and of the brand's parts it no longer names, is replaced: ${pluralCount(c.rowsToWrite, "row")} added, ${pluralCount(c.rowsToRemove, "row")} removed. Applications with problems are skipped. Other brands' parts keep their fitment.`,
  chooseFile: "Choose an ACES file",
  /** The upload form's choice of file, and the list's Kind column. */
  kinds: {
    aces: "Fitment (ACES)",
    pies: "Product data (PIES)",
  } satisfies Record<ImportKind, string>,
  chooseFileOf: { aces: "Choose an ACES file", pies: "Choose a PIES file" } satisfies Record<
    ImportKind,
    string
  >,
  /** "4 items: 6 attribute values, 3 interchange numbers, 4 assets". */
  piesContents: (p: PiesCounts) =>
    `${pluralCount(p.items, "item")}: ${pluralCount(p.attributeValues, "attribute value")}, ${pluralCount(p.interchangeNumbers, "interchange number")}, ${pluralCount(p.assets, "asset")}`,
  piesChanges: (p: PiesCounts) =>
    `${pluralCount(p.newParts, "new part")}, ${pluralCount(p.updatedParts, "part")} to update, ${pluralCount(p.unchangedParts, "part")} unchanged, ${pluralCount(p.newAttributes, "new attribute")}`,
  piesErrors: (count: number) =>
    count === 0 ? "No problems" : `${pluralCount(count, "item")} with problems will be skipped`,
  piesProgress: (done: number, total: number) =>
    `Importing… ${formatCount(done)} of ${pluralCount(total, "item")} read`,
  piesDone: (p: PiesCounts) =>
    `Imported: ${pluralCount(p.newParts, "new part")}, ${pluralCount(p.updatedParts, "part")} updated, ${pluralCount(p.unchangedParts, "part")} unchanged`,
  piesConfirmBody: (brand: string, p: PiesCounts) =>
    `The parts of brand ${brand} in this file are added or updated: ${pluralCount(p.newParts, "new part")}, ${pluralCount(p.updatedParts, "part")} changed. Items with problems are skipped. Nothing is deleted.`,
} as const;
