import { countingJob } from "../jobs/recurring";

export const IDEMPOTENCY_SWEEP_QUEUE = "idempotency-key-sweep";
const EVERY_MS = 60 * 60 * 1000;

/**
 * Hourly, once across every process (jobs/recurring.ts): the Idempotency-Keys past their 24
 * hours deleted (docs/idempotency.md). A key past them is ignored before then.
 */
export function idempotencySweepJob(
  keys: { sweep(): Promise<number> },
  log: { info(msg: string): void; error(obj: object, msg: string): void },
) {
  return countingJob(
    IDEMPOTENCY_SWEEP_QUEUE,
    { everyMs: EVERY_MS, name: "Idempotency-Key sweep", log },
    () => keys.sweep(),
    (n) => `deleted ${n} Idempotency-Key(s) past their 24 hours`,
  );
}
