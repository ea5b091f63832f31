import { countingJob, type JobLog } from "../jobs/recurring";

export const REFUND_RETRY_QUEUE = "refund-retry";
/** How often refunds not gone through are looked for (each waits its own time: refunds.ts). */
export const REFUND_RETRY_EVERY_MS = 60_000;

/**
 * Refunds that always finish: a recurring job (jobs/recurring.ts) that tries every failed or
 * stuck refund again through the refund engine, with its own idempotency key, once across every
 * process of the store.
 */
export function refundRetryJob(refunds: { retryDue(): Promise<number> }, opts: { log: JobLog }) {
  return countingJob(
    REFUND_RETRY_QUEUE,
    { everyMs: REFUND_RETRY_EVERY_MS, name: "refund retry", log: opts.log },
    () => refunds.retryDue(),
    (n) => `refunded ${n} refund(s) that had not gone through`,
  );
}
