import { hourlySweepJob, type JobLog } from "../jobs/recurring";

export const IMPORT_SWEEP_QUEUE = "catalog-import-sweep";

/**
 * Hourly, once across every process (jobs/recurring.ts): uploads never imported within a day, and
 * imports whose job stopped for good (docs/imports.md), marked failed and their files removed, so
 * the Imports page never shows one "running" for ever.
 */
export function importSweepJob(imports: { sweep(): Promise<number> }, log: JobLog) {
  return hourlySweepJob(
    IMPORT_SWEEP_QUEUE,
    "catalog import sweep",
    imports,
    log,
    (n) => `marked ${n} catalog import(s) failed: never imported, or stopped`,
  );
}
