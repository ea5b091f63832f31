import { sql } from "../db/sql";
import { check, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { timestampNow, timestampTz, uuidPrimaryKey } from "../db/columns";
import type { ImportError, PiesCounts } from "../../contract/imports";

/**
 * A catalog data file an admin uploaded (docs/imports.md): checked at upload (`previewed`), then
 * imported by a job on the job queue, which moves `progress_done` while it runs. The file itself
 * waits in the data folder (`imports/<stored_file>`) until the import ends.
 */
export const catalogImports = pgTable(
  "catalog_imports",
  {
    id: uuidPrimaryKey(),
    kind: text("kind", { enum: ["aces", "pies"] }).notNull(),
    brand: text("brand").notNull(),
    fileName: text("file_name").notNull(),
    /** The upload's name in the data folder's `imports/`; null once it is removed. */
    storedFile: text("stored_file"),
    status: text("status", {
      enum: ["previewed", "queued", "running", "done", "failed"],
    }).notNull(),
    applications: integer("applications").notNull().default(0),
    parts: integer("parts").notNull().default(0),
    vehicles: integer("vehicles").notNull().default(0),
    rowsToWrite: integer("rows_to_write").notNull().default(0),
    rowsUnchanged: integer("rows_unchanged").notNull().default(0),
    rowsToRemove: integer("rows_to_remove").notNull().default(0),
    errorCount: integer("error_count").notNull().default(0),
    /** A PIES import's counts (null for ACES, whose counts are the columns above). */
    piesCounts: jsonb("pies_counts").$type<PiesCounts>(),
    /** The first 200 applications skipped, in file order. */
    errors: jsonb("errors").$type<ImportError[]>().notNull().default([]),
    progressDone: integer("progress_done").notNull().default(0),
    progressTotal: integer("progress_total").notNull().default(0),
    inserted: integer("inserted"),
    deleted: integer("deleted"),
    failure: text("failure"),
    createdById: text("created_by_id").notNull(),
    createdBy: text("created_by").notNull(),
    /** Who pressed Import (the audit log's actor). */
    startedById: text("started_by_id"),
    startedBy: text("started_by"),
    createdAt: timestampNow("created_at"),
    startedAt: timestampTz("started_at"),
    finishedAt: timestampTz("finished_at"),
  },
  (t) => [
    check("catalog_imports_kind_valid", sql`${t.kind} in ('aces', 'pies')`),
    check(
      "catalog_imports_status_valid",
      sql`${t.status} in ('previewed', 'queued', 'running', 'done', 'failed')`,
    ),
    index("catalog_imports_created_at_idx").on(t.createdAt.desc(), t.id.desc()),
  ],
);
