// The warranty report (issue 52, docs/warranty.md "The report"): `GET /api/warranty/report` of a
// store with 100,000 shipped orders (200,000 lines, most with a production lot) over two years
// and 10,000 warranty claims (submitted, inspected, approved, rejected), asked by an admin on one
// connection: the median of the runs, the whole range and one year (target median <= 200 ms).
import { adminCookie } from "./bulk-sync";
import {
  median,
  percentile,
  round,
  startBenchPostgres,
  startStore,
  withClient,
} from "./lib/harness";

const ORDERS = Number(process.env.BENCH_REPORT_ORDERS ?? 100_000);
const CLAIMS = 10_000;
const PARTS = 500;
const RUNS = 30;
const COLD_RUNS = 9;
const ADMIN = "report-bench-admin@example.com";

export interface WarrantyReportBenchResult {
  orders: number;
  lines: number;
  claims: number;
  seedSeconds: number;
  /** Every month of sale, summed each time; then asked again (the report kept a minute). */
  cold: { runs: number; medianMs: number; p90Ms: number; bytes: number };
  kept: { runs: number; medianMs: number; p90Ms: number; bytes: number };
  target: string;
}

/** Parts, orders of two lines over 24 months, one shipment each, and claims: set-based inserts. */
export async function seedWarrantyReport(url: string): Promise<void> {
  await withClient(url, async (c) => {
    await c.query(
      `insert into products (name, img, price_cents, minimum_order, available_quantity,
                             short_description, warranty_months, creator_email, part_number,
                             category)
       select 'Report part ' || i, '/images/products/oil-filter.svg', 500 + (i * 37) % 20000, 1,
              1000, 'For the warranty report benchmark', 24, 'admin@example.com', 'WR-' || i,
              'Other'
       from generate_series(1, $1) i`,
      [PARTS],
    );
    await c.query(
      `insert into orders (order_email, customer_name, total_cents, currency, phone, address,
                           status, transaction_id, hold_expires_at, created_at)
       select 'buyer' || (i % 5000) || '@example.com', 'Buyer ' || (i % 5000), 10000, 'USD',
              '+15555550100', '1 Bench Road', 'shipped', 'bench-' || i,
              now() - make_interval(mins => i * 10), now() - make_interval(mins => i * 10)
       from generate_series(1, $1) i`,
      [ORDERS],
    );
    await c.query(
      `insert into order_items (order_id, line, product_id, product_name, part_number,
                                unit_price_cents, qty)
       select o.id, l, p.id, p.name, p.part_number, p.price_cents, 1 + (o.number + l) % 3
       from orders o
       cross join generate_series(1, 2) l
       join lateral (
         select id, name, part_number, price_cents from products
         where part_number = 'WR-' || (1 + (o.number * 7 + l * 13) % ${PARTS})
       ) p on true`,
    );
    await c.query(
      `insert into shipments (order_id, shipped_at)
       select id, created_at + interval '2 days' from orders`,
    );
    // A lot per part and week of shipping; one line in ten recorded without a lot.
    await c.query(
      `insert into shipment_lines (shipment_id, order_id, line, qty, lot)
       select s.id, oi.order_id, oi.line, oi.qty,
              case when (oi.line + o.number) % 10 = 0 then null
                   else oi.part_number || '/' || to_char(s.shipped_at, 'IYYY-IW') end
       from shipments s
       join orders o on o.id = s.order_id
       join order_items oi on oi.order_id = s.order_id`,
    );
    // What the shipments module keeps as it ships (shipments/sales.ts), filled as migration 0069
    // fills it from shipments made before it.
    await c.query(
      `insert into shipped_units (product_id, month, lot, qty, part_number, product_name)
       select oi.product_id, date_trunc('month', o.created_at at time zone 'UTC')::date,
              coalesce(sl.lot, ''), sum(sl.qty)::int, max(oi.part_number), max(oi.product_name)
         from shipment_lines sl
         join order_items oi on oi.order_id = sl.order_id and oi.line = sl.line
         join orders o on o.id = sl.order_id
        group by 1, 2, 3`,
    );
    await c.query(
      `insert into warranty_claims (order_id, line, qty, claimant_name, claimant_email, status,
                                    vin, mileage_at_install, mileage_at_failure, installed_on,
                                    failed_on, installed_by, description, warranty_ends_on,
                                    failure_code, findings, inspected_at, remedy)
       select oi.order_id, oi.line, 1, o.customer_name, o.order_email, k.status,
              '1HGCM82633A004352', 1000, 5000, o.created_at::date, o.created_at::date + 30,
              'garage', 'Failed in use (benchmark)', o.created_at::date + 730,
              k.code, case when k.code is null then null else 'Found' end,
              case when k.code is null then null else now() end,
              case when k.status = 'approved' then 'refund' end
       from (
         select o.id, o.customer_name, o.order_email, o.created_at, o.number,
                row_number() over (order by o.number) n
         from orders o
       ) o
       join order_items oi on oi.order_id = o.id and oi.line = 1 + (o.n / $1) % 2
       cross join lateral (
         select (array['submitted', 'inspected', 'approved', 'approved', 'rejected'])[1 + d.m % 5]
                  as status,
                case when d.m % 5 in (1, 2, 3)
                     then (array['WEAR', 'LEAK', 'ELEC', 'NOISE', 'CRACK'])[1 + d.m % 7 % 5] end
                  as code
         from (select o.n / $1 as m) d
       ) k
       where o.n % $1 = 0`,
      [Math.floor(ORDERS / CLAIMS)],
    );
    await c.query("vacuum analyze");
  });
}

