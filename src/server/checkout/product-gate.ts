import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config";
import { BUSY_MESSAGE, HttpError } from "../errors";
import { refusalLog } from "../overload";

export interface ProductGateOptions {
  /** ORDER_GATE_PER_PRODUCT: placements of one product that may hold a pooled connection at once. */
  perProduct: number;
  /**
   * How long a placement waits for its turn before it is told busy: the pool's connection
   * timeout, the longest it would have waited for a connection without the gate. Its wait at the
   * row afterwards has the lock timeout of its own, as without the gate.
   */
  waitMs: number;
  /**
   * DB_QUEUE_MAX: with this many already queued for a product, the next is refused at once (503
   * busy), as the overload shedding refuses rather than queues (overload.ts).
   */
  queueMax?: number;
  /**
   * Told of each placement refused at once (shed): its product's queue is full, or would not
   * reach it within `waitMs` at the pace placements of that product leave the gate.
   */
  onShed?: () => void;
  /** The clock (milliseconds). */
  now?: () => number;
}

interface Waiter {
  /** Lets the waiter in; `at`: when. */
  grant: (at: number) => void;
}

interface Slot {
  /** Placements of this product inside the gate now. */
  inside: number;
  /** When each placement inside entered, oldest first. */
  insideSince: number[];
  /** Placements waiting for their turn, first come first served. */
  queue: Waiter[];
  /** How long placements of this product stayed inside, lately (exponentially weighted). */
  averageMs?: number;
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

/** The answer to a placement that waited its whole turn in vain, or would have: busy. */
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
 * is refused 503 `busy`. A placement that would not get its turn within `waitMs` (the queue
 * ahead of it, at the pace this product's placements leave the gate) is refused at once instead
 * of waiting in vain: a product whose row is locked keeps a short queue, a popular one a long one.
 */
export function createProductGate(opts: ProductGateOptions) {
  const slots = new Map<string, Slot>();
  const perProduct = Math.max(1, Math.floor(opts.perProduct));
  const now = opts.now ?? Date.now;

  function leave(id: string, since: number) {
    const slot = slots.get(id)!;
    const t = now();
    slot.insideSince.splice(slot.insideSince.indexOf(since), 1);
    const stayed = t - since;
    slot.averageMs = slot.averageMs === undefined ? stayed : 0.3 * stayed + 0.7 * slot.averageMs;
    const next = slot.queue.shift();
    // The turn goes straight to the first waiter (nobody arriving meanwhile jumps the queue).
    if (next) {
      slot.insideSince.push(t);
      return next.grant(t);
    }
    slot.inside--;
    if (slot.inside === 0) slots.delete(id);
  }

  /**
   * How long one more placement would wait for its turn: the placements queued ahead of it and
   * itself leave `perProduct` at a time, each staying as long as lately, or as long as the one
   * inside longest has stayed so far (a locked row: nobody has left yet).
   */
  function expectedWaitMs(slot: Slot, t: number): number {
    const staying = Math.max(slot.averageMs ?? 0, t - slot.insideSince[0]!);
    return Math.ceil((slot.queue.length + 1) / perProduct) * staying;
  }

  /**
   * Enters one product's gate: the time it entered, or false when `deadline` passed first or it
   * was refused at once (nothing entered).
   */
  function enter(id: string, deadline: number): Promise<number | false> | number | false {
    let slot = slots.get(id);
    if (!slot) slots.set(id, (slot = { inside: 0, insideSince: [], queue: [] }));
    const t = now();
    if (slot.inside < perProduct) {
      slot.inside++;
      slot.insideSince.push(t);
      return t;
    }
    if (
      slot.queue.length >= (opts.queueMax ?? Infinity) ||
      t + expectedWaitMs(slot, t) > deadline
    ) {
      opts.onShed?.();
      return false;
    }
    const queued = slot;
    return new Promise<number | false>((resolve) => {
      const waiter: Waiter = {
        grant: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
      const timer = setTimeout(
        () => {
          queued.queue.splice(queued.queue.indexOf(waiter), 1);
          resolve(false);
        },
        Math.max(0, deadline - t),
      );
      queued.queue.push(waiter);
    });
  }

  return {
    async run<T>(productIds: Iterable<string>, work: () => Promise<T>): Promise<T> {
      const ids = [...new Set(productIds)].sort();
      const deadline = now() + opts.waitMs;
      const entered: [id: string, since: number][] = [];
      try {
        for (const id of ids) {
          const turn = enter(id, deadline);
          // Entered at once without yielding: the gates a cart can enter now, it enters together.
          const since = typeof turn === "object" ? await turn : turn;
          if (since === false) throw gateTimeout();
          entered.push([id, since]);
        }
        return await work();
      } finally {
        for (const [id, since] of entered) leave(id, since);
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

/**
 * The store's gate: at most ORDER_GATE_PER_PRODUCT placements of one product hold a pooled
 * connection at once; the others queue here, holding none, for at most what they would have
 * waited for a pooled connection (docs/hot-row.md). Refusals are counted (`onShed`) and logged
 * once a second.
 */
export function storeProductGate(
  config: Pick<Config, "orderGatePerProduct" | "databaseTimeouts" | "dbQueueMax">,
  opts: { log: Pick<FastifyBaseLogger, "warn">; onShed: () => void },
): ProductGate {
  const logRefusal = refusalLog(
    opts.log,
    "overloaded: refusing orders of a product (503) whose gate already queues DB_QUEUE_MAX placements, or would not let them in within DB_CONNECT_TIMEOUT_SECONDS",
  );
  return createProductGate({
    perProduct: config.orderGatePerProduct,
    waitMs: config.databaseTimeouts.connectMs,
    queueMax: config.dbQueueMax,
    onShed: () => {
      opts.onShed();
      logRefusal();
    },
  });
}
