import { plural } from "../../contract/count";
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { sql } from "../db/sql";
import { normalizePartNumber } from "../../contract/constants";
import type { CsvPreview, CsvRowError, ImportJob } from "../../contract/product-csv";
import { productFieldMessages, type CrossReference } from "../../contract/products";
import { recordAdminAction, type AuditActor } from "../audit/service";
import { advisoryLocks, lockWithin, tryLockWithin } from "../db/advisory-locks";
import type { Db, DbOrTx } from "../db/database";
import {
  baseVehicleEngines,
  baseVehicles,
  vehicleEngines,
  vehicleMakes,
  vehicleModels,
} from "../vehicles/tables";
import { productFitments } from "../catalog/tables";
import { fitmentApplication } from "../catalog/fitment";
import { withModelAndMake, withVehicleNames } from "../vehicles/vehicle-joins";
import { productCrossReferences, products } from "../catalog/tables";
import { productImportJobs } from "./tables";
import { HttpError, notFound } from "../errors";
import { toAdminProduct } from "../catalog/service";
import { upsertProductsByPartNumber } from "../catalog/writes";
import { replaceFitments } from "../catalog/writes";
import { readProductCsv, toCsv, type FitmentEntry, type ProductRow } from "./csv";
import { attributeMessages } from "../../contract/attributes";
import { ATTRIBUTES_COLUMN } from "../../contract/product-csv";
import type { ProductCategory } from "../../contract/constants";
import { attributeDefinitionColumns, attributeDefinitions } from "../catalog/attributes/tables";
import { attributesOf } from "../catalog/attributes/reads";
import {
  parseAttributeValue,
  replaceProductAttributes,
  type StoredValue,
} from "../catalog/attributes/writes";
import { postgresError } from "../db/postgres-errors";
import { refuseTotalsBelowElsewhere } from "../inventory/elsewhere";

/** Rows written per statement; the job's progress moves on after each batch. */
const BATCH = 500;

type JobRow = typeof productImportJobs.$inferSelect;
type FitmentInsert = Omit<typeof productFitments.$inferInsert, "productId">;
type AttributeValue = { attributeId: string } & StoredValue;

/**
 * Every category's attribute definitions, read once per file: an `attributes` cell names
 * attributes of its row's category, each value checked as the product screen checks it.
 */
async function attributeIndex(db: DbOrTx) {
  const defs = await db.select(attributeDefinitionColumns).from(attributeDefinitions);
  const byName = new Map(defs.map((d) => [key(d.category, d.name), d]));
  /** The values of one cell, or the first problem in words. */
  return (
    category: ProductCategory,
    entries: { name: string; value: string }[],
  ): AttributeValue[] | string => {
    const values: AttributeValue[] = [];
    for (const e of entries) {
      const def = byName.get(key(category, e.name));
      if (!def) return attributeMessages.unknown(e.name, category);
      const parsed = parseAttributeValue(def, e.value);
      if ("error" in parsed) return parsed.error;
      values.push({ attributeId: def.id, ...parsed });
    }
    return values;
  };
}

const key = (...names: (string | number)[]) =>
  names.map((n) => String(n).toLowerCase()).join("\u0000");

/**
 * The vehicle list by name (case-insensitive), read once per file: the `fitment` cells name
 * makes, models and engines, and each year of a range must be a base vehicle we list.
 */
