import type { Config } from "../config";
import { countingJob, type JobLog } from "../jobs/recurring";

export const APPROVAL_REMINDER_QUEUE = "approval-reminders";

/**
 * The owners' reminder before an order's approval window ends (as many hours before as the
 * approval settings say), a recurring job (jobs/recurring.ts): every `everyMs`, once across every
 * process of the store. The window's end itself is the hold sweeper's: it cancels the order and
 * tells the buyer (orders/hold-sweeper.ts).
 */
export function approvalReminderJob(
  /** It reads how long before a window ends from the approval settings (settings.ts). */
  approvals: { remindExpiring(): Promise<number> },
  /** As often as the hold sweeper runs. */
  config: Pick<Config, "holdSweepMs">,
  log: JobLog,
) {
  return countingJob(
    APPROVAL_REMINDER_QUEUE,
    { everyMs: config.holdSweepMs, name: "approval reminders", log },
    () => approvals.remindExpiring(),
    (n) => `reminded the owners of ${n} order(s) awaiting approval`,
  );
}
