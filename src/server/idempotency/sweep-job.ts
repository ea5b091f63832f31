import { hourlySweepJob, type JobLog } from "../jobs/recurring";

export const IDEMPOTENCY_SWEEP_QUEUE = "idempotency-key-sweep";

/**
 * Hourly, once across every process (jobs/recurring.ts): the Idempotency-Keys past their 24
 * hours deleted (docs/idempotency.md). A key past them is ignored before then.
 */
export function idempotencySweepJob(keys: { sweep(): Promise<number> }, log: JobLog) {
  return hourlySweepJob(
    IDEMPOTENCY_SWEEP_QUEUE,
    "Idempotency-Key sweep",
    keys,
    log,
    (n) => `deleted ${n} Idempotency-Key(s) past their 24 hours`,
  );
}