async function vehicleIndex(db: DbOrTx) {
  const bases = await withModelAndMake(
    db
      .select({
        id: baseVehicles.id,
        year: baseVehicles.year,
        make: vehicleMakes.name,
        model: vehicleModels.name,
      })
      .from(baseVehicles)
      .$dynamic(),
  );
  const engines = await db
    .select({
      baseVehicleId: baseVehicleEngines.baseVehicleId,
      id: vehicleEngines.id,
      name: vehicleEngines.name,
    })
    .from(baseVehicleEngines)
    .innerJoin(vehicleEngines, eq(vehicleEngines.id, baseVehicleEngines.engineId));
  const baseOf = new Map(bases.map((b) => [key(b.make, b.model, b.year), b.id]));
  const engineOf = new Map(engines.map((e) => [key(e.baseVehicleId, e.name), e.id]));
  /** The rows of one cell, or the first problem in words. */
  return (entries: FitmentEntry[]): FitmentInsert[] | string => {
    const rows: FitmentInsert[] = [];
    for (const e of entries) {
      for (let year = e.yearFrom; year <= e.yearTo; year++) {
        const baseVehicleId = baseOf.get(key(e.make, e.model, year));
        if (baseVehicleId === undefined) {
          return `We do not list a ${year} ${e.make} ${e.model} (check the make, the model and the years)`;
        }
        const engineId = e.engine ? engineOf.get(key(baseVehicleId, e.engine)) : undefined;
        if (e.engine && engineId === undefined) {
          return `The ${year} ${e.make} ${e.model} has no engine ${e.engine} in our list`;
        }
        rows.push({
          baseVehicleId,
          engineId: engineId ?? null,
          position: e.position ?? null,
          quantity: e.quantity,
          note: e.note ?? null,
        });
      }
    }
    return rows;
  };
}
/**
 * A running import's transaction holds its job's advisory lock: a job still `running` whose
 * lock is free lost its process or its database (killed, restarted) and imported nothing. The
 * grace period covers the moment between writing the job and its transaction taking the lock.
 */
const ABANDONED_AFTER_SECONDS = 10;
export const abandonedImportMessage =
  "Nothing was imported: the import stopped when the store or its database restarted. Upload the file again.";

const toJob = (j: JobRow): ImportJob => ({
  id: j.id,
  status: j.status,
  total: j.total,
  done: j.done,
  creates: j.creates,
  updates: j.updates,
  error: j.error,
});

/**
 * Rows of a file without `pack_size` whose minimum order is not a whole number of their
 * product's packs (rows with the column were checked with the file; a new product's pack is 1).
 */
async function minimumsOutOfPacks(db: DbOrTx, rows: ProductRow[]): Promise<CsvRowError[]> {
  const unsure = rows.filter((r) => r.product.packSize === undefined);
  const keys = unsure.map((r) => normalizePartNumber(r.product.partNumber));
  const packs = new Map<string, number>();
  for (let i = 0; i < keys.length; i += 5000) {
    const hits = await db
      .select({ key: products.partNumberNormalized, pack: products.packSize })
      .from(products)
      .where(
        and(
          inArray(products.partNumberNormalized, keys.slice(i, i + 5000)),
          gt(products.packSize, 1),
        ),
      );
    for (const h of hits) packs.set(h.key, h.pack);
  }
  return unsure.flatMap((r) => {
    const pack = packs.get(normalizePartNumber(r.product.partNumber));
    if (pack === undefined || r.product.minimumOrder % pack === 0) return [];
    const message = productFieldMessages.minimumNotPackMultiple(pack);
    return [{ line: r.line, column: "minimum_order", message }];
  });
}

/**
 * The import's products checked again as written (a pack size changed on the screen since the
 * preview): a minimum order that is not a whole number of packs undoes the whole import.
 */
async function refuseMinimumsOutOfPacks(tx: DbOrTx, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const [bad] = await tx
    .select({ partNumber: products.partNumber, pack: products.packSize })
    .from(products)
    .where(
      and(inArray(products.id, ids), sql`${products.minimumOrder} % ${products.packSize} <> 0`),
    )
    .limit(1);
  if (bad) {
    const message = productFieldMessages.minimumNotPackMultiple(bad.pack);
    throw new HttpError(400, "validation", `${bad.partNumber}: ${message}`);
  }
}

