import { BUSY_MESSAGE, HttpError } from "../errors";

export interface ProductGateOptions {
  /** ORDER_GATE_PER_PRODUCT: placements of one product that may hold a pooled connection at once. */
  perProduct: number;
  /**
   * How long a placement waits for its turn before it is told busy: the lock timeout (or the
   * statement timeout, if shorter), the longest it would wait for a locked row without the gate.
   */
  waitMs: number;
  /**
   * DB_QUEUE_MAX: with this many already queued for a product, the next is refused at once (503
   * busy), as the overload shedding refuses rather than queues (overload.ts).
   */
  queueMax?: number;
  /** Told of each placement refused at once because its product's queue is full (shed). */
  onShed?: () => void;
}

interface Waiter {
  grant: () => void;
}

interface Slot {
  /** Placements of this product inside the gate now. */
  inside: number;
  /** Placements waiting for their turn, first come first served. */
  queue: Waiter[];
}

/** What `ProductGate.stats` tells the metrics. */
export interface ProductGateStats {
  /** Placements inside a gate (holding, or about to take, a pooled connection). */
  inside: number;
  /** Placements waiting in a gate's queue (holding no connection). */
  waiting: number;
  /** Products with anyone inside or waiting. */
  products: number;
}

/** The answer to a placement that waited its whole turn in vain: as for a row locked too long. */
export const gateTimeout = () => new HttpError(503, "busy", BUSY_MESSAGE);

/**
 * A queue per product in front of the database pool: at most `perProduct` placements of one
 * product are inside at once, the others wait here, in this process, holding no connection. A
 * product whose row is locked for long (an admin's open transaction, say) then ties up at most
 * `perProduct` connections however many customers order it, and orders of other products find
 * the pool free (docs/hot-row.md).
 *
 * `run(ids, work)` enters the gates of all `ids` in sorted order (two carts sharing products
 * cannot each hold a gate the other waits for), runs `work`, and leaves them all however `work`
 * ends. The whole wait is bounded by `waitMs`: past it the placement leaves what it entered and
 * is refused 503 `busy`, the answer a lock wait that runs out of `lock_timeout` gets. A placement
 * that had to queue is told how much of `waitMs` is left (`work(leftMs)`), for its wait at the
 * row itself: the two waits together stay within one lock timeout.
 */
export function createProductGate(opts: ProductGateOptions) {
  const slots = new Map<string, Slot>();
  const perProduct = Math.max(1, Math.floor(opts.perProduct));

  function leave(id: string) {
    const slot = slots.get(id)!;
    const next = slot.queue.shift();
    // The turn goes straight to the first waiter (nobody arriving meanwhile jumps the queue).
    if (next) return next.grant();
    slot.inside--;
    if (slot.inside === 0) slots.delete(id);
  }

  /**
   * Enters one product's gate; false when `deadline` passed first or its queue is full (nothing
   * entered).
   */
  function enter(id: string, deadline: number): Promise<boolean> | boolean {
    let slot = slots.get(id);
    if (!slot) slots.set(id, (slot = { inside: 0, queue: [] }));
    if (slot.inside < perProduct) {
      slot.inside++;
      return true;
    }
    if (slot.queue.length >= (opts.queueMax ?? Infinity)) {
      opts.onShed?.();
      return false;
    }
    const queued = slot;
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(
        () => {
          queued.queue.splice(queued.queue.indexOf(waiter), 1);
          resolve(false);
        },
        Math.max(0, deadline - Date.now()),
      );
      queued.queue.push(waiter);
    });
  }

  return {
    async run<T>(
      productIds: Iterable<string>,
      work: (leftMs: number | undefined) => Promise<T>,
    ): Promise<T> {
      const ids = [...new Set(productIds)].sort();
      const deadline = Date.now() + opts.waitMs;
      const entered: string[] = [];
      let queued = false;
      try {
        for (const id of ids) {
          const inside = enter(id, deadline);
          if (inside === false) throw gateTimeout();
          if (inside !== true) {
            queued = true;
            if (!(await inside)) throw gateTimeout();
          }
          entered.push(id);
        }
        if (!queued) return await work(undefined);
        const leftMs = deadline - Date.now();
        if (leftMs <= 0) throw gateTimeout();
        return await work(leftMs);
      } finally {
        for (const id of entered) leave(id);
      }
    },

    stats(): ProductGateStats {
      let inside = 0;
      let waiting = 0;
      for (const slot of slots.values()) {
        inside += slot.inside;
        waiting += slot.queue.length;
      }
      return { inside, waiting, products: slots.size };
    },
  };
}

export type ProductGate = ReturnType<typeof createProductGate>;
