import type { FastifyBaseLogger } from "fastify";
import { lowStockEmailJob } from "./admin-home/low-stock-job";
import type { AdminHomeService } from "./admin-home/service";
import { approvalReminderJob } from "./approvals/reminder-job";
import { rateLimitCleanupJob } from "./auth/rate-limit-cleanup-job";
import type { Config } from "./config";
import type { DbOrTx } from "./db/database";
import type { createRecurringJobs } from "./jobs/recurring";
import { importSweepJob } from "./imports/sweep-job";
import { idempotencySweepJob } from "./idempotency/sweep-job";
import { webhookSweepJob } from "./webhooks/sweep-job";
import { holdSweeperJob } from "./orders/hold-sweeper";
import { reconcileJob } from "./payments/reconcile-job";
import { invoiceReminderJob, REMINDER_EVERY_MS } from "./terms/reminder-job";
import type { TermsService } from "./terms/service";
import { refundRetryJob } from "./workflows/refund-retry-job";
import { deadlineReminderJob } from "./warranty/deadline-reminders";
import { countingJob } from "./jobs/recurring";

/**
 * The store's recurring jobs, each a pg-boss job run once at a time across every process
 * (jobs/recurring.ts); app.ts hands over the services they call.
 */
export function addStoreJobs(
  recurring: ReturnType<typeof createRecurringJobs>,
  does: {
    /** Queues the "about to expire" emails (orders/service.ts). */
    warnExpiring(): Promise<number>;
    /** Cancels the orders past their hold (workflows/expire-holds.ts); how many. */
    cancelExpired(): Promise<number>;
    refunds: { retryDue(): Promise<number> };
    payments: { reconcile(since: Date): Promise<number> };
    terms: Pick<TermsService, "sendReminders">;
    approvals: { remindExpiring(): Promise<number> };
    warrantyDeadlines: { remindDeadlines(): Promise<number> };
    adminHome: Pick<AdminHomeService, "sendLowStockEmail">;
    imports: { sweep(): Promise<number> };
    idempotency: { sweep(): Promise<number> };
    webhooks: { sweep(): Promise<number> };
    vatChecks: { enabled: boolean; sweep(): Promise<number> };
    backorderDates: { sweep(): Promise<number> };
    db: DbOrTx;
  },
  config: Pick<Config, "holdSweepMs">,
  log: FastifyBaseLogger,
): void {
  // The hold sweeper: warns of holds about to end, cancels those that ended (hold-sweeper.ts).
  recurring.add(
    holdSweeperJob(
      { warnExpiring: does.warnExpiring, cancelExpired: does.cancelExpired },
      { everyMs: config.holdSweepMs, log },
    ),
  );
  recurring.add(refundRetryJob(does.refunds, { log })); // refunds that always finish
  recurring.add(reconcileJob(does.payments, { log })); // charges the store never heard of
  // The invoice reminders (net terms).
  recurring.add(invoiceReminderJob(does.terms, { everyMs: REMINDER_EVERY_MS, log }));
  // The owners' reminder before an approval window ends (docs/approvals.md).
  recurring.add(approvalReminderJob(does.approvals, config, log));
  // The warranty claims' deadline reminders, hourly (docs/warranty.md).
  recurring.add(deadlineReminderJob(does.warrantyDeadlines, log));
  // Rate-limit counters older than a day, forgotten hourly (auth/rate-limit-cleanup-job.ts).
  recurring.add(rateLimitCleanupJob(does.db, { log }));
  // Catalog imports never imported, or stopped for good, marked failed hourly (docs/imports.md).
  recurring.add(importSweepJob(does.imports, log));
  // Idempotency-Keys past their 24 hours, deleted hourly (docs/idempotency.md).
  recurring.add(idempotencySweepJob(does.idempotency, log));
  // Webhook events older than 30 days, no delivery pending, deleted hourly (docs/webhooks.md).
  recurring.add(webhookSweepJob(does.webhooks, log));
  // EU VAT numbers answered by VIES over 30 days ago, or still unanswered, checked again
  // (companies/vat-checks.ts, docs/tax.md "VIES"), looked for every 6 hours.
  if (does.vatChecks.enabled) {
    recurring.add(
      countingJob(
        "vat-recheck",
        { everyMs: 6 * 60 * 60 * 1000, name: "VIES re-check", log },
        () => does.vatChecks.sweep(),
        (n) => `${n} EU VAT number(s) queued for a VIES check`,
      ),
    );
  }
  // Buyers whose backordered parts' promised dates moved, emailed each minute
  // (orders/backorder-mail.ts, docs/inventory.md "Backorders").
  recurring.add(
    countingJob(
      "backorder-dates",
      { everyMs: 60_000, name: "backorder dates", log },
      () => does.backorderDates.sweep(),
      (n) => `${n} order(s) told of new backorder dates`,
    ),
  );
  // The admin home's daily low-stock email to admins (docs/admin-home.md).
  recurring.add(lowStockEmailJob(does.adminHome, { log }));
}
