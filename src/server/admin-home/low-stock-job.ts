import { countingJob, type JobLog } from "../jobs/recurring";
import type { AdminHomeService } from "./service";

export const LOW_STOCK_QUEUE = "low-stock-email";
/** How often the day's email is looked for: it goes once a day, so a quarter-hour is plenty. */
export const LOW_STOCK_EVERY_MS = 15 * 60 * 1000;

/**
 * The daily low-stock email to admins, a recurring job (jobs/recurring.ts): each run reads whether
 * it is on and its hour, as an admin set them on Today.
 */
export function lowStockEmailJob(
  home: Pick<AdminHomeService, "sendLowStockEmail">,
  opts: { log: JobLog },
) {
  return countingJob(
    LOW_STOCK_QUEUE,
    { everyMs: LOW_STOCK_EVERY_MS, name: "low-stock email", log: opts.log },
    () => home.sendLowStockEmail(),
    (n) => `queued ${n} low-stock email(s)`,
  );
}
