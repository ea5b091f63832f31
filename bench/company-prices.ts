// A company buyer's catalog list page against the anonymous cached list, side by side in the same
// rounds (issue 23): 10,000 products, one company whose price list names every one of them, in
// a customer group with a price rule (issue 54: the page's rules read with each buyer page).
import {
  load,
  median,
  round,
  seedProducts,
  signUpCustomers,
  startBenchPostgres,
  startStore,
  withClient,
  type LoadResult,
} from "./lib/harness";

const PRODUCTS = 10_000;
const BUYERS = 10;
const CONNECTION_COUNTS = [1, 10, 50];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

interface Summary {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  non2xx: number;
}
interface Point {
  connections: number;
  anonymous: Summary;
  /** A signed-in customer in no company: the session read alone, the shared answer. */
  customer: Summary;
  buyer: Summary;
  /** buyer p50 / anonymous p50 (each the median of the rounds); null when the anonymous p50 is 0 ms. */
  p50Ratio: number | null;
  /** buyer mean / anonymous mean: autocannon's p50 is whole milliseconds, too coarse below 1 ms. */
  meanRatio: number;
}
export interface CompanyPricesResult {
  products: number;
  priceListEntries: number;
  buyers: number;
  rounds: number;
  secondsPerRun: number;
  points: Point[];
  target: "buyer p50 <= 2 × anonymous p50";
}

const summarize = (runs: LoadResult[]): Summary => ({
  requestsPerSecond: round(median(runs.map((r) => r.requestsPerSecond)), 0),
  p50Ms: median(runs.map((r) => r.p50)),
  p99Ms: median(runs.map((r) => r.p99)),
  meanMs: round(median(runs.map((r) => r.mean))),
  non2xx: runs.reduce(
    (n, r) =>
      n + Object.entries(r.statuses).reduce((m, [s, c]) => m + (s.startsWith("2") ? 0 : c), 0),
    0,
  ),
});

/** A price list of every product (10 % off, a break at 10 units), and a company of buyers on it. */
async function seedCompany(url: string, buyerEmails: string[]): Promise<number> {
  return withClient(url, async (c) => {
    const {
      rows: [list],
    } = await c.query<{ id: string }>(
      "insert into price_lists (name, currency) values ('Bench fleet list', 'USD') returning id",
    );
    const entries = await c.query(
      `insert into price_list_entries (price_list_id, product_id, unit_price_cents, breaks)
       select $1, id, price_cents * 9 / 10,
              jsonb_build_array(jsonb_build_object('minQty', 10,
                                                   'unitPriceCents', price_cents * 8 / 10))
       from products`,
      [list!.id],
    );
    const {
      rows: [company],
    } = await c.query<{ id: string }>(
      "insert into companies (name, price_list_id) values ('Bench Fleet Ltd', $1) returning id",
      [list!.id],
    );
    await c.query(
      `insert into company_members (company_id, user_id, role)
       select $1, id, 'buyer' from "user" where email = any($2)`,
      [company!.id, buyerEmails],
    );
    // Their group (a company's default, Garage) takes 25 % off brakes (issue 54): a buyer's page
    // also reads its rules for the page's products, in one statement.
    await c.query(
      `insert into price_rules (group_id, percent, scope, category)
       values ('00000000-0000-4000-8000-000000000002', 25, 'category', 'Brakes')`,
    );
    await c.query("analyze price_list_entries; analyze company_members; analyze companies");
    return entries.rowCount ?? 0;
  });
}

