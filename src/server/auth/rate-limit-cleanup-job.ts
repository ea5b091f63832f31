import type { DbOrTx } from "../db/database";
import { recurringJob } from "../jobs/recurring";
import { forgetOldRateWindows } from "./rate-limit";

export const RATE_LIMIT_CLEANUP_QUEUE = "rate-limit-cleanup";
/** How often windows older than a day are forgotten. */
export const RATE_LIMIT_CLEANUP_EVERY_MS = 60 * 60 * 1000;

/** `forgetOldRateWindows` hourly, once across every process: a recurring job (jobs/recurring.ts). */
export function rateLimitCleanupJob(
  db: DbOrTx,
  opts: { log: { error(obj: object, msg: string): void } },
) {
  return recurringJob(
    RATE_LIMIT_CLEANUP_QUEUE,
    { everyMs: RATE_LIMIT_CLEANUP_EVERY_MS, name: "rate-limit cleanup", log: opts.log },
    async () => void (await forgetOldRateWindows(db)),
  );
}
