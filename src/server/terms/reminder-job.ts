import { countingJob, type JobLog } from "../jobs/recurring";
import type { TermsService } from "./service";

export const INVOICE_REMINDER_QUEUE = "invoice-reminders";
/** How often the reminders are looked for: reminders are by the day, so a quarter-hour is plenty. */
export const REMINDER_EVERY_MS = 15 * 60 * 1000;

/**
 * The invoice reminders, a recurring job (jobs/recurring.ts). What a run sends is recorded per
 * invoice and kind, so a run repeated or run by two processes sends nothing twice.
 */
export function invoiceReminderJob(
  terms: Pick<TermsService, "sendReminders">,
  opts: {
    everyMs: number;
    log: JobLog;
  },
) {
  return countingJob(
    INVOICE_REMINDER_QUEUE,
    { everyMs: opts.everyMs, name: "invoice reminders", log: opts.log },
    () => terms.sendReminders(),
    (n) => `queued ${n} invoice reminder(s)`,
  );
}
