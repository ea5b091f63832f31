import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from "fastify";
import { BUSY_MESSAGE } from "./errors";

export interface ShedOptions {
  /** The pool whose waiting queue is watched (node-postgres' `waitingCount`). */
  pool: { readonly waitingCount: number };
  /** DB_QUEUE_MAX: with more than this many queries waiting for a connection, refuse at once. */
  queueMax: number;
  /**
   * With this many admitted API requests not yet answered, refuse the next at once (the pool's
   * size + DB_QUEUE_MAX in the app). A burst that arrives all at once is admitted before any of
   * it has asked the pool for a connection, so the pool's queue alone would let all of it in.
   */
  inFlightMax?: number;
  /**
   * The event loop's recent lag (`eventLoopLag`) and EVENT_LOOP_LAG_MAX_MS: above it, refuse at
   * once too (0: never for lag).
   */
  lag?: { current: () => number; maxMs: number };
  /**
   * Whether a request will be answered from memory with no database read (a cached catalog
   * read): such requests are never refused here.
   */
  answeredFromMemory?: (req: FastifyRequest) => boolean;
  /** Told of each refusal (the metrics counter). */
  onShed: () => void;
  log: FastifyBaseLogger;
  /** The clock, for the once-a-second log line. */
  now?: () => number;
}

const shed = new WeakSet<FastifyRequest>();

/** Whether this request was refused by `shedOverload` (the per-request log leaves it out). */
export const wasShed = (req: FastifyRequest) => shed.has(req);

/**
 * Sheds overload before it queues: an API request that arrives while more than `queueMax`
 * queries wait for a pooled connection, while `inFlightMax` admitted ones are still being
 * answered, or while the event loop lags more than `lag.maxMs` on
 * average (the process itself is saturated), is answered 503 `busy` with `Retry-After: 1` at once,
 * before its body is read or anything is asked of the database, so it writes nothing. Only
 * requests that would queue for the database are refused: health (readiness must say what the
 * database does), /metrics, the pages, the catalog reads the read cache answers from memory and
 * the payment gateway's webhook (refused, it would retry a payment for hours) always pass.
 *
 * The queue's length stands for the wait: at the throughput the pool gives (orders/s), a request
 * admitted behind `queueMax` others waits about queueMax / throughput for its turn; beyond that
 * the client is better told at once than after the connection timeout (docs/operations.md
 * "Overload").
 */
export function shedOverload(app: FastifyInstance, opts: ShedOptions): void {
  const logRefusal = refusalLog(
    opts.log,
    "overloaded: refusing API requests (503) while the database pool's queue is longer than DB_QUEUE_MAX, more requests than the pool's size + DB_QUEUE_MAX are in flight, or the event loop lags more than EVENT_LOOP_LAG_MAX_MS",
    () => ({
      poolWaiting: opts.pool.waitingCount,
      queueMax: opts.queueMax,
      inFlight,
      eventLoopLagMs: opts.lag && Math.round(opts.lag.current()),
    }),
    opts.now,
  );
  const lagging = () => !!opts.lag?.maxMs && opts.lag.current() > opts.lag.maxMs;
  const inFlightMax = opts.inFlightMax ?? Infinity;
  let inFlight = 0;
  const answered = () => inFlight--;
  app.addHook("onRequest", (req, reply, done) => {
    if (!sheddable(req.url)) return done();
    const admit = () => {
      inFlight++;
      // 'close' comes once the answer is sent, or the client went away first.
      reply.raw.once("close", answered);
      done();
    };
    if (opts.pool.waitingCount <= opts.queueMax && inFlight < inFlightMax && !lagging()) {
      return admit();
    }
    if (opts.answeredFromMemory?.(req)) return done();
    shed.add(req);
    opts.onShed();
    logRefusal();
    reply.code(503).header("retry-after", "1").send({ error: "busy", message: BUSY_MESSAGE });
  });
}

/**
 * A refusal's warning, logged at most once a second however many are refused (logging each would
 * add to the load), with how many were refused since the last line and `fields()`.
 */
export function refusalLog(
  log: Pick<FastifyBaseLogger, "warn">,
  message: string,
  fields: () => object = () => ({}),
  now: () => number = Date.now,
): () => void {
  let refused = 0;
  let lastLogAt = -Infinity;
  return () => {
    refused++;
    const t = now();
    if (t - lastLogAt < 1000) return;
    log.warn({ refused, ...fields() }, message);
    lastLogAt = t;
    refused = 0;
  };
}

/**
 * How late the event loop runs, in milliseconds, smoothed: a timer every `sampleMs` measures how
 * much later than asked it fired, and `current()` is an exponentially weighted average of those
 * delays (each new sample weighs `weight`). One long task (a PDF, a hash) moves it a little;
 * a loop saturated for a second or more moves it all the way, which is what shedding is for.
 * The timer does not keep the process alive; `stop()` ends it.
 */
export function eventLoopLag(sampleMs = 50, weight = 0.3) {
  let average = 0;
  let expected = performance.now() + sampleMs;
  const timer = setInterval(() => {
    const t = performance.now();
    average = weight * Math.max(0, t - expected) + (1 - weight) * average;
    expected = t + sampleMs;
  }, sampleMs);
  timer.unref();
  return { current: () => average, stop: () => clearInterval(timer) };
}

/**
 * API routes, except health and the payment webhook: pages, uploads and /metrics are never
 * refused here.
 */
export function sheddable(url: string): boolean {
  if (!url.startsWith("/api/")) return false;
  const path = url.split("?", 1)[0]!;
  return !(
    path === "/api/health" ||
    path.startsWith("/api/health/") ||
    path === PAYMENT_WEBHOOK_PATH
  );
}

/** Stripe's webhook (payments/routes.ts): a payment it is refused is sent again for hours. */
const PAYMENT_WEBHOOK_PATH = "/api/payments/webhook";
