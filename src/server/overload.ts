import type { IncomingMessage, RequestListener } from "node:http";
import type { Server } from "node:net";
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, HTTPMethods } from "fastify";
import type { Config } from "./config";
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
  /**
   * How long a request has waited to be read (`loopTurns`), and REQUEST_WAIT_MAX_MS: a request
   * that waited longer, in a turn of the loop crowded with requests, is refused at once too.
   */
  wait?: { maxMs: number; turns?: Pick<LoopTurns, "waitedMs" | "lateMs" | "requests" | "counted"> };
  /**
   * Told of each refusal (the metrics counter); of a refusal made before Fastify saw the request,
   * with its route pattern and time, which Fastify's own hooks then do not record.
   */
  onShed: (early?: { method: string; route: string; seconds: number }) => void;
  /** The API answers' security headers, for a refusal made before Fastify's hooks run. */
  headers?: Record<string, string>;
  log: FastifyBaseLogger;
  /** The clock, for the once-a-second log line. */
  now?: () => number;
}

const shed = new WeakSet<FastifyRequest>();

/** Whether this request was refused by `shedOverload` (the per-request log leaves it out). */
export const wasShed = (req: FastifyRequest) => shed.has(req);

/**
 * The store's shedding, with its settings: the pool's queue (DB_QUEUE_MAX), as many requests in
 * flight as the pool serves plus that queue, the event loop's lag (measured here, until the app
 * closes) and how long a request waited to be read. Placements queued at a product's gate hold
 * no connection and are bounded there (a rush on one product must not refuse everyone else's
 * requests). Made before any route is registered, so that every API route has it.
 */
export function shedStoreOverload(
  app: FastifyInstance,
  config: Pick<Config, "dbQueueMax" | "eventLoopLagMaxMs" | "requestWaitMaxMs">,
  opts: Pick<ShedOptions, "answeredFromMemory" | "onShed" | "headers"> & {
    pool: { readonly waitingCount: number; readonly options: { max: number } };
  },
): void {
  const loopLag = eventLoopLag();
  app.addHook("onClose", () => loopLag.stop());
  shedOverload(app, {
    ...opts,
    queueMax: config.dbQueueMax,
    inFlightMax: opts.pool.options.max + config.dbQueueMax,
    lag: { current: loopLag.current, maxMs: config.eventLoopLagMaxMs },
    wait: { maxMs: config.requestWaitMaxMs },
    log: app.log,
  });
}

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
    "overloaded: refusing API requests (503) while the database pool's queue is longer than DB_QUEUE_MAX, more requests than the pool's size + DB_QUEUE_MAX are in flight, the event loop lags more than EVENT_LOOP_LAG_MAX_MS, or requests have waited more than REQUEST_WAIT_MAX_MS to be read",
    () => ({
      poolWaiting: opts.pool.waitingCount,
      queueMax: opts.queueMax,
      inFlight,
      eventLoopLagMs: opts.lag && Math.round(opts.lag.current()),
      waitedMs: turns && Math.round(turns.waitedMs()),
    }),
    opts.now,
  );
  const lagging = () => !!opts.lag?.maxMs && opts.lag.current() > opts.lag.maxMs;
  const waitMaxMs = opts.wait?.maxMs ?? 0;
  const turns = waitMaxMs > 0 ? (opts.wait?.turns ?? ownLoopTurns(app)) : undefined;
  // A queue, not a moment: the turn began late (the one before overran too), it has read many
  // requests, and this one waited past the bound. One burst, one long task or the machine busy
  // elsewhere for a moment refuses nothing.
  const waitedTooLong = () =>
    !!turns &&
    turns.requests() > CROWDED_TURN &&
    turns.lateMs() > waitMaxMs / 2 &&
    turns.waitedMs() > waitMaxMs;
  const inFlightMax = opts.inFlightMax ?? Infinity;
  let inFlight = 0;
  const answered = () => inFlight--;
  const overloaded = () =>
    opts.pool.waitingCount > opts.queueMax ||
    inFlight >= inFlightMax ||
    lagging() ||
    waitedTooLong();
  /** Requests the early check below decided on (admitted), which the hook then lets pass. */
  const decided = new WeakSet<IncomingMessage>();

  // Early, on the server's 'request' event, before Fastify makes a request of it, routes it and
  // runs its hooks: under overload a refusal must cost next to nothing, or the refusals
  // themselves keep the loop behind and every client waits (issue 49, finding 5: 503s took the
  // server under 5 ms and their clients seconds). Requests from `inject()` never come this way:
  // the hook below decides for them, by the same rules.
  const server = app.server;
  const [fastifyHandler] = server.listeners("request") as RequestListener[];
  if (fastifyHandler) {
    const body = JSON.stringify({ error: "busy", message: BUSY_MESSAGE });
    const headers = {
      ...opts.headers,
      "content-type": "application/json; charset=utf-8",
      "content-length": String(Buffer.byteLength(body)),
      "retry-after": "1",
    };
    const early: RequestListener = (req, res) => {
      const url = req.url ?? "/";
      if (!sheddable(url)) return fastifyHandler(req, res);
      turns?.counted();
      const started = performance.now();
      if (!overloaded()) {
        decided.add(req);
        inFlight++;
        // 'close' comes once the answer is sent, or the client went away first.
        res.once("close", answered);
        return fastifyHandler(req, res);
      }
      if (opts.answeredFromMemory?.(req as never)) {
        decided.add(req);
        return fastifyHandler(req, res);
      }
      // Node reads (and drops) a body nobody read once the answer is out: the connection lives on.
      res.writeHead(503, headers);
      res.end(body);
      opts.onShed({
        method: req.method ?? "GET",
        route: routeOf(app, req.method ?? "GET", url),
        seconds: (performance.now() - started) / 1000,
      });
      logRefusal();
    };
    server.removeListener("request", fastifyHandler);
    server.prependListener("request", early);
  }

  app.addHook("onRequest", (req, reply, done) => {
    if (decided.has(req.raw) || !sheddable(req.url)) return done();
    turns?.counted();
    const admit = () => {
      inFlight++;
      // 'close' comes once the answer is sent, or the client went away first.
      reply.raw.once("close", answered);
      done();
    };
    if (!overloaded()) return admit();
    if (opts.answeredFromMemory?.(req)) return done();
    shed.add(req);
    opts.onShed();
    logRefusal();
    reply.code(503).header("retry-after", "1").send({ error: "busy", message: BUSY_MESSAGE });
  });
}

