import { countingJob } from "../jobs/recurring";

export const HOLD_SWEEP_QUEUE = "hold-sweep";

/**
 * The hold-window sweeper, a recurring job (jobs/recurring.ts): every `everyMs` it queues "your
 * hold is about to expire" for the orders that need it (once each) and cancels unpaid orders past
 * their hold, once across every process of the store.
 */
export function holdSweeperJob(
  orders: {
    /**
     * Queues the "about to expire" emails (orders/service.ts), for the holds ending within the
     * order limits' reminder (orders/limits.ts).
     */
    warnExpiring(): Promise<number>;
    /** Cancels the orders past their hold (workflows/expire-holds.ts). */
    cancelExpired(): Promise<number>;
  },
  opts: {
    everyMs: number;
    log: { info(msg: string): void; error(obj: object, msg: string): void };
  },
) {
  return countingJob(
    HOLD_SWEEP_QUEUE,
    { everyMs: opts.everyMs, name: "hold sweeper", log: opts.log },
    async () => {
      await orders.warnExpiring();
      return orders.cancelExpired();
    },
    (n) => `cancelled ${n} unpaid order(s) past their hold`,
  );
}
