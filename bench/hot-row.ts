// Hot row: one product's row locked (an admin's open transaction) while many customers keep
// ordering it; what does that cost the orders of other products? (issue 30, docs/hot-row.md)
import pg from "pg";
import {
  insertOrderableProducts,
  load,
  round,
  freeDeliveryFor,
  signUpCustomers,
  startBenchPostgres,
  startStore,
  type LoadResult,
} from "./lib/harness";

const CUSTOMERS = 100; // who order the other products
const HOT_CUSTOMERS = 30; // who keep ordering the locked one: three times the pool
const PRODUCTS = 300;
const STOCK_EACH = 1000;
/** How long other products are ordered, without and then with the lock. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;

export interface HotRowResult {
  /** ORDER_GATE_PER_PRODUCT of the run (2 unless BENCH_ORDER_GATE says; 0 is no gate). */
  orderGate: string;
  /** Other products ordered with no row locked. */
  baseline: Summary;
  /** The same while one product's row is locked and HOT_CUSTOMERS keep ordering it. */
  locked: Summary;
  /** What the hot product's orders were answered meanwhile. */
  hot: { requests: number; statuses: Record<string, number> };
  /** locked.p99Ms / baseline.p99Ms. */
  p99Ratio: number;
  target: { lockedP99Ms: "<= 200"; lockedStatuses: "201 only" };
}

interface Summary {
  placedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  statuses: Record<string, number>;
}

export async function runHotRowBench(): Promise<HotRowResult> {
  const pgServer = await startBenchPostgres();
  const url = await pgServer.createDatabase("hot_row");
  const orderGate = process.env.BENCH_ORDER_GATE;
  const server = await startStore(url, {
    SEED_DEMO_DATA: "false",
    ORDERS_PER_MINUTE: "10000",
    HOLD_MAX_VALUE: "1000000000",
    HOLD_FREE_UNITS: "1000000",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
    ORDER_GATE_PER_PRODUCT: orderGate ?? "2",
  });
  try {
    const productIds = await insertOrderableProducts(url, {
      n: PRODUCTS,
      stock: STOCK_EACH,
      prefix: "HR",
    });
    const [hotId] = await insertOrderableProducts(url, { n: 1, stock: STOCK_EACH, prefix: "HOT" });
    const cookies = (await signUpCustomers(server.url, CUSTOMERS, "hot-row")).map((c) => c.cookie);
    const hotCookies = (await signUpCustomers(server.url, HOT_CUSTOMERS, "hot-row-hot")).map(
      (c) => c.cookie,
    );
    // Both prefixes: "hot-row-%" covers "hot-row-hot-%".
    await freeDeliveryFor(url, "hot-row");
    const body = (productId: string) =>
      JSON.stringify({ productId, orderQty: 1, phonrNo: "5550100", Address: "1 Bench Road" });
    let n = 0;
    const nextOrder = () => {
      const i = n++;
      return {
        path: "/api/orders",
        method: "POST",
        headers: { "content-type": "application/json", cookie: cookies[i % CUSTOMERS]! },
        // No customer orders the same product twice (as in the overload benchmark).
        body: body(productIds[(Math.floor(i / CUSTOMERS) + i) % PRODUCTS]!),
      };
    };
    const summary = (r: LoadResult): Summary => ({
      placedPerSecond: round((r.statuses["201"] ?? 0) / r.durationSeconds, 1),
      p50Ms: r.p50,
      p99Ms: r.p99,
      statuses: r.statuses,
    });

    // 1. Other products, nothing locked.
    const baseline = summary(
      await load({ url: server.url, connections: CONNECTIONS, duration: SECONDS, next: nextOrder }),
    );

    // 2. The same, while the hot row is locked and its customers keep ordering it.
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    const hotStatuses: Record<string, number> = {};
    let hotRequests = 0;
    let locked: Summary;
    try {
      await locker.query("begin");
      await locker.query("select id from products where id = $1 for update", [hotId]);
      let stop = false;
      const hotLoop = async (cookie: string) => {
        while (!stop) {
          const res = await fetch(`${server.url}/api/orders`, {
            method: "POST",
            headers: { "content-type": "application/json", cookie },
            body: body(hotId!),
          });
          await res.arrayBuffer();
          hotRequests++;
          hotStatuses[res.status] = (hotStatuses[res.status] ?? 0) + 1;
        }
      };
      const hotLoops = hotCookies.map(hotLoop);
      // The others start once the hot orders wait for the row.
      for (;;) {
        const waiting = await locker.query(
          `select 1 from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (waiting.rowCount) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      locked = summary(
        await load({
          url: server.url,
          connections: CONNECTIONS,
          duration: SECONDS,
          next: nextOrder,
        }),
      );
      stop = true;
      await locker.query("rollback");
      await Promise.all(hotLoops);
    } finally {
      await locker.query("rollback").catch(() => {});
      await locker.end();
    }
    return {
      orderGate: orderGate ?? "2",
      baseline,
      locked,
      hot: { requests: hotRequests, statuses: hotStatuses },
      p99Ratio: round(locked.p99Ms / Math.max(1, baseline.p99Ms), 1),
      target: { lockedP99Ms: "<= 200", lockedStatuses: "201 only" },
    };
  } finally {
    await server.stop();
    await pgServer.stop();
  }
}

export function printHotRow(r: HotRowResult) {
  const line = (label: string, s: Summary) =>
    `${label}: ${s.placedPerSecond} orders placed/s, p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, statuses ${JSON.stringify(s.statuses)}`;
  console.log(
    `ORDER_GATE_PER_PRODUCT ${r.orderGate}; other products at ${CONNECTIONS} connections for ${SECONDS} s each`,
  );
  console.log(line("  nothing locked", r.baseline));
  console.log(line(`  one row locked, ${HOT_CUSTOMERS} customers ordering it`, r.locked));
  console.log(
    `  the locked product's orders: ${r.hot.requests} answered, ${JSON.stringify(r.hot.statuses)}; others' p99 locked / not = ${r.p99Ratio}`,
  );
  console.log("Target (issue 30): others' p99 <= 200 ms while the row is locked, all placed.");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printHotRow(await runHotRowBench());
}
