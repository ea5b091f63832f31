import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";

// `allocate_stock` (migration 0096) places a line whole at the first ranked location with units on
// sale itself and hands every other case to `allocate_stock_ranked` (migration 0090's statement).
// Here both run on the same random stores and orders, each in a transaction rolled back after,
// and must allocate the same units at the same locations, leave the same stock, answer the same
// and refuse (placement_changed) the same orders: the first path is a shortcut, not a rule.

let database: TestDatabase;
let client: pg.PoolClient;
const products: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  client = await database.pool.connect();
  for (let i = 0; i < 3; i++) {
    const { rows } = await client.query<{ id: string }>(
      `insert into products (name, img, price_cents, minimum_order, available_quantity,
                             short_description, warranty_months, creator_email, part_number,
                             category)
       values ($1, '/images/products/oil-filter.svg', 1000, 1, 0, 'Allocation paths', 12,
               'admin@example.com', $1, 'Other') returning id`,
      [`PATHS-${i}`],
    );
    products.push(rows[0]!.id);
  }
});
afterAll(async () => {
  client.release();
  await database.close();
});

/** A small deterministic generator (mulberry32), so that a failure names its seed. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]) => xs[int(0, xs.length - 1)]!;
  return { int, pick, chance: (p: number) => next() < p };
}

interface Scenario {
  wholeOrder: boolean;
  homePriority: number;
  locations: {
    id: string;
    active: boolean;
    priority: number;
    countries: string[];
    regions: string[];
  }[];
  /** Units on sale by product, at the home location and at each other location. */
  home: number[];
  stock: number[][];
  lines: { product: string; qty: number; total: number }[];
  country: string;
  region: string;
}

function scenario(seed: number): Scenario {
  const r = generator(seed);
  const locations = Array.from({ length: r.int(0, 3) }, () => ({
    id: randomUUID(),
    active: r.chance(0.85),
    priority: r.pick([50, 100, 100, 150]),
    countries: r.pick([[], ["US"], ["US", "CA"], ["DE"]]),
    regions: r.pick([[], [], ["OR"], ["WA", "CA"]]),
  }));
  const home = products.map(() => r.int(0, 6));
  const stock = products.map(() => locations.map(() => r.pick([0, 0, 1, 2, 3, 5, 8])));
  const lineCount = r.int(1, 3);
  const lines = products.slice(0, lineCount).map((product, i) => {
    const onSale = home[i]! + stock[i]!.reduce((a, b) => a + b, 0);
    // Mostly orders the take allowed (the function runs after it), now and then one beyond.
    const qty = r.chance(0.9) ? r.int(1, Math.max(1, onSale)) : onSale + r.int(1, 2);
    return { product, qty, total: Math.max(0, onSale - qty) };
  });
  return {
    wholeOrder: r.chance(0.4),
    homePriority: r.pick([50, 100, 150]),
    locations,
    home,
    stock,
    lines,
    country: r.pick(["US", "US", "CA", "DE"]),
    region: r.pick(["OR", "WA", "TX", ""]),
  };
}

interface Outcome {
  answer: number | null;
  refused: string | null;
  allocations: string[];
  stock: string[];
}

type Call = [fn: "allocate_stock" | "allocate_stock_ranked", expect: string | null];

/**
 * Sets the scenario's store up in a transaction, makes each call on it from there (a savepoint
 * each, rolled back after), then rolls the store back: what each call answered and left.
 */
async function run(s: Scenario, calls: Call[]): Promise<Outcome[]> {
  await client.query("begin");
  try {
    await client.query("update allocation_policy set whole_order = $1", [s.wholeOrder]);
    await client.query("update stock_locations set priority = $1 where is_home", [s.homePriority]);
    await client.query(
      `insert into stock_locations (id, code, name, country, serves_countries, serves_regions,
                                    priority, active)
       select id, 'L' || left(id::text, 8), 'L' || left(id::text, 8), 'US',
              array(select jsonb_array_elements_text(countries)),
              array(select jsonb_array_elements_text(regions)),
              priority, active
         from jsonb_to_recordset($1::jsonb)
           as l(id uuid, countries jsonb, regions jsonb, priority int, active boolean)`,
      [JSON.stringify(s.locations)],
    );
    await client.query(
      `insert into location_stock (product_id, location_id, available)
       select p, l, q from unnest($1::uuid[], $2::uuid[], $3::int[]) as u(p, l, q)`,
      [
        products.flatMap((p) => s.locations.map(() => p)),
        products.flatMap(() => s.locations.map((l) => l.id)),
        s.stock.flat(),
      ],
    );
    const outcomes: Outcome[] = [];
    for (const [fn, expect] of calls) outcomes.push(await call(s, fn, expect));
    return outcomes;
  } finally {
    await client.query("rollback");
  }
}

async function call(s: Scenario, fn: Call[0], expect: string | null): Promise<Outcome> {
  const order = "00000000-0000-4000-8000-000000000001";
  let answer: number | null = null;
  let refused: string | null = null;
  await client.query("savepoint call");
  try {
    const { rows } = await client.query<{ n: number }>(
      `select ${fn}($1::uuid, $2::uuid[], $3::int[], $4::int[], $5, $6, $7) as n`,
      [
        order,
        s.lines.map((l) => l.product),
        s.lines.map((l) => l.qty),
        s.lines.map((l) => l.total),
        s.country,
        s.region,
        expect,
      ],
    );
    answer = rows[0]!.n;
  } catch (err) {
    refused = (err as { code?: string }).code ?? String(err);
    await client.query("rollback to savepoint call");
  }
  const { rows } = await client.query<{ allocations: string[] | null; stock: string[] | null }>(
    `select (select array_agg(product_id || ':' || location_id || ':' || qty
                              order by product_id, location_id)
               from stock_allocations where order_id = $1) as allocations,
            (select array_agg(product_id || ':' || location_id || ':' || available
                              order by product_id, location_id)
               from location_stock where product_id = any($2)) as stock`,
    [order, products],
  );
  await client.query("rollback to savepoint call");
  return { answer, refused, allocations: rows[0]!.allocations ?? [], stock: rows[0]!.stock ?? [] };
}

test("the first-location path allocates every order exactly as the ranked statement", async () => {
  let whole = 0;
  for (let seed = 1; seed <= 250; seed++) {
    const s = scenario(seed);
    const [ranked] = await run(s, [["allocate_stock_ranked", null]]);
    const plan = ranked!.allocations.join(",");
    // With the allocation expected (the checkout's promise): the same plan passes, another not.
    const checked = plan && !ranked!.refused;
    const [first, expected, other] = await run(s, [
      ["allocate_stock", null],
      ...(checked
        ? ([
            ["allocate_stock", plan],
            ["allocate_stock", `${plan}0`],
          ] as Call[])
        : []),
    ]);
    expect(first, `seed ${seed}`).toEqual(ranked);
    if (checked) {
      expect(expected, `seed ${seed}`).toEqual(ranked);
      expect(other!.refused, `seed ${seed}`).toBe("40001");
      expect(other!.allocations, `seed ${seed}`).toEqual([]);
    }
    if (checked && ranked!.allocations.length === s.lines.length) whole += 1;
  }
  // The scenarios reach both kinds of order: each line whole at one location, and the others.
  expect(whole).toBeGreaterThan(60);
  expect(whole).toBeLessThan(250);
});
