import { sql } from "../db/sql";
import { check, integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestampNow, uuidPrimaryKey } from "../db/columns";

/** A product CSV import as it runs (src/server/product-csv/): polled by the admin page. */
export const productImportJobs = pgTable(
  "product_import_jobs",
  {
    id: uuidPrimaryKey(),
    createdBy: text("created_by").notNull(),
    status: text("status", { enum: ["running", "done", "failed"] }).notNull(),
    total: integer("total").notNull(),
    done: integer("done").notNull().default(0),
    creates: integer("creates").notNull().default(0),
    updates: integer("updates").notNull().default(0),
    error: text("error"),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    check("product_import_jobs_status_valid", sql`${t.status} in ('running', 'done', 'failed')`),
  ],
);