export async function runCompanyPricesBench(): Promise<CompanyPricesResult> {
  const pgServer = await startBenchPostgres();
  try {
    const url = await pgServer.createDatabase("company_prices");
    const store = await startStore(url, { SEED_DEMO_DATA: "false", CURRENCY: "USD" });
    try {
      await seedProducts(url, PRODUCTS);
      const buyers = await signUpCustomers(store.url, BUYERS, "company-buyer");
      const [customer] = await signUpCustomers(store.url, 1, "no-company");
      const entries = await seedCompany(
        url,
        buyers.map((b) => b.email),
      );
      const paths = Array.from(
        { length: 100 },
        (_, i) => `/api/products?limit=24&offset=${i * 24}`,
      );

      // What is measured is what it should be: the buyer's pages carry their prices, a visitor's
      // the shared answer.
      const [anon, mine] = await Promise.all([
        fetch(`${store.url}${paths[0]}`).then((r) => r.json()),
        fetch(`${store.url}${paths[0]}`, { headers: { cookie: buyers[0]!.cookie } }).then((r) =>
          r.json(),
        ),
      ]);
      if (JSON.stringify(anon).includes("yourPrice")) throw new Error("a visitor got prices");
      if (!(mine as { yourPrice?: number }[]).every((i) => i.yourPrice !== undefined))
        throw new Error("the buyer's page lacks their prices");
      if (!(mine as { priceNote?: string }[]).some((i) => i.priceNote?.startsWith("Garage price")))
        throw new Error("the buyer's page lacks their group's prices");

      const cycle = (who?: "buyer" | "customer") => {
        let i = 0;
        return () => {
          const n = i++;
          const cookie =
            who === "buyer"
              ? buyers[n % buyers.length]!.cookie
              : who === "customer"
                ? customer!.cookie
                : undefined;
          return { path: paths[n % paths.length]!, ...(cookie && { headers: { cookie } }) };
        };
      };
      // Warm-up: every page cached, the buyers' statements prepared.
      await load({ url: store.url, connections: 4, amount: 400, next: cycle() });
      await load({ url: store.url, connections: 4, amount: 400, next: cycle("buyer") });

      const points: Point[] = [];
      for (const connections of CONNECTION_COUNTS) {
        const anonymous: LoadResult[] = [];
        const buyer: LoadResult[] = [];
        const signedIn: LoadResult[] = [];
        for (let r = 0; r < ROUNDS; r++) {
          const opts = { url: store.url, connections, duration: SECONDS };
          anonymous.push(await load({ ...opts, next: cycle() }));
          signedIn.push(await load({ ...opts, next: cycle("customer") }));
          buyer.push(await load({ ...opts, next: cycle("buyer") }));
        }
        const a = summarize(anonymous);
        const b = summarize(buyer);
        points.push({
          connections,
          anonymous: a,
          customer: summarize(signedIn),
          buyer: b,
          p50Ratio: a.p50Ms > 0 ? round(b.p50Ms / a.p50Ms) : null,
          meanRatio: round(b.meanMs / a.meanMs),
        });
      }
      return {
        products: PRODUCTS,
        priceListEntries: entries,
        buyers: BUYERS,
        rounds: ROUNDS,
        secondsPerRun: SECONDS,
        points,
        target: "buyer p50 <= 2 × anonymous p50",
      };
    } finally {
      await store.stop();
    }
  } finally {
    await pgServer.stop();
  }
}

export function printCompanyPrices(r: CompanyPricesResult) {
  console.log(
    `Company prices on the list: ${r.products.toLocaleString("en-US")} products, a price list of ` +
      `${r.priceListEntries.toLocaleString("en-US")} entries, ${r.buyers} buyers; ` +
      `GET /api/products?limit=24&offset=K (100 pages), median of ${r.rounds} × ${r.secondsPerRun} s`,
  );
  const s = (x: Summary) =>
    `p50 ${x.p50Ms} ms mean ${x.meanMs} ms p99 ${x.p99Ms} ms ${String(x.requestsPerSecond).padStart(6)} req/s` +
    (x.non2xx ? ` (${x.non2xx} not 2xx)` : "");
  for (const p of r.points) {
    console.log(
      `  ${String(p.connections).padStart(2)} conn. anonymous ${s(p.anonymous)} | no-company customer ${s(p.customer)} | buyer ${s(p.buyer)} | buyer/anonymous p50 ${p.p50Ratio ?? "-"}, mean ${p.meanRatio}`,
    );
  }
  console.log(`  target: ${r.target}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printCompanyPrices(await runCompanyPricesBench());
}
