import type { Readable } from "node:stream";
import { and, desc, eq, inArray, lt, type SQL } from "drizzle-orm";
import type PgBoss from "pg-boss";
import {
  importNotStartable,
  type ImportKind,
  type ImportListQuery,
  type ImportRecord,
} from "../../contract/imports";
import { recordAdminAction, type AuditActor } from "../audit/service";
import { replaceFitmentsFromStaging } from "../catalog/writes";
import { advisoryLocks, waitForLock } from "../db/advisory-locks";
import type { Db } from "../db/database";
import { postgresError } from "../db/postgres-errors";
import { sql } from "../db/sql";
import { conflict, HttpError, notFound } from "../errors";
import type { ApiKeyActor } from "../http/request-context";
import type { JobQueue } from "../jobs/queue";
import type { AcesLimits } from "./aces";
import { ACES_STAGING, stageAces } from "./aces-import";
import type { PiesLimits } from "./pies";
import { applyPies } from "./pies-import";
import { ImportFileError } from "./xml-stream";
import { catalogImports } from "./tables";
import { importKey, type StoredUpload } from "./upload";
import type { FileStorage } from "../storage/storage";
import { pageOf } from "../db/page";

/**
 * The job queue's queue of imports: one job per import, `{ importId }`, and the API key that
 * started it, if one did (the audit row names it: docs/api-keys.md).
 */
export const IMPORT_QUEUE = "catalog-imports";

const queueOptions = {
  name: IMPORT_QUEUE,
  // A job whose process died mid-import (its transaction rolled back) is handed out again once it
  // expires; the import is all or nothing, and one already done is not run again.
  retryLimit: 2,
  retryDelay: 30,
  expireInSeconds: 30 * 60,
  retentionMinutes: 24 * 60,
};

/** A file uploaded and not imported within this long is removed (its import marked failed). */
const KEEP_PREVIEWED_MS = 24 * 60 * 60 * 1000;
export const EXPIRED_PREVIEW_MESSAGE =
  "Not imported within a day of its upload: the file was removed. Upload it again.";

/**
 * An import queued or running this long after its start has stopped for good: each of the job's
 * three tries ends within `expireInSeconds` (30 min) and 30 s, and its transaction rolled back.
 */
const STUCK_AFTER_MS = 2 * 60 * 60 * 1000;
export const STOPPED_IMPORT_MESSAGE =
  "Nothing was imported: the import stopped without finishing (the store stopped while it ran). Upload the file again.";

/** The longest a statement of the import's transaction may run (the pool's default is shorter). */
const IMPORT_STATEMENT_TIMEOUT = "300s";

type Row = typeof catalogImports.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toRecord = (r: Row): ImportRecord => ({
  id: r.id,
  kind: r.kind,
  brand: r.brand,
  fileName: r.fileName,
  status: r.status,
  counts: {
    applications: r.applications,
    parts: r.parts,
    vehicles: r.vehicles,
    rowsToWrite: r.rowsToWrite,
    rowsUnchanged: r.rowsUnchanged,
    rowsToRemove: r.rowsToRemove,
    errorCount: r.errorCount,
  },
  pies: r.piesCounts,
  errors: r.errors,
  progress: { done: r.progressDone, total: r.progressTotal },
  result:
    r.inserted !== null && r.deleted !== null ? { inserted: r.inserted, deleted: r.deleted } : null,
  failure: r.failure,
  createdBy: r.createdBy,
  createdAt: r.createdAt.toISOString(),
  startedAt: iso(r.startedAt),
  finishedAt: iso(r.finishedAt),
});

