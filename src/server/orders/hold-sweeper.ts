import type PgBoss from "pg-boss";
import type { OrderService } from "./service";

export const HOLD_SWEEP_QUEUE = "hold-sweep";
const KEY = "sweep";

/**
 * The hold-window sweeper as a pg-boss job: every `everyMs` it queues "your hold is about to
 * expire" for the orders that need it (once each) and cancels unpaid orders past their hold.
 * The queue is "stately" with one key: at most one sweep waits and one runs, across every
 * process of the store. Each run first queues the next one (`startAfter`), so the chain goes
 * on; every process queues one when it starts (a repeat is dropped), which restarts a chain
 * that broke (the database away while a sweep ended).
 */
export function holdSweeperJob(
  orders: Pick<OrderService, "cancelExpired" | "warnExpiring">,
  opts: {
    everyMs: number;
    warningMs: number;
    log: { info(msg: string): void; error(obj: object, msg: string): void };
  },
) {
  const everySeconds = Math.max(1, Math.round(opts.everyMs / 1000));
  return async (boss: PgBoss): Promise<string[]> => {
    // Processes starting together may deadlock creating the queue: try again a few times.
    for (let attempt = 0; ; attempt++) {
      try {
        await boss.createQueue(HOLD_SWEEP_QUEUE, {
          name: HOLD_SWEEP_QUEUE,
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
      boss.send(HOLD_SWEEP_QUEUE, {}, { singletonKey: KEY, startAfter });
    const worker = await boss.work(
      HOLD_SWEEP_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: Math.min(everySeconds, 5) },
      async () => {
        await queueNext(everySeconds);
        try {
          await orders.warnExpiring(opts.warningMs);
          const n = await orders.cancelExpired();
          if (n > 0) opts.log.info(`cancelled ${n} unpaid order(s) past their hold`);
        } catch (err) {
          opts.log.error({ err }, "hold sweeper failed");
          throw err;
        }
      },
    );
    await queueNext(0);
    return [worker];
  };
}
