import { asc, eq, inArray, sql } from "drizzle-orm";
import { normalizePartNumber } from "../../contract/constants";
import type { CsvPreview, ImportJob } from "../../contract/product-csv";
import type { AdminProduct, CrossReference } from "../../contract/products";
import type { Db } from "../db/database";
import { productCrossReferences, productImportJobs, products } from "../db/schema";
import { HttpError, notFound } from "../errors";
import { unitsToCents } from "../money";
import { toAdminProduct } from "../catalog/service";
import { readProductCsv, toCsv, type ProductRow } from "./csv";

/** Rows written per statement; the job's progress moves on after each batch. */
const BATCH = 500;

type JobRow = typeof productImportJobs.$inferSelect;
const toJob = (j: JobRow): ImportJob => ({
  id: j.id,
  status: j.status,
  total: j.total,
  done: j.done,
  creates: j.creates,
  updates: j.updates,
  error: j.error,
});

export function createProductCsvService(db: Db, log: { error(o: object, m: string): void }) {
  /** The part numbers (normalised) of these rows that are already products. */
  async function existing(rows: ProductRow[]): Promise<Set<string>> {
    const keys = rows.map((r) => normalizePartNumber(r.product.partNumber));
    const found = new Set<string>();
    for (let i = 0; i < keys.length; i += 5000) {
      const chunk = keys.slice(i, i + 5000);
      const hits = await db
        .select({ key: products.partNumberNormalized })
        .from(products)
        .where(inArray(products.partNumberNormalized, chunk));
      for (const h of hits) found.add(h.key);
    }
    return found;
  }

  /** All rows in one transaction: products upserted by part number, their numbers replaced. */
  async function write(jobId: string, rows: ProductRow[], creatorEmail: string) {
    let creates = 0;
    let updates = 0;
    await db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += BATCH) {
        const batch = rows.slice(i, i + BATCH).map((r) => r.product);
        const written = await tx
          .insert(products)
          .values(
            batch.map((p) => ({
              partNumber: p.partNumber.toUpperCase(),
              name: p.name,
              shortDescription: p.shortDescription,
              category: p.category,
              priceCents: unitsToCents(p.price),
              availableQuantity: p.availableQuantity,
              minimumOrder: p.minimumOrder,
              warrantyMonths: p.warranty,
              img: p.img,
              creatorEmail,
            })),
          )
          .onConflictDoUpdate({
            target: products.partNumberNormalized,
            set: {
              partNumber: sql`excluded.part_number`,
              name: sql`excluded.name`,
              shortDescription: sql`excluded.short_description`,
              category: sql`excluded.category`,
              priceCents: sql`excluded.price_cents`,
              availableQuantity: sql`excluded.available_quantity`,
              minimumOrder: sql`excluded.minimum_order`,
              warrantyMonths: sql`excluded.warranty_months`,
              img: sql`excluded.img`,
            },
          })
          .returning({
            id: products.id,
            key: products.partNumberNormalized,
            // xmax is 0 on a row this statement inserted, set on one it updated.
            inserted: sql<boolean>`(xmax = 0)`,
          });
        const idOf = new Map(written.map((w) => [w.key, w.id]));
        for (const w of written) {
          if (w.inserted) creates++;
          else updates++;
        }
        await tx.delete(productCrossReferences).where(
          inArray(
            productCrossReferences.productId,
            written.map((w) => w.id),
          ),
        );
        const refs = batch.flatMap((p) =>
          p.crossReferences.map((r, position) => ({
            ...r,
            position,
            productId: idOf.get(normalizePartNumber(p.partNumber))!,
          })),
        );
        if (refs.length > 0) await tx.insert(productCrossReferences).values(refs);
        // Progress is written outside the transaction, so the page sees it while this runs.
        await db
          .update(productImportJobs)
          .set({ done: Math.min(i + BATCH, rows.length) })
          .where(eq(productImportJobs.id, jobId));
      }
    });
    return { creates, updates };
  }

  return {
    /** What importing the file would do, and every problem with its line; writes nothing. */
    async preview(data: Buffer): Promise<CsvPreview> {
      const { rows, errors } = readProductCsv(data);
      const found = await existing(rows);
      const updates = rows.filter((r) =>
        found.has(normalizePartNumber(r.product.partNumber)),
      ).length;
      return {
        rows: rows.length + new Set(errors.filter((e) => e.line > 1).map((e) => e.line)).size,
        creates: rows.length - updates,
        updates,
        errors: errors.sort((a, b) => a.line - b.line),
      };
    },

    /**
     * Starts an import of a file without errors and answers its job at once; `finished` settles
     * when the transaction has committed or rolled back (the job says which).
     */
    async start(
      data: Buffer,
      creatorEmail: string,
    ): Promise<{ job: ImportJob; finished: Promise<void> }> {
      const { rows, errors } = readProductCsv(data);
      if (errors.length > 0) {
        throw new HttpError(
          400,
          "validation",
          `The file has ${errors.length} ${errors.length === 1 ? "error" : "errors"}; preview it, fix them and upload it again`,
        );
      }
      const [job] = await db
        .insert(productImportJobs)
        .values({ createdBy: creatorEmail, status: "running", total: rows.length })
        .returning();
      const finished = write(job!.id, rows, creatorEmail)
        .then(
          async ({ creates, updates }) => {
            await db
              .update(productImportJobs)
              .set({ status: "done", done: rows.length, creates, updates })
              .where(eq(productImportJobs.id, job!.id));
          },
          async (err: unknown) => {
            log.error({ err, jobId: job!.id }, "product import failed");
            await db
              .update(productImportJobs)
              .set({
                status: "failed",
                done: 0,
                error: `Nothing was imported: ${describeFailure(err)}`,
              })
              .where(eq(productImportJobs.id, job!.id))
              .catch(() => {});
          },
        )
        // The job row could not be written (the database went away): the log says so.
        .catch((err: unknown) => log.error({ err, jobId: job!.id }, "product import job lost"));
      return { job: toJob(job!), finished };
    },

    async job(id: string): Promise<ImportJob> {
      const [job] = await db.select().from(productImportJobs).where(eq(productImportJobs.id, id));
      if (!job) throw notFound("Import not found");
      return toJob(job);
    },

    /** Every product with its cross-references, by part number, as CSV. */
    async exportCsv(): Promise<string> {
      const rows = await db.select().from(products).orderBy(asc(products.partNumberNormalized));
      const refs = await db
        .select()
        .from(productCrossReferences)
        .orderBy(asc(productCrossReferences.position), asc(productCrossReferences.id));
      const byProduct = new Map<string, CrossReference[]>();
      for (const r of refs) {
        const list = byProduct.get(r.productId) ?? [];
        list.push({ kind: r.kind, brand: r.brand, number: r.number });
        byProduct.set(r.productId, list);
      }
      const all: AdminProduct[] = rows.map((p) => toAdminProduct(p, byProduct.get(p.id) ?? []));
      return toCsv(all);
    },
  };
}

/** A failure in words an admin can act on (a constraint names what clashed). */
function describeFailure(err: unknown): string {
  for (let e = err, hops = 0; e && typeof e === "object" && hops < 5; hops++) {
    const { code, detail } = e as { code?: unknown; detail?: unknown };
    if (typeof code === "string" && typeof detail === "string") return detail;
    e = (e as { cause?: unknown }).cause;
  }
  return "the database refused the change; try again";
}

export type ProductCsvService = ReturnType<typeof createProductCsvService>;