/** The route pattern a path is answered by (a metrics label: ids never become series). */
function routeOf(app: FastifyInstance, method: string, url: string): string {
  const path = url.split("?", 1)[0]!;
  const found = app.findRoute({ method: method as HTTPMethods, url: path });
  if (!found) return "(unmatched)";
  const segments = path.split("/");
  for (const [name, value] of Object.entries(found.params ?? {})) {
    if (name === "*") return `${path.slice(0, path.length - String(value).length)}*`;
    const at = segments.findIndex((s) => s === value || s === encodeURIComponent(String(value)));
    if (at >= 0) segments[at] = `:${name}`;
  }
  return segments.join("/");
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

/** More API requests than this in one turn of the loop: it is crowded, its wait is a queue. */
const CROWDED_TURN = 16;

export interface LoopTurns {
  /**
   * How long the request being read now has waited since it could have been read: the time
   * since this turn of the event loop began, plus how late that turn began (the turn before ran
   * that long over). Node cannot see when a request's bytes reached the socket; under overload
   * they wait while the loop works through the requests read before them, which this measures
   * (issue 49, finding 5: the shedding saw each request only once it had waited, and refused it
   * in under 5 ms, while clients had waited seconds).
   */
  waitedMs(): number;
  /** How late this turn began. */
  lateMs(): number;
  /** API requests read in this turn so far. */
  requests(): number;
  /** Counts one more API request read in this turn. */
  counted(): void;
  stop(): void;
}

/**
 * Marks the turns of the event loop: a timer every `sampleMs` (it runs at the start of a turn,
 * before the turn reads its sockets) notes when, and how late, it ran.
 */
export function loopTurns(sampleMs = 20): LoopTurns {
  let turnAt = performance.now();
  let lateBy = 0;
  let expected = turnAt + sampleMs;
  let requests = 0;
  const timer = setInterval(() => {
    turnAt = performance.now();
    lateBy = Math.max(0, turnAt - expected);
    expected = turnAt + sampleMs;
    requests = 0;
  }, sampleMs);
  timer.unref();
  return {
    waitedMs: () => performance.now() - turnAt + lateBy,
    lateMs: () => lateBy,
    requests: () => requests,
    counted: () => void requests++,
    stop: () => clearInterval(timer),
  };
}

/** The loop's turns, for as long as the app runs. */
function ownLoopTurns(app: FastifyInstance): LoopTurns {
  const turns = loopTurns();
  app.addHook("onClose", (_app, done) => {
    turns.stop();
    done();
  });
  return turns;
}

/**
 * At most `max` open connections (MAX_CONNECTIONS; 0: no cap): one more is closed as it is
 * accepted, at once, instead of adding its requests to a queue nobody sees (issue 49). `onDrop`
 * hears of each.
 */
export function capConnections(server: Server, max: number, onDrop: () => void): void {
  if (max <= 0) return;
  server.maxConnections = max;
  server.on("drop", onDrop);
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
