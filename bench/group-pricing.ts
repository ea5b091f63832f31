// Customer groups' price rules (issue 54, docs/pricing.md "Customer groups and price rules"): how
// long the store takes to price a 100-line cart (`GET /api/cart`) for a garage's buyer whose group
// has rules by category, brand and part and whose parts have public quantity breaks, beside a
// retail customer's same cart (no rules) and an empty request, in turns on one connection; and the
// pricing module's own `priceLines` on the same 100 lines, in this process. The garage's buyer's
// cart carries a discount code (10 % off brakes, for Garage, with a minimum order), so it is priced
// with rules, breaks and a code, as issue 54's figure asks; `priceLines` alone is timed with the
// checkout's decision on the same code after it (`decideDiscount`).
import { priceLines, pricingFromJson, type PricingRow } from "../src/server/pricing/pricing";
import { decideDiscount, type DiscountOffer } from "../src/server/pricing/discounts";
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
  /** A garage's buyer's 100-line cart: rules (category, brand, part), breaks and a code. */
  garage: { p50Ms: number; p99Ms: number };
  /** A retail customer's same cart: breaks only. */
  retail: { p50Ms: number; p99Ms: number };
  roundTrip: { p50Ms: number; p99Ms: number };
  /** `priceLines` alone, 100 lines with rules and breaks, in microseconds. */
  priceLinesUs: { p50: number; p99: number };
  /** The same, then the checkout's decision on the code (issue 54's figure), in microseconds. */
  withCodeUs: { p50: number; p99: number };
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
        // The garage's code: 10 % off brakes, Garage's only, from a $50.00 order, used once
        // already; applied to the buyer's cart.
        await c.query(
          `insert into discount_codes (code, kind, percent, scope, category, min_subtotal_cents,
             usage_limit, per_customer_limit, used_count, customer_group_id)
           values ('BENCH10', 'percent', 10, 'category', 'Brakes', 5000, 1000, 5, 1, $1)`,
          [GARAGE],
        );
        await c.query(
          `insert into cart_discount_codes (user_id, code_id)
           select u.id, d.id from "user" u, discount_codes d
            where u.email = $1 and d.code = 'BENCH10'`,
          [buyer!.email],
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
      const cartOf = async (cookie: string, code = false) => {
        const started = performance.now();
        const res = await fetch(`${store.url}/api/cart`, { headers: { cookie } });
        const body = (await res.json()) as {
          lines: unknown[];
          discount: { amount: number } | null;
          discountProblem: string | null;
        };
        if (res.status !== 200 || body.lines.length !== LINES) {
          throw new Error(`the cart answered ${res.status} with ${body.lines.length} lines`);
        }
        if (code && !(body.discount && body.discount.amount > 0)) {
          throw new Error(`the garage's code took nothing off: ${body.discountProblem}`);
        }
        return performance.now() - started;
      };
      for (let i = 0; i < WARM; i++) {
        await cartOf(buyer!.cookie, true);
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
        ...priceLinesAlone(),
        targets: "pricing a 100-line cart with rules, breaks and a code in <= 5 ms p50 (issue 54)",
      };
    } finally {
      await store.stop();
    }
  } finally {
    await pg.stop();
  }
}

/**
 * `priceLines` on 100 lines, each with a break and one to three rules, timed 10,000 times alone
 * and 10,000 times followed by the checkout's decision on a code (10 % off brakes, a third of the
 * lines), in turns.
 */
function priceLinesAlone(): Pick<GroupPricingResult, "priceLinesUs" | "withCodeUs"> {
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
  const offer: DiscountOffer = {
    code: {
      id: "bench-code",
      code: "BENCH10",
      kind: "percent",
      percent: 10,
      amountCents: null,
      scope: "category",
      category: "Brakes",
      productId: null,
      active: true,
      startsOn: null,
      endsOn: null,
      minSubtotalCents: 5000,
      usageLimit: 1000,
      perCustomerLimit: 5,
      usedCount: 1,
      customerGroupId: GARAGE_GROUP_ID,
    },
    buyer: { today: "2026-12-05", groupId: GARAGE_GROUP_ID, usesByBuyer: 0, currency: "USD" },
    categories: new Map(lines.map((l, i) => [l.productId, i % 3 ? "Other" : "Brakes"])),
  };
  const alone: number[] = [];
  const withCode: number[] = [];
  for (let i = 0; i < 10_000; i++) {
    let started = performance.now();
    priceLines(context, lines);
    alone.push((performance.now() - started) * 1000);
    started = performance.now();
    const off = decideDiscount(offer, priceLines(context, lines));
    withCode.push((performance.now() - started) * 1000);
    if (off.totalCents <= 0) throw new Error("the code took nothing off");
  }
  const figures = (xs: number[]) => ({
    p50: round(percentile(xs, 0.5), 1),
    p99: round(percentile(xs, 0.99), 1),
  });
  return { priceLinesUs: figures(alone), withCodeUs: figures(withCode) };
}

export function printGroupPricing(r: GroupPricingResult) {
  console.log(
    `A 100-line cart (GET /api/cart), ${REQUESTS} of each in turns (1 connection, loopback)`,
  );
  console.log(
    `  a garage's buyer (rules by category, brand, part; breaks; a code): p50 ${r.garage.p50Ms} ms, p99 ${r.garage.p99Ms} ms`,
  );
  console.log(
    `  a retail customer (breaks only): p50 ${r.retail.p50Ms} ms, p99 ${r.retail.p99Ms} ms`,
  );
  console.log(`  an empty request: p50 ${r.roundTrip.p50Ms} ms`);
  console.log(
    `  priceLines alone, 100 lines: p50 ${r.priceLinesUs.p50} µs, p99 ${r.priceLinesUs.p99} µs`,
  );
  console.log(
    `  priceLines and the code's decision, 100 lines: p50 ${r.withCodeUs.p50} µs, p99 ${r.withCodeUs.p99} µs`,
  );
  console.log(`  targets: ${r.targets}`);
}
