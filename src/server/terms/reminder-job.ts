import type PgBoss from "pg-boss";
import type { TermsService } from "./service";

export const INVOICE_REMINDER_QUEUE = "invoice-reminders";
const KEY = "remind";
/** How often the reminders are looked for: reminders are by the day, so a quarter-hour is plenty. */
export const REMINDER_EVERY_MS = 15 * 60 * 1000;

/**
 * The invoice reminders as a pg-boss job on the store's queue, chained like the hold sweeper
 * (orders/hold-sweeper.ts): a "stately" queue with one key, each run queueing the next one
 * `everyMs` later, every process queueing one at start (a repeat is dropped). What a run sends is
 * recorded per invoice and kind, so a run repeated or run by two processes sends nothing twice.
 */
export function invoiceReminderJob(
  terms: Pick<TermsService, "sendReminders">,
  opts: {
    everyMs: number;
    log: { info(msg: string): void; error(obj: object, msg: string): void };
  },
) {
  const everySeconds = Math.max(1, Math.round(opts.everyMs / 1000));
  return async (boss: PgBoss): Promise<string[]> => {
    for (let attempt = 0; ; attempt++) {
      try {
        await boss.createQueue(INVOICE_REMINDER_QUEUE, {
          name: INVOICE_REMINDER_QUEUE,
          policy: "stately",
          retryLimit: 1_000_000,
          retryDelay: everySeconds,
          expireInSeconds: 300,
          retentionMinutes: 60,
        });
        break;
      } catch (err) {
        if (attempt >= 5) throw err;
        await new Promise((resolve) =>
          setTimeout(resolve, 200 * 2 ** attempt + Math.random() * 200),
        );
      }
    }
    const queueNext = (startAfter: number) =>
      boss.send(INVOICE_REMINDER_QUEUE, {}, { singletonKey: KEY, startAfter });
    const worker = await boss.work(
      INVOICE_REMINDER_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: Math.min(everySeconds, 5) },
      async () => {
        await queueNext(everySeconds);
        try {
          const n = await terms.sendReminders();
          if (n > 0) opts.log.info(`queued ${n} invoice reminder(s)`);
        } catch (err) {
          opts.log.error({ err }, "invoice reminders failed");
          throw err;
        }
      },
    );
    await queueNext(0);
    return [worker];
  };
}
