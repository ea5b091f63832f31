import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** What the app counts as it runs; each app (and so each test app) has registers of its own. */
export interface StoreMetrics {
  registry: Registry;
  ordersPlaced: Counter;
  holdsExpired: Counter;
  emailsQueued: Counter;
  emailsFailed: Counter;
  catalogCacheLookups: Counter<"result">;
  requestsShed: Counter;
  /**
   * Counts a refusal for overload; one made before Fastify saw the request (overload.ts) is also
   * recorded in the latency histogram, which Fastify's hook records for the others.
   */
  shed(early?: { method: string; route: string; seconds: number }): void;
}

/** Routes whose 201 means an order was placed: one product, or a cart's checkout. */
const PLACING_ROUTES = new Set(["/api/orders", "/api/checkout"]);

/**
 * Prometheus metrics of one app: request latency by route pattern (never the raw URL, so ids
 * and queries cannot blow up the series), the pool, and the store's own counters.
 */
export function createMetrics(app: FastifyInstance, pool: pg.Pool): StoreMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const latency = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer a request, by method, route pattern and status code",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const ordersPlaced = new Counter({
    name: "store_orders_placed_total",
    help: "Orders placed (single products and cart checkouts)",
    registers: [registry],
  });
  app.addHook("onResponse", (req, reply, done) => {
    // A path no route matches is counted under one label, whatever was asked for.
    const route = req.routeOptions.url ?? "(unmatched)";
    latency.observe(
      { method: req.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    if (reply.statusCode === 201 && req.method === "POST" && PLACING_ROUTES.has(route)) {
      ordersPlaced.inc();
    }
    done();
  });

  new Gauge({
    name: "db_pool_connections_in_use",
    help: "Database connections checked out of the pool",
    registers: [registry],
    collect() {
      this.set(pool.totalCount - pool.idleCount);
    },
  });
  new Gauge({
    name: "db_pool_connections_idle",
    help: "Open database connections waiting in the pool",
    registers: [registry],
    collect() {
      this.set(pool.idleCount);
    },
  });
  new Gauge({
    name: "db_pool_waiting_requests",
    help: "Queries waiting for a connection from the pool",
    registers: [registry],
    collect() {
      this.set(pool.waitingCount);
    },
  });

  const catalogCacheLookups = new Counter({
    name: "store_catalog_cache_lookups_total",
    help: "Public catalog answers asked of the read cache, by result (hit or miss); the hit rate is rate(hit) / rate(all)",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  // Both series exist from the start, so a rate over them is defined at once.
  catalogCacheLookups.inc({ result: "hit" }, 0);
  catalogCacheLookups.inc({ result: "miss" }, 0);

  const requestsShed = new Counter({
    name: "http_requests_shed_total",
    help: "API requests refused at once (503 busy) because the database pool's queue was longer than DB_QUEUE_MAX, the event loop lagged more than EVENT_LOOP_LAG_MAX_MS, or requests waited more than REQUEST_WAIT_MAX_MS to be read",
    registers: [registry],
  });
  return {
    registry,
    requestsShed,
    shed(early) {
      requestsShed.inc();
      if (early) {
        latency.observe(
          { method: early.method, route: early.route, status_code: "503" },
          early.seconds,
        );
      }
    },
    catalogCacheLookups,
    ordersPlaced,
    holdsExpired: new Counter({
      name: "store_holds_expired_total",
      help: "Unpaid orders cancelled by this process because their stock hold ran out",
      registers: [registry],
    }),
    emailsQueued: new Counter({
      name: "store_emails_queued_total",
      help: "Messages put in the mail queue",
      registers: [registry],
    }),
    emailsFailed: new Counter({
      name: "store_email_attempts_failed_total",
      help: "Attempts to send a queued message that failed (it is retried later)",
      registers: [registry],
    }),
  };
}

/**
 * The per-product order gates (docs/hot-row.md): placements inside (holding, or about to take, a
 * pooled connection) and waiting in this process for their turn.
 */
export function gateMetrics(
  registry: Registry,
  gate: { stats(): { inside: number; waiting: number } },
): void {
  new Gauge({
    name: "store_order_gate_inside",
    help: "Placements inside a product's gate (at most ORDER_GATE_PER_PRODUCT per product)",
    registers: [registry],
    collect() {
      this.set(gate.stats().inside);
    },
  });
  new Gauge({
    name: "store_order_gate_waiting",
    help: "Placements waiting in this process for a product's gate (holding no connection)",
    registers: [registry],
    collect() {
      this.set(gate.stats().waiting);
    },
  });
}

/**
 * The read replica (DATABASE_READ_URL; db/read-replica.ts): its lag at the last check, whether
 * catalog reads go to it now, and the catalog reads each database answered.
 */
export function replicaMetrics(
  registry: Registry,
  replica: {
    state(): { lagMs: number | null; usable: boolean };
    onRead: (database: "primary" | "replica") => void;
  },
): void {
  new Gauge({
    name: "store_read_replica_lag_seconds",
    help: "How far the read replica was behind the primary at its last check (absent while it does not answer)",
    registers: [registry],
    collect() {
      const { lagMs } = replica.state();
      if (lagMs === null) this.reset();
      else this.set(lagMs / 1000);
    },
  });
  new Gauge({
    name: "store_read_replica_usable",
    help: "1 while catalog reads go to the read replica, 0 while they go to the primary (lag, a change not yet replayed, or the replica away)",
    registers: [registry],
    collect() {
      this.set(replica.state().usable ? 1 : 0);
    },
  });
  const reads = new Counter({
    name: "store_catalog_reads_total",
    help: "Public catalog reads made inside the replica's routing, by the database that answered them",
    labelNames: ["database"] as const,
    registers: [registry],
  });
  reads.inc({ database: "primary" }, 0);
  reads.inc({ database: "replica" }, 0);
  replica.onRead = (database) => reads.inc({ database });
}