/** Each url asked once, in order, after `warm` unmeasured asks of the first: the times. */
async function timeRuns(urls: string[], cookie: string, warm = 0) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < warm; i++)
    await fetch(urls[0]!, { headers: { cookie } }).then((r) => r.text());
  for (const url of urls) {
    const started = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`report: ${res.status} ${body}`);
    times.push(performance.now() - started);
    bytes = body.length;
  }
  return {
    runs: urls.length,
    medianMs: round(median(times), 1),
    p90Ms: round(percentile(times, 0.9), 1),
    bytes,
  };
}

export async function runWarrantyReportBench(): Promise<WarrantyReportBenchResult> {
  const pg = await startBenchPostgres();
  try {
    const url = await pg.createDatabase("warranty_report");
    const store = await startStore(url, {
      SEED_DEMO_DATA: "false",
      ADMIN_EMAILS: ADMIN,
      ADMIN_2FA_REQUIRED: "false",
    });
    try {
      const started = performance.now();
      await seedWarrantyReport(url);
      const seedSeconds = round((performance.now() - started) / 1000, 1);
      const counts = await withClient(url, async (c) => ({
        lines: (await c.query<{ n: number }>("select count(*)::int n from shipment_lines")).rows[0]!
          .n,
        claims: (await c.query<{ n: number }>("select count(*)::int n from warranty_claims"))
          .rows[0]!.n,
      }));
      const cookie = await adminCookie(store.url, url, ADMIN);
      const report = `${store.url}/api/warranty/report`;
      // Summed each time: every month of sale, through a range no earlier request asked (the
      // store keeps a report a minute), after one to warm PostgreSQL's caches up.
      await fetch(`${report}?from=1989-01`, { headers: { cookie } }).then((r) => r.text());
      const cold = await timeRuns(
        Array.from({ length: COLD_RUNS }, (_, i) => `${report}?from=${1990 + i}-01`),
        cookie,
      );
      const kept = await timeRuns(
        Array.from({ length: RUNS }, () => report),
        cookie,
        1,
      );
      return {
        orders: ORDERS,
        ...counts,
        seedSeconds,
        cold,
        kept,
        target: "GET /api/warranty/report median <= 200 ms at 100,000 orders, 10,000 claims",
      };
    } finally {
      await store.stop();
    }
  } finally {
    await pg.stop();
  }
}

export function printWarrantyReport(r: WarrantyReportBenchResult) {
  console.log(
    `${r.orders} orders, ${r.lines} shipped lines, ${r.claims} claims (seeded in ${r.seedSeconds} s)`,
  );
  console.log(
    `GET /api/warranty/report, summed: median ${r.cold.medianMs} ms, p90 ${r.cold.p90Ms} ms over ${r.cold.runs} runs (${r.cold.bytes} bytes)`,
  );
  console.log(
    `GET /api/warranty/report, kept: median ${r.kept.medianMs} ms, p90 ${r.kept.p90Ms} ms over ${r.kept.runs} runs`,
  );
  console.log(`  target: ${r.target}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printWarrantyReport(await runWarrantyReportBench());
}
