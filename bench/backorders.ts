// Backorders (issue 53, docs/inventory.md "Backorders"): a part with 10,000 paid orders waiting on
// backorder (1 to 3 units each) and a production run bringing all of them. The admin re-dates the
// run (every waiting line dated again, each order emailed its new date), then receives it through
// the admin API: the units go to the waiting lines first placed first served, and the rest of the
// queue is dated again. Target: the receipt that fills 10,000 lines in <= 5 s.
import { adminCookie } from "./bulk-sync";
import { median, round, startBenchPostgres, startStore, withClient } from "./lib/harness";

const LINES = Number(process.env.BENCH_BACKORDER_LINES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ADMIN = "backorder-bench-admin@example.com";

export interface BackordersBenchResult {
  lines: number;
  units: number;
  rounds: number;
  /** PATCH the run's date: every waiting line dated again, each order told. */
  redateMs: number;
  /** POST …/receive of every unit: the queue filled and dated again. */
  receiveMs: number;
  filled: number;
  target: string;
}

/** A part, LINES paid orders of it, each with 1 to 3 units waiting on backorder, and a run. */
async function seed(url: string, round: number): Promise<{ productId: string; units: number }> {
  return withClient(url, async (c) => {
    const product = await c.query<{ id: string }>(
      `insert into products (name, img, price_cents, minimum_order, available_quantity,
                             short_description, warranty_months, creator_email, part_number,
                             category)
       values ('Backordered part ' || $1::text, '/images/products/oil-filter.svg', 1500, 1, 0,
               'For the backorders benchmark', 24, 'admin@example.com', 'BO-BENCH-' || $1::text,
               'Other')
       returning id`,
      [round],
    );
    const productId = product.rows[0]!.id;
    await c.query(`insert into backorder_policies (product_id) values ($1)`, [productId]);
    await c.query(
      `with placed as (
         insert into orders (order_email, customer_name, total_cents, currency, phone, address,
                             status, transaction_id, paid_with, hold_expires_at, paid_at)
         select 'waiting' || i || '@example.com', 'Waiting buyer ' || i, 4500, 'USD',
                '+15555550100', '1 Bench Road', 'paid', 'bench-bo-' || $2::text || '-' || i,
                'test-card', now(), now()
           from generate_series(1, $1::int) i
         returning id, number
       ),
       lines as (
         insert into order_items (order_id, line, product_id, product_name, part_number,
                                  unit_price_cents, qty)
         select id, 1, $3::uuid, 'Backordered part', 'BO-BENCH', 1500, 1 + number % 3 from placed
         returning order_id, qty
       )
       insert into backorders (order_id, line, product_id, qty, waiting, created_at)
       select order_id, 1, $3::uuid, qty, qty,
              clock_timestamp() + make_interval(secs => row_number() over () / 1000.0)
         from lines`,
      [LINES, round, productId],
    );
    const units = await c.query<{ n: number }>(
      `select sum(waiting)::int n from backorders where product_id = $1`,
      [productId],
    );
    await c.query("vacuum analyze backorders");
    return { productId, units: units.rows[0]!.n };
  });
}

export async function runBackordersBench(): Promise<BackordersBenchResult> {
  const pg = await startBenchPostgres();
  try {
    const url = await pg.createDatabase("backorders");
    const store = await startStore(url, {
      SEED_DEMO_DATA: "false",
      ADMIN_EMAILS: ADMIN,
      ADMIN_2FA_REQUIRED: "false",
    });
    try {
      const cookie = await adminCookie(store.url, url, ADMIN);
      const home = await withClient(
        url,
        async (c) =>
          (await c.query<{ id: string }>("select id from stock_locations where is_home")).rows[0]!
            .id,
      );
      const send = async (method: string, path: string, body: object) => {
        const started = performance.now();
        const res = await fetch(`${store.url}/api${path}`, {
          method,
          headers: { cookie, "content-type": "application/json", origin: store.url },
          body: JSON.stringify(body),
        });
        const text = await res.text();
        if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
        return { ms: performance.now() - started, json: JSON.parse(text) as { id: string } };
      };
      const redates: number[] = [];
      const receipts: number[] = [];
      let units = 0;
      let filled = 0;
      for (let round = 1; round <= ROUNDS; round++) {
        const seeded = await seed(url, round);
        units = seeded.units;
        const run = await send("POST", "/incoming-supply", {
          kind: "production",
          reference: `RUN-BENCH-${round}`,
          productId: seeded.productId,
          locationId: home,
          qty: units,
          expectedOn: "2027-01-12",
        });
        redates.push(
          (await send("PATCH", `/incoming-supply/${run.json.id}`, { expectedOn: "2027-02-01" })).ms,
        );
        receipts.push(
          (await send("POST", `/incoming-supply/${run.json.id}/receive`, { qty: units })).ms,
        );
        filled = await withClient(
          url,
          async (c) =>
            (
              await c.query<{ n: number }>(
                `select count(*)::int n from backorders where product_id = $1 and waiting = 0`,
                [seeded.productId],
              )
            ).rows[0]!.n,
        );
      }
      return {
        lines: LINES,
        units,
        rounds: ROUNDS,
        redateMs: round(median(redates), 0),
        receiveMs: round(median(receipts), 0),
        filled,
        target: "receiving supply for 10,000 waiting lines <= 5 s (issue 53)",
      };
    } finally {
      await store.stop();
    }
  } finally {
    await pg.stop();
  }
}

export function printBackorders(r: BackordersBenchResult) {
  console.log(
    `${r.lines} lines waiting on backorder (${r.units} units), ${r.rounds} rounds, medians:`,
  );
  console.log(`re-dating the run: ${r.redateMs} ms (every line dated again, each order emailed)`);
  console.log(
    `receiving it: ${r.receiveMs} ms (${r.filled} of ${r.lines} lines filled) — target: ${r.target}`,
  );
}
