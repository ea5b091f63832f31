// Customer groups' price rules (issue 54, docs/pricing.md "Customer groups and price rules"): how
// long the store takes to price a 100-line cart (`GET /api/cart`) for a garage's buyer whose group
// has rules by category, brand and part and whose parts have public quantity breaks, beside a
// retail customer's same cart (no rules) and an empty request, in turns on one connection; and the
// pricing module's own `priceLines` on the same 100 lines, in this process.
import { priceLines, pricingFromJson, type PricingRow } from "../src/server/pricing/pricing";
import { GARAGE_GROUP_ID } from "../src/contract/customer-groups";
import {
  insertOrderableProducts,
  percentile,
  round,
  signUpCustomers,
  startBenchPostgres,
  startStore,
  withClient,
} from "./lib/harness";

const LINES = 100;
const REQUESTS = 300;
const WARM = 50;
const GARAGE = "00000000-0000-4000-8000-000000000002";

export interface GroupPricingResult {
  /** A garage's buyer's 100-line cart: rules (category, brand, part) and breaks. */
  garage: { p50Ms: number; p99Ms: number };
  /** A retail customer's same cart: breaks only. */
  retail: { p50Ms: number; p99Ms: number };
  roundTrip: { p50Ms: number; p99Ms: number };
  /** `priceLines` alone, 100 lines with rules and breaks, in microseconds. */
  priceLinesUs: { p50: number; p99: number };
  targets: string;
}

export async function runGroupPricingBench(): Promise<GroupPricingResult> {
  const pg = await startBenchPostgres();
  try {
    const url = await pg.createDatabase("group_pricing");
    const store = await startStore(url, { SEED_DEMO_DATA: "false" });
    try {
      const ids = await insertOrderableProducts(url, { n: LINES, stock: 1000, prefix: "GRP" });
      const [buyer, retail] = await signUpCustomers(store.url, 2, "group-pricing");
      await withClient(url, async (c) => {
        // Every part a break at 10; a third in Brakes, a third of brand Bench, the rest named.
        await c.query(
          `update products set breaks = '[{"minQty": 10, "unitPriceCents": 900}]',
             category = case when right(part_number, 1) in ('1','2','3') then 'Brakes' else 'Other' end,
             brand = case when right(part_number, 1) in ('4','5','6') then 'Bench' end
           where id = any($1)`,
          [ids],
        );
        const company = await c.query<{ id: string }>(
          `insert into companies (name, customer_group_id) values ('Bench garage', $1) returning id`,
          [GARAGE],
        );
        await c.query(
          `insert into company_members (company_id, user_id, role)
           select $1, id, 'buyer' from "user" where email = $2`,
          [company.rows[0]!.id, buyer!.email],
        );
        await c.query(
          `insert into price_rules (group_id, percent, scope, category) values ($1, 20, 'category', 'Brakes')`,
          [GARAGE],
        );
        await c.query(
          `insert into price_rules (group_id, percent, scope, brand) values ($1, 15, 'brand', 'Bench')`,
          [GARAGE],
        );
        await c.query(
          `insert into price_rules (group_id, percent, scope, product_id, starts_on, ends_on)
           select $1, 5 + (n % 20), 'part', id, current_date - 1, current_date + 30
             from unnest($2::uuid[]) with ordinality as p(id, n) where n % 3 = 0`,
          [GARAGE, ids],
        );
        for (const who of [buyer!, retail!]) {
          await c.query(
            `insert into cart_items (user_id, product_id, product_name, qty, seen_price_cents)
             select u.id, p.id, p.name, 1 + (row_number() over (order by p.id))::int % 15, p.price_cents
               from products p, "user" u where p.id = any($1) and u.email = $2`,
            [ids, who.email],
          );
        }
      });
      const cartOf = async (cookie: string) => {
        const started = performance.now();
        const res = await fetch(`${store.url}/api/cart`, { headers: { cookie } });
        const body = (await res.json()) as { lines: unknown[] };
        if (res.status !== 200 || body.lines.length !== LINES) {
          throw new Error(`the cart answered ${res.status} with ${body.lines.length} lines`);
        }
        return performance.now() - started;
      };
      for (let i = 0; i < WARM; i++) {
        await cartOf(buyer!.cookie);
        await cartOf(retail!.cookie);
      }
      const times = { garage: [] as number[], retail: [] as number[], roundTrip: [] as number[] };
      for (let i = 0; i < REQUESTS; i++) {
        times.garage.push(await cartOf(buyer!.cookie));
        times.retail.push(await cartOf(retail!.cookie));
        const started = performance.now();
        await (await fetch(`${store.url}/health/live`)).arrayBuffer();
        times.roundTrip.push(performance.now() - started);
      }
      const figures = (xs: number[]) => ({
        p50Ms: round(percentile(xs, 0.5)),
        p99Ms: round(percentile(xs, 0.99)),
      });
      return {
        garage: figures(times.garage),
        retail: figures(times.retail),
        roundTrip: figures(times.roundTrip),
        priceLinesUs: priceLinesAlone(),
        targets: "pricing a 100-line cart with rules and breaks in <= 5 ms p50 (issue 54)",
      };
    } finally {
      await store.stop();
    }
  } finally {
    await pg.stop();
  }
}

/** `priceLines` on 100 lines, each with a break and one to three rules, timed 10,000 times. */
function priceLinesAlone(): { p50: number; p99: number } {
  const row: PricingRow = {
    group: { id: GARAGE_GROUP_ID, name: "Garage", tradeMinimums: true },
    rules: Array.from({ length: LINES }, (_, i) => [
      {
        productId: `p${i}`,
        scope: "category" as const,
        percent: 20,
        category: "Brakes",
        brand: null,
      },
      ...(i % 2
        ? [
            {
              productId: `p${i}`,
              scope: "brand" as const,
              percent: 15,
              category: null,
              brand: "Bench",
            },
          ]
        : []),
      ...(i % 3
        ? []
        : [
            {
              productId: `p${i}`,
              scope: "part" as const,
              percent: 10,
              category: null,
              brand: null,
            },
          ]),
    ]).flat(),
    member: null,
  };
  const context = pricingFromJson("bench", "USD", row);
  const lines = Array.from({ length: LINES }, (_, i) => ({
    productId: `p${i}`,
    qty: 1 + (i % 15),
    listPriceCents: 1000 + i,
    publicBreaks: [{ minQty: 10, unitPriceCents: 900 }],
  }));
  const times: number[] = [];
  for (let i = 0; i < 10_000; i++) {
    const started = performance.now();
    priceLines(context, lines);
    times.push((performance.now() - started) * 1000);
  }
  return { p50: round(percentile(times, 0.5), 1), p99: round(percentile(times, 0.99), 1) };
}

export function printGroupPricing(r: GroupPricingResult) {
  console.log(
    `A 100-line cart (GET /api/cart), ${REQUESTS} of each in turns (1 connection, loopback)`,
  );
  console.log(
    `  a garage's buyer (rules by category, brand, part; breaks): p50 ${r.garage.p50Ms} ms, p99 ${r.garage.p99Ms} ms`,
  );
  console.log(
    `  a retail customer (breaks only): p50 ${r.retail.p50Ms} ms, p99 ${r.retail.p99Ms} ms`,
  );
  console.log(`  an empty request: p50 ${r.roundTrip.p50Ms} ms`);
  console.log(
    `  priceLines alone, 100 lines: p50 ${r.priceLinesUs.p50} µs, p99 ${r.priceLinesUs.p99} µs`,
  );
  console.log(`  targets: ${r.targets}`);
}
