import { countingJob } from "../jobs/recurring";

export const WEBHOOK_SWEEP_QUEUE = "webhook-log-sweep";
const EVERY_MS = 60 * 60 * 1000;

/**
 * Hourly, once across every process (jobs/recurring.ts): events older than 30 days whose every
 * delivery is finished (delivered or failed) deleted with their deliveries and attempts
 * (docs/webhooks.md, "Kept").
 */
export function webhookSweepJob(
  webhooks: { sweep(): Promise<number> },
  log: { info(msg: string): void; error(obj: object, msg: string): void },
) {
  return countingJob(
    WEBHOOK_SWEEP_QUEUE,
    { everyMs: EVERY_MS, name: "Webhook log sweep", log },
    () => webhooks.sweep(),
    (n) => `deleted ${n} webhook event(s) older than 30 days`,
  );
}
