import { countingJob, type JobLog } from "../jobs/recurring";

export const RECONCILE_QUEUE = "payment-reconcile";
/** How often the gateway is asked for its recent payments. */
export const RECONCILE_EVERY_MS = 5 * 60_000;
/** How far back: longer than an order's hold, so a charge taken while it held is still seen. */
export const RECONCILE_WINDOW_MS = 72 * 3_600_000;

/**
 * Sweeps that clean up everything (issue 49, finding 13): a recurring job (jobs/recurring.ts)
 * that settles the payments the gateway took whose confirmation never reached the store
 * (payments/service.ts `reconcile`), once across every process.
 */
export function reconcileJob(
  payments: { reconcile(since: Date): Promise<number> },
  opts: { log: JobLog },
) {
  return countingJob(
    RECONCILE_QUEUE,
    { everyMs: RECONCILE_EVERY_MS, name: "payment reconciliation", log: opts.log },
    () => payments.reconcile(new Date(Date.now() - RECONCILE_WINDOW_MS)),
    (n) => `reconciliation settled ${n} payment(s) the store had missed`,
  );
}