export interface ImportServiceOptions {
  /** Where uploads wait (the storage's `imports` area: upload.ts). */
  storage: FileStorage;
  /** IMPORT_MAX_FILE_MIB in bytes, IMPORT_MAX_APPLICATIONS and IMPORT_MAX_ITEMS. */
  limits: AcesLimits & PiesLimits;
  /** The store's job queue: the import runs as one of its jobs. */
  queue: JobQueue;
  /** This process's catalog read cache forgets fitment (others hear the fitment table's NOTIFY). */
  catalogChanged: () => void;
  log: {
    info(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

/**
 * Catalog data imports (docs/imports.md): an upload is checked and counted (`preview`: nothing
 * written), then `start` queues its job, which replaces the brand's fitment in one transaction.
 */
export function createImportService(db: Db, opts: ImportServiceOptions) {
  const { storage, limits, queue, log } = opts;
  let workers: string[] = [];

  queue.setUp(async (boss) => {
    await boss.createQueue(IMPORT_QUEUE, queueOptions);
    await boss.updateQueue(IMPORT_QUEUE, queueOptions);
  });
  queue.alongside(async (boss) => {
    const worker = await boss.work<{ importId: string; apiKey?: ApiKeyActor }>(
      IMPORT_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: 2 },
      async ([job]) => {
        if (job) await run(job.data.importId, job.data.apiKey);
      },
    );
    workers = [worker];
    return workers;
  });

  /** A stored upload, read from the start (the preview and the job each read it once). */
  const reader = (storedFile: string) => async () =>
    (await storage.get(importKey(storedFile))).body;

  /** Removes an import's file (it is done with), and says so on its record. */
  async function removeFile(r: Pick<Row, "id" | "storedFile">) {
    if (!r.storedFile) return;
    await storage.remove(importKey(r.storedFile));
    await db.update(catalogImports).set({ storedFile: null }).where(eq(catalogImports.id, r.id));
  }

  /** The imports `which` picks → failed, now, saying `failure`; their files removed. How many. */
  async function failImports(which: SQL | undefined, failure: string): Promise<number> {
    const failed = await db
      .update(catalogImports)
      .set({ status: "failed", failure, finishedAt: new Date() })
      .where(which)
      .returning({ id: catalogImports.id, storedFile: catalogImports.storedFile });
    for (const r of failed) await removeFile(r);
    return failed.length;
  }

  /** Uploads previewed more than a day ago and never imported: their files go. How many. */
  function forgetStalePreviews(): Promise<number> {
    const stale = and(
      eq(catalogImports.status, "previewed"),
      lt(catalogImports.createdAt, new Date(Date.now() - KEEP_PREVIEWED_MS)),
    );
    return failImports(stale, EXPIRED_PREVIEW_MESSAGE);
  }

  /**
   * Imports queued or running long past any try of their job (its process died each time, or the
   * queue lost it): failed, saying so, their files removed. Answers how many.
   */
  function failStuckImports(): Promise<number> {
    const stuck = and(
      inArray(catalogImports.status, ["queued", "running"]),
      lt(catalogImports.startedAt, new Date(Date.now() - STUCK_AFTER_MS)),
    );
    return failImports(stuck, STOPPED_IMPORT_MESSAGE);
  }

  async function markFailed(id: string, failure: string) {
    const [row] = await db
      .update(catalogImports)
      .set({ status: "failed", failure, finishedAt: new Date() })
      .where(eq(catalogImports.id, id))
      .returning();
    if (row) await removeFile(row);
  }

  /**
   * The import's job, all at once: ACES, the file staged again, then the brand's fitment replaced;
   * PIES, the file's new and changed parts written.
   */
  async function run(id: string, apiKey?: ApiKeyActor): Promise<void> {
    const [found] = await db.select().from(catalogImports).where(eq(catalogImports.id, id));
    if (!found || (found.status !== "queued" && found.status !== "running")) return;
    const file = found.storedFile ? reader(found.storedFile) : undefined;
    if (!file) {
      await markFailed(id, "Nothing was imported: the uploaded file is gone. Upload it again.");
      return;
    }
    await db
      .update(catalogImports)
      .set({ status: "running", progressDone: 0, startedAt: found.startedAt ?? new Date() })
      .where(eq(catalogImports.id, id));
    const actor: AuditActor = {
      id: found.startedById ?? found.createdById,
      email: found.startedBy ?? found.createdBy,
      ...(apiKey && { apiKey }),
    };
    let lastProgress = 0;
    /** Written outside the transaction, so the page sees it move; a few times a second at most. */
    const progress = (step: number) => async (done: number) => {
      if (done - lastProgress < step && done < found.progressTotal) return;
      lastProgress = done;
      await db.update(catalogImports).set({ progressDone: done }).where(eq(catalogImports.id, id));
    };
    try {
      const outcome = await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local statement_timeout = '${IMPORT_STATEMENT_TIMEOUT}'`));
        // One import at a time: two files naming the same product would else interleave.
        await waitForLock(tx, advisoryLocks.catalogImport);
        let done: Partial<typeof catalogImports.$inferInsert>;
        let summary: string;
        if (found.kind === "pies") {
          const applied = await applyPies(tx, file, limits, {
            write: true,
            creatorEmail: actor.email,
            onProgress: progress(1_000),
          });
          const c = applied.counts;
          done = {
            brand: applied.brand,
            piesCounts: c,
            errorCount: applied.errorCount,
            errors: applied.errors,
            progressDone: c.items,
            progressTotal: c.items,
            inserted: c.newParts + c.updatedParts,
            deleted: 0,
          };
          summary = `Imported PIES file ${found.fileName} (brand ${applied.brand}): ${c.items} items, ${c.newParts} new parts, ${c.updatedParts} updated, ${c.unchangedParts} unchanged, ${c.attributeValues} attribute values, ${c.newAttributes} new attributes, ${c.interchangeNumbers} interchange numbers, ${c.assets} assets, ${applied.errorCount} skipped`;
        } else {
          const staged = await stageAces(tx, file, limits, progress(5_000));
          const { inserted, deleted } = await replaceFitmentsFromStaging(tx, ACES_STAGING);
          const { counts } = staged;
          done = {
            brand: staged.header.brand,
            applications: counts.applications,
            parts: counts.parts,
            vehicles: counts.vehicles,
            rowsToWrite: counts.rowsToWrite,
            rowsUnchanged: counts.rowsUnchanged,
            rowsToRemove: counts.rowsToRemove,
            errorCount: counts.errorCount,
            errors: staged.errors,
            progressDone: counts.applications,
            progressTotal: counts.applications,
            inserted,
            deleted,
          };
          summary = `Imported ACES file ${found.fileName} (brand ${staged.header.brand}): ${counts.applications} applications, ${inserted} fitment rows added, ${deleted} removed, ${counts.rowsUnchanged} unchanged, ${counts.errorCount} skipped`;
        }
        const [row] = await tx
          .update(catalogImports)
          .set({ ...done, status: "done", finishedAt: new Date() })
          .where(eq(catalogImports.id, id))
          .returning();
        await recordAdminAction(tx, {
          actor,
          action: found.kind === "pies" ? "catalog.import-pies" : "catalog.import-aces",
          target: { type: "import", id },
          summary,
        });
        return row!;
      });
      opts.catalogChanged();
      log.info(
        { importId: id, kind: found.kind, inserted: outcome.inserted, deleted: outcome.deleted },
        "catalog import done",
      );
      await removeFile(outcome);
    } catch (err) {
      log.error({ err, importId: id, kind: found.kind }, "catalog import failed");
      // Recorded, not retried: the same file fails the same way. Should even that fail (the
      // database away), the job is retried.
      await markFailed(id, `Nothing was imported: ${describeFailure(err)}`);
    }
  }

  /** An ACES upload checked and counted in a transaction that writes nothing lasting. */
  async function stageAcesUpload(
    file: () => Promise<Readable>,
  ): Promise<Partial<typeof catalogImports.$inferInsert>> {
    const staged = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = '${IMPORT_STATEMENT_TIMEOUT}'`));
      return stageAces(tx, file, limits);
    });
    return {
      brand: staged.header.brand,
      ...staged.counts,
      errors: staged.errors,
      progressTotal: staged.counts.applications,
    };
  }

  /** A PIES upload checked and compared with the catalog; nothing is written. */
  async function comparePiesUpload(
    file: () => Promise<Readable>,
    actor: AuditActor,
  ): Promise<Partial<typeof catalogImports.$inferInsert>> {
    const applied = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = '${IMPORT_STATEMENT_TIMEOUT}'`));
      return applyPies(tx, file, limits, { write: false, creatorEmail: actor.email });
    });
    return {
      brand: applied.brand,
      piesCounts: applied.counts,
      errorCount: applied.errorCount,
      errors: applied.errors,
      progressTotal: applied.counts.items,
    };
  }

  return {
    /** Checks an uploaded file and counts what importing it would change; writes only the record. */
    async preview(
      kind: ImportKind,
      upload: StoredUpload,
      actor: AuditActor,
    ): Promise<ImportRecord> {
      await forgetStalePreviews();
      const file = reader(upload.storedFile);
      try {
        const checked =
          kind === "pies" ? await comparePiesUpload(file, actor) : await stageAcesUpload(file);
        const [row] = await db
          .insert(catalogImports)
          .values({
            kind,
            brand: "",
            ...checked,
            fileName: upload.fileName,
            storedFile: upload.storedFile,
            status: "previewed",
            createdById: actor.id,
            createdBy: actor.email,
          })
          .returning();
        return toRecord(row!);
      } catch (err) {
        await storage.remove(importKey(upload.storedFile));
        if (err instanceof ImportFileError) throw new HttpError(400, "validation", err.message);
        throw err;
      }
    },

    async get(id: string): Promise<ImportRecord> {
      const [row] = await db.select().from(catalogImports).where(eq(catalogImports.id, id));
      if (!row) throw notFound("Import not found");
      return toRecord(row);
    },

    /** The most recent imports first. */
    async list(query: ImportListQuery): Promise<{ items: ImportRecord[]; total: number }> {
      const { rows, total } = await pageOf(
        db,
        db
          .select()
          .from(catalogImports)
          .orderBy(desc(catalogImports.createdAt), desc(catalogImports.id)),
        catalogImports,
        undefined,
        query,
      );
      return { items: rows.map(toRecord), total };
    },

    /** Queues a previewed import's job; answers the record, `queued`. */
    async start(id: string, actor: AuditActor): Promise<ImportRecord> {
      const [row] = await db
        .update(catalogImports)
        .set({
          status: "queued",
          startedById: actor.id,
          startedBy: actor.email,
          startedAt: new Date(),
        })
        .where(and(eq(catalogImports.id, id), eq(catalogImports.status, "previewed")))
        .returning();
      if (!row) {
        const [other] = await db.select().from(catalogImports).where(eq(catalogImports.id, id));
        if (!other) throw notFound("Import not found");
        throw conflict(importNotStartable(other.status));
      }
      let boss: PgBoss;
      try {
        boss = await queue.ready();
        await boss.send(
          IMPORT_QUEUE,
          { importId: id, ...(actor.apiKey && { apiKey: actor.apiKey }) },
          { singletonKey: id },
        );
      } catch (err) {
        // Not queued: it may be started again.
        await db
          .update(catalogImports)
          .set({ status: "previewed", startedById: null, startedBy: null, startedAt: null })
          .where(eq(catalogImports.id, id));
        throw err;
      }
      // This process's worker looks now rather than at its next poll.
      for (const w of workers) boss.notifyWorker(w);
      return toRecord(row);
    },

    /** Runs an import's job here and now (tests; the queue's worker calls the same). */
    run,

    /**
     * The hourly sweep (sweep-job.ts): previews never imported within a day, and imports stopped
     * for good, marked failed with their files removed. Answers how many imports it ended.
     */
    async sweep(): Promise<number> {
      return (await forgetStalePreviews()) + (await failStuckImports());
    },
  };
}

/** A failure in words an admin can act on. */
function describeFailure(err: unknown): string {
  if (err instanceof ImportFileError) return err.message;
  const pg = postgresError(err);
  if (pg) return pg.detail ?? "the database refused the change; try again";
  return "the import stopped unexpectedly; try again";
}

export type ImportService = ReturnType<typeof createImportService>;
