// Checkout: signed-in customers each checking out 5-line carts at once, over products whose stock
// runs out mid-run. The carts are filled straight in the database between checkouts (not
// measured): what is measured is `POST /api/checkout`, one order of five lines, all or nothing.
import pg from "pg";
import {
  cpuSeconds,
  insertOrderableProducts,
  median,
  postgresCpuSeconds,
  round,
  signUpCustomers,
  startBenchPostgres,
  startStore,
  withClient,
} from "./lib/harness";

const CUSTOMERS = 100;
const PRODUCTS = 100;
const LINES = 5;
/** Each customer checks out this many carts, every product once (ROUNDS × LINES = PRODUCTS). */
const ROUNDS = PRODUCTS / LINES;
const STOCK_EACH = 60; // 6,000 units for 10,000 wanted: sold out mid-run
const PRICE_CENTS = 1000;
const CONNECTIONS = Number(process.env.BENCH_CHECKOUT_CONNECTIONS ?? 50);

export interface CheckoutResult {
  customers: number;
  products: number;
  linesPerCheckout: number;
  connections: number;
  checkouts: number;
  placed: number;
  statuses: Record<string, number>;
  /** Checkouts placed per second until the stock ran out. */
  placedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuMsPerCheckout: { server: number; postgres: number };
  oversold: number;
  /** stock left + units in orders = initial stock, and every placed order has 5 lines. */
  consistent: boolean;
  targets: { placedPerSecond: ">= 300"; oversold: 0 };
}

export async function runCheckoutBench(): Promise<CheckoutResult> {
  const pgServer = await startBenchPostgres();
  try {
    const url = await pgServer.createDatabase("checkout");
    // The per-account limits are not what this measures: the rate limit is lifted.
    const server = await startStore(url, {
      SEED_DEMO_DATA: "false",
      ORDERS_PER_MINUTE: "10000",
    });
    const prefill = new pg.Pool({ connectionString: url, max: 8 });
    try {
      const productIds = await insertOrderableProducts(url, {
        n: PRODUCTS,
        stock: STOCK_EACH,
        prefix: "BC",
        priceCents: PRICE_CENTS,
      });
      const customers = await signUpCustomers(server.url, CUSTOMERS, "checkout");
      const ids = await withClient(url, async (c) => {
        const rows = await c.query<{ id: string; email: string }>(
          `select id, email from "user" where email = any($1)`,
          [customers.map((x) => x.email)],
        );
        return new Map(rows.rows.map((r) => [r.email, r.id]));
      });

      // Work items: every customer's rounds, interleaved so customers take turns.
      const work: { customer: number; round: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (let customer = 0; customer < CUSTOMERS; customer++) work.push({ customer, round });
      }
      const statuses: Record<string, number> = {};
      const latencies: number[] = [];
      let placed = 0;
      let firstAt = 0;
      let lastPlacedAt = 0;
      const cpuBefore = {
        server: cpuSeconds(server.process.pid!),
        postgres: postgresCpuSeconds(pgServer.dir),
      };
      const worker = async () => {
        for (let item = work.shift(); item; item = work.shift()) {
          const who = customers[item.customer]!;
          // A different five products each round; rotated per customer.
          const lines = Array.from(
            { length: LINES },
            (_, k) => productIds[(item.customer * 7 + item.round * LINES + k) % PRODUCTS]!,
          );
          await prefill.query(
            `insert into cart_items (user_id, product_id, product_name, qty, seen_price_cents)
             select $1, id, name, 1, price_cents from products where id = any($2)
             on conflict do nothing`,
            [ids.get(who.email), lines],
          );
          const started = performance.now();
          if (!firstAt) firstAt = Date.now();
          const res = await fetch(`${server.url}/api/checkout`, {
            method: "POST",
            headers: { "content-type": "application/json", cookie: who.cookie },
            body: JSON.stringify({
              phonrNo: "5550100",
              Address: "1 Bench Road",
              expectedTotal: (LINES * PRICE_CENTS) / 100,
            }),
          });
          await res.arrayBuffer();
          latencies.push(performance.now() - started);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.status === 201) {
            placed++;
            lastPlacedAt = Date.now();
          } else {
            // Refused (sold out): the cart keeps its lines; empty it for the next round.
            await prefill.query("delete from cart_items where user_id = $1", [ids.get(who.email)]);
          }
        }
      };
      await Promise.all(Array.from({ length: CONNECTIONS }, worker));
      const checkouts = latencies.length;
      const perCheckoutMs = (seconds: number) => round((seconds * 1000) / checkouts, 2);
      const check = await withClient(url, async (c) => {
        const stock = await c.query<{ left: number; min: number }>(
          "select sum(available_quantity)::int as left, min(available_quantity)::int as min from products",
        );
        const ordered = await c.query<{ qty: number; n: number; short: number }>(
          `select coalesce(sum(qty), 0)::int as qty, count(distinct order_id)::int as n,
             (select count(*)::int from (select order_id from order_items group by order_id
                                         having count(*) <> ${LINES}) s) as short
           from order_items`,
        );
        return { ...stock.rows[0]!, ...ordered.rows[0]! };
      });
      const total = PRODUCTS * STOCK_EACH;
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        customers: CUSTOMERS,
        products: PRODUCTS,
        linesPerCheckout: LINES,
        connections: CONNECTIONS,
        checkouts,
        placed,
        statuses,
        placedPerSecond: round(placed / ((lastPlacedAt - firstAt) / 1000), 0),
        p50Ms: round(median(latencies), 1),
        p99Ms: round(sorted[Math.floor(sorted.length * 0.99)] ?? 0, 1),
        cpuMsPerCheckout: {
          server: perCheckoutMs(cpuSeconds(server.process.pid!) - cpuBefore.server),
          postgres: perCheckoutMs(postgresCpuSeconds(pgServer.dir) - cpuBefore.postgres),
        },
        oversold: Math.max(0, check.qty - total) + (check.min < 0 ? 1 : 0),
        consistent: check.left + check.qty === total && check.n === placed && check.short === 0,
        targets: { placedPerSecond: ">= 300", oversold: 0 },
      };
    } finally {
      await prefill.end();
      await server.stop();
    }
  } finally {
    await pgServer.stop();
  }
}

export function printCheckout(r: CheckoutResult) {
  console.log(
    `Checkout (${r.customers} customers × ${r.products / r.linesPerCheckout} carts of ${r.linesPerCheckout} lines, ${r.products} products, ${r.connections} connections)`,
  );
  console.log(
    `  ${r.checkouts} checkouts: ${r.placed} placed, statuses ${JSON.stringify(r.statuses)}`,
  );
  console.log(
    `  ${r.placedPerSecond} checkouts placed/s until sold out, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms`,
  );
  console.log(
    `  CPU per checkout: server ${r.cpuMsPerCheckout.server} ms, PostgreSQL ${r.cpuMsPerCheckout.postgres} ms`,
  );
  console.log(
    `  oversold: ${r.oversold}; stock + ordered = initial, 5 lines each: ${r.consistent}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printCheckout(await runCheckoutBench());
}