export function createProductCsvService(db: Db, log: { error(o: object, m: string): void }) {
  /** The file's rows and problems, the `fitment` cells checked against our vehicle list. */
  async function read(data: Buffer) {
    const { rows, errors, fitmentByLine } = readProductCsv(data);
    const fitments = new Map<number, FitmentInsert[]>();
    if ([...fitmentByLine.values()].some((entries) => entries.length > 0)) {
      const resolve = await vehicleIndex(db);
      for (const [line, entries] of fitmentByLine) {
        const resolved = resolve(entries);
        if (typeof resolved === "string") {
          errors.push({ line, column: "fitment", message: resolved });
        } else fitments.set(line, resolved);
      }
    }
    const attributeValues = new Map<number, AttributeValue[]>();
    if (rows.some((r) => r.attributes !== undefined && r.attributes.length > 0)) {
      const resolve = await attributeIndex(db);
      for (const r of rows) {
        if (!r.attributes) continue;
        const resolved = resolve(r.product.category, r.attributes);
        if (typeof resolved === "string") {
          errors.push({ line: r.line, column: ATTRIBUTES_COLUMN, message: resolved });
        } else attributeValues.set(r.line, resolved);
      }
    }
    errors.push(...(await minimumsOutOfPacks(db, rows)));
    const bad = new Set(errors.map((e) => e.line));
    return { rows: rows.filter((r) => !bad.has(r.line)), errors, fitments, attributeValues };
  }

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
  async function write(
    jobId: string,
    rows: ProductRow[],
    fitments: Map<number, FitmentInsert[]>,
    attributeValues: Map<number, AttributeValue[]>,
    actor: AuditActor,
  ) {
    const creatorEmail = actor.email;
    let creates = 0;
    let updates = 0;
    await db.transaction(async (tx) => {
      await tx.execute(lockWithin(advisoryLocks.perProductImport, jobId));
      for (let i = 0; i < rows.length; i += BATCH) {
        const batchRows = rows.slice(i, i + BATCH);
        const batch = await withStockChanges(tx, batchRows);
        const written = await upsertProductsByPartNumber(tx, batch, creatorEmail);
        await refuseTotalsBelowElsewhere(
          tx,
          written.filter((w) => !w.inserted).map((w) => w.id),
        );
        await refuseMinimumsOutOfPacks(
          tx,
          written.map((w) => w.id),
        );
        const idOf = new Map(written.map((w) => [w.key, w.id]));
        for (const w of written) {
          if (w.inserted) creates++;
          else updates++;
        }
        // A file with a fitment column replaces each row's fitment (an empty cell removes it).
        const withFitment = batchRows.filter((r) => r.fitment !== undefined);
        if (withFitment.length > 0) {
          const productIdOf = (r: ProductRow) =>
            idOf.get(normalizePartNumber(r.product.partNumber))!;
          const fitRows = withFitment.flatMap((r) =>
            (fitments.get(r.line) ?? []).map((f) => ({ ...f, productId: productIdOf(r) })),
          );
          await replaceFitments(tx, withFitment.map(productIdOf), fitRows, 5 * BATCH);
        }
        // A file with an attributes column replaces each row's values (an empty cell clears them).
        for (const r of batchRows) {
          if (r.attributes === undefined) continue;
          const productId = idOf.get(normalizePartNumber(r.product.partNumber))!;
          await replaceProductAttributes(tx, productId, attributeValues.get(r.line) ?? []);
        }
        // Progress is written outside the transaction, so the page sees it while this runs.
        await db
          .update(productImportJobs)
          .set({ done: Math.min(i + BATCH, rows.length) })
          .where(eq(productImportJobs.id, jobId));
      }
      await recordAdminAction(tx, {
        actor,
        action: "product.import",
        target: { type: "import", id: jobId },
        summary: `Imported a product CSV: ${creates} new products, ${updates} updates`,
      });
    });
    return { creates, updates };
  }

  return {
    /** What importing the file would do, and every problem with its line; writes nothing. */
    async preview(data: Buffer): Promise<CsvPreview> {
      const { rows, errors } = await read(data);
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
      actor: AuditActor,
    ): Promise<{ job: ImportJob; finished: Promise<void> }> {
      const { rows, errors, fitments, attributeValues } = await read(data);
      if (errors.length > 0) {
        throw new HttpError(
          400,
          "validation",
          `The file has ${plural(errors.length, "error")}; preview it, fix them and upload it again`,
        );
      }
      const [job] = await db
        .insert(productImportJobs)
        .values({ createdBy: actor.email, status: "running", total: rows.length })
        .returning();
      const finished = write(job!.id, rows, fitments, attributeValues, actor)
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

    /** An import's progress; one whose process or database went away is marked failed. */
    async job(id: string): Promise<ImportJob> {
      const [job] = await db.select().from(productImportJobs).where(eq(productImportJobs.id, id));
      if (!job) throw notFound("Import not found");
      if (
        job.status !== "running" ||
        Date.now() - job.createdAt.getTime() < ABANDONED_AFTER_SECONDS * 1000
      ) {
        return toJob(job);
      }
      const failed = await db.transaction(async (tx) => {
        const [lock] = (
          await tx.execute<{ ok: boolean }>(tryLockWithin(advisoryLocks.perProductImport, id))
        ).rows;
        if (!lock?.ok) return undefined; // its transaction is alive: still running
        const [row] = await tx
          .update(productImportJobs)
          .set({ status: "failed", done: 0, error: abandonedImportMessage })
          .where(and(eq(productImportJobs.id, id), eq(productImportJobs.status, "running")))
          .returning();
        return row;
      });
      if (failed) log.error({ jobId: id }, "product import abandoned: marked failed");
      return toJob(failed ?? job);
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
      const fitmentOf = await exportedFitment(db);
      const attributesOfAll = await attributesOf(db, "all");
      const all = rows.map((p) => ({
        ...toAdminProduct(p, byProduct.get(p.id) ?? [], attributesOfAll.get(p.id) ?? []),
        fitment: fitmentOf.get(p.id) ?? [],
      }));
      return toCsv(all);
    },
  };
}

/** Every product's fitment as cell entries: consecutive years of one application become a range. */
async function exportedFitment(db: Db): Promise<Map<string, FitmentEntry[]>> {
  const rows = await withVehicleNames(
    db
      .select({
        productId: productFitments.productId,
        year: baseVehicles.year,
        make: vehicleMakes.name,
        model: vehicleModels.name,
        engine: vehicleEngines.name,
        ...fitmentApplication,
      })
      .from(productFitments)
      .$dynamic(),
    productFitments,
  ).orderBy(
    asc(productFitments.productId),
    asc(vehicleMakes.name),
    asc(vehicleModels.name),
    asc(vehicleEngines.name),
    asc(productFitments.position),
    asc(productFitments.quantity),
    asc(productFitments.note),
    asc(baseVehicles.year),
  );
  const byProduct = new Map<string, FitmentEntry[]>();
  for (const r of rows) {
    const list = byProduct.get(r.productId) ?? [];
    const last = list.at(-1);
    const entry: FitmentEntry = {
      yearFrom: r.year,
      yearTo: r.year,
      make: r.make,
      model: r.model,
      quantity: r.quantity,
      ...(r.engine !== null && { engine: r.engine }),
      ...(r.position !== null && { position: r.position }),
      ...(r.note !== null && { note: r.note }),
    };
    const same =
      last &&
      last.yearTo + 1 === r.year &&
      key(
        last.make,
        last.model,
        last.engine ?? "",
        last.position ?? "",
        last.quantity,
        last.note ?? "",
      ) === key(r.make, r.model, r.engine ?? "", r.position ?? "", r.quantity, r.note ?? "");
    if (same) last.yearTo = r.year;
    else list.push(entry);
    byProduct.set(r.productId, list);
  }
  return byProduct;
}

/** A failure in words an admin can act on (a constraint names what clashed). */
function describeFailure(err: unknown): string {
  // A rule of the write itself (a part's stock below what its other locations have on sale).
  if (err instanceof HttpError) return err.message;
  return postgresError(err)?.detail ?? "the database refused the change; try again";
}

/**
 * The rows' products, with the stock of a row that says what it was at export applied as a
 * change to the stock now: the products' rows are locked first, so an order cannot move the stock
 * between this read and the write.
 */
async function withStockChanges(tx: DbOrTx, rows: ProductRow[]) {
  const relative = rows.filter((r) => r.stockAtExport !== undefined);
  if (relative.length === 0) return rows.map((r) => r.product);
  const keys = relative.map((r) => normalizePartNumber(r.product.partNumber));
  const current = await tx
    .select({ key: products.partNumberNormalized, stock: products.availableQuantity })
    .from(products)
    .where(inArray(products.partNumberNormalized, keys))
    .orderBy(products.id)
    .for("update");
  const stockNow = new Map(current.map((c) => [c.key, c.stock]));
  return rows.map(({ product, stockAtExport }) => {
    const now = stockNow.get(normalizePartNumber(product.partNumber));
    if (stockAtExport === undefined || now === undefined) return product;
    const changed = now + (product.availableQuantity - stockAtExport);
    return { ...product, availableQuantity: Math.max(0, changed) };
  });
}

export type ProductCsvService = ReturnType<typeof createProductCsvService>;
