// Order placement: signed-in customers ordering at once, against stock that runs out mid-run.
import { cookieHeader } from "../tests/support/accounts";
import { load, round, startBenchPostgres, startStore, withClient } from "./lib/harness";

const CUSTOMERS = 100;
const PRODUCTS = 100;
const STOCK_EACH = 50; // 5,000 units for 10,000 (customer, product) pairs: sold out mid-run
const CONNECTIONS = 50;

export interface OrdersResult {
  customers: number;
  products: number;
  stock: number;
  connections: number;
  requests: number;
  placed: number;
  refusedForStock: number;
  otherStatuses: Record<string, number>;
  /** Order requests answered per second over the whole run. */
  requestsPerSecond: number;
  /** Orders placed per second until the stock ran out. */
  placedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  oversold: number;
  stockConsistent: boolean;
  targets: { placedPerSecond: ">= 500"; p99Ms: "<= 100"; oversold: 0 };
}

export async function runOrdersBench(): Promise<OrdersResult> {
  const pgServer = await startBenchPostgres();
  const url = await pgServer.createDatabase("orders");
  const server = await startStore(url, { SEED_DEMO_DATA: "false" });
  try {
    const productIds = await withClient(url, async (c) =>
      (
        await c.query<{ id: string }>(
          `insert into products (name, img, price_cents, minimum_order, available_quantity,
                                 short_description, warranty_months, creator_email)
           select 'Bench part ' || i, '/images/products/oil-filter.svg', 1000, 1, $2,
                  'For the order benchmark', 12, 'admin@example.com'
           from generate_series(1, $1) i returning id`,
          [PRODUCTS, STOCK_EACH],
        )
      ).rows.map((r) => r.id),
    );
    const cookies: string[] = [];
    for (let i = 0; i < CUSTOMERS; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
            method: "POST",
            // In production Better Auth wants the Origin a browser would send.
            headers: { "content-type": "application/json", origin: server.url },
            body: JSON.stringify({
              email: `bench-${i + j}@example.com`,
              password: "bench-password",
              name: `Bench ${i + j}`,
            }),
          });
          if (res.status !== 200) {
            throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
          }
          return cookieHeader(res.headers.getSetCookie());
        }),
      );
      cookies.push(...batch);
    }

    let n = 0;
    let firstAt = 0;
    let lastPlacedAt = 0;
    const started = Date.now();
    const result = await load({
      url: server.url,
      connections: CONNECTIONS,
      amount: CUSTOMERS * PRODUCTS,
      next: () => {
        // Every (customer, product) pair once: no customer orders the same product twice.
        const i = n++;
        if (!firstAt) firstAt = Date.now();
        return {
          path: "/api/orders",
          method: "POST",
          headers: { "content-type": "application/json", cookie: cookies[i % CUSTOMERS]! },
          body: JSON.stringify({
            productId: productIds[Math.floor(i / CUSTOMERS) % PRODUCTS],
            orderQty: 1,
            phonrNo: "5550100",
            Address: "1 Bench Road",
          }),
        };
      },
      onResponse: (status) => {
        if (status === 201) lastPlacedAt = Date.now();
      },
    });
    const placed = result.statuses["201"] ?? 0;
    const check = await withClient(url, async (c) => {
      const stock = await c.query<{ left: number; min: number }>(
        "select sum(available_quantity)::int as left, min(available_quantity)::int as min from products",
      );
      const ordered = await c.query<{ qty: number; n: number }>(
        "select coalesce(sum(order_qty), 0)::int as qty, count(*)::int as n from orders",
      );
      return { ...stock.rows[0]!, ...ordered.rows[0]! };
    });
    const total = PRODUCTS * STOCK_EACH;
    const refused = result.statuses["422"] ?? 0;
    const others = Object.fromEntries(
      Object.entries(result.statuses).filter(([status]) => status !== "201" && status !== "422"),
    );
    return {
      customers: CUSTOMERS,
      products: PRODUCTS,
      stock: total,
      connections: CONNECTIONS,
      requests: result.requests,
      placed,
      refusedForStock: refused,
      otherStatuses: others,
      requestsPerSecond: round(result.requestsPerSecond, 0),
      placedPerSecond: round(placed / ((lastPlacedAt - (firstAt || started)) / 1000), 0),
      p50Ms: result.p50,
      p99Ms: result.p99,
      oversold: Math.max(0, check.qty - total) + (check.min < 0 ? 1 : 0),
      stockConsistent: check.left + check.qty === total && check.n === placed,
      targets: { placedPerSecond: ">= 500", p99Ms: "<= 100", oversold: 0 },
    };
  } finally {
    await server.stop();
    await pgServer.stop();
  }
}

export function printOrders(r: OrdersResult) {
  console.log(
    `Order placement (${r.customers} customers × ${r.products} products, ${r.stock} units, ${r.connections} connections)`,
  );
  console.log(
    `  ${r.requests} requests: ${r.placed} placed, ${r.refusedForStock} refused for stock, others ${JSON.stringify(r.otherStatuses)}`,
  );
  console.log(
    `  ${r.placedPerSecond} orders placed/s until sold out, ${r.requestsPerSecond} requests/s overall, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms`,
  );
  console.log(
    `  oversold: ${r.oversold}; stock + ordered = initial: ${r.stockConsistent}  (targets: >= 500 orders/s, p99 <= 100 ms, 0 oversold)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printOrders(await runOrdersBench());
}
