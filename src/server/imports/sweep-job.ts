import { countingJob } from "../jobs/recurring";

export const IMPORT_SWEEP_QUEUE = "catalog-import-sweep";
const EVERY_MS = 60 * 60 * 1000;

/**
 * Hourly, once across every process (jobs/recurring.ts): uploads never imported within a day, and
 * imports whose job stopped for good (docs/imports.md), marked failed and their files removed, so
 * the Imports page never shows one "running" for ever.
 */
export function importSweepJob(
  imports: { sweep(): Promise<number> },
  log: { info(msg: string): void; error(obj: object, msg: string): void },
) {
  return countingJob(
    IMPORT_SWEEP_QUEUE,
    { everyMs: EVERY_MS, name: "catalog import sweep", log },
    () => imports.sweep(),
    (n) => `marked ${n} catalog import(s) failed: never imported, or stopped`,
  );
}
