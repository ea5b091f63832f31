import { hourlySweepJob, type JobLog } from "../jobs/recurring";

export const WEBHOOK_SWEEP_QUEUE = "webhook-log-sweep";

/**
 * Hourly, once across every process (jobs/recurring.ts): events older than 30 days whose every
 * delivery is finished (delivered or failed) deleted with their deliveries and attempts
 * (docs/webhooks.md, "Kept").
 */
export function webhookSweepJob(webhooks: { sweep(): Promise<number> }, log: JobLog) {
  return hourlySweepJob(
    WEBHOOK_SWEEP_QUEUE,
    "Webhook log sweep",
    webhooks,
    log,
    (n) => `deleted ${n} webhook event(s) older than 30 days`,
  );
}
