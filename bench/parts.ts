// Part pages at 100,000 products (issue 50): how long the server takes to answer a part's public
// page (rendered by the server the first time, from memory after), and to stream the sitemap.
import {
  load,
  round,
  seedProducts,
  startBenchPostgres,
  startStore,
  withClient,
} from "./lib/harness";
import { seedCrossReferences } from "./scale";

const PRODUCTS = 100_000;
/** Distinct part pages asked for, each once cold (read and rendered) and once warm. */
const PAGES = 400;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

export interface PartsResult {
  products: number;
  fitmentRows: number;
  /** One connection, the page's data from the API, first asked (read from the database). */
  firstRead: { p50Ms: number; p99Ms: number };
  /** One connection, each page's first view: read from the database and rendered. */
  firstView: { p50Ms: number; p99Ms: number };
  /** One connection, pages already rendered (the catalog cache holds their answer). */
  repeatView: { p50Ms: number; p99Ms: number };
  /** 20 connections over the same pages, warm. */
  warmLoad: { p50Ms: number; p99Ms: number; requestsPerSecond: number };
  sitemap: { files: number; urls: number; seconds: number; bytes: number };
  targets: string;
}

/** Five model years of one of 40 models per part: 500,000 fitment rows at 100,000 parts. */
async function seedFitment(url: string): Promise<number> {
  return withClient(url, async (c) => {
    await c.query(
      `insert into vehicle_makes (name) select 'Make ' || m from generate_series(1, 4) m`,
    );
    await c.query(`insert into vehicle_models (make_id, name)
      select mk.id, 'Model ' || mk.id || '-' || k from vehicle_makes mk, generate_series(1, 10) k`);
    await c.query(`insert into base_vehicles (model_id, year)
      select md.id, y from vehicle_models md, generate_series(2010, 2024) y`);
    const { rowCount } =
      await c.query(`insert into product_fitments (product_id, base_vehicle_id, position)
      select p.id, bv.id, 'Front'
      from (select id, substring(part_number from 4)::int as n from products) p
      join vehicle_models md on md.id = (select min(id) from vehicle_models) + p.n % 40
      join base_vehicles bv on bv.model_id = md.id and bv.year between 2010 + p.n % 10 and 2014 + p.n % 10`);
    await c.query("vacuum analyze product_fitments, base_vehicles, vehicle_models");
    return rowCount ?? 0;
  });
}

const percentile = (sorted: number[], p: number) =>
  round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);

/** What Chromium asks for: the server chooses among these as it would for a browser. */
const BROWSER_ENCODINGS = "gzip, deflate, br, zstd";

async function timed(urls: string[]): Promise<{ p50Ms: number; p99Ms: number }> {
  const times: number[] = [];
  for (const url of urls) {
    const started = performance.now();
    const res = await fetch(url, {
      headers: { "accept-encoding": BROWSER_ENCODINGS },
      redirect: "manual",
    });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
}

export async function runPartsBench(): Promise<PartsResult> {
  const pg = await startBenchPostgres();
  try {
    const url = await pg.createDatabase("parts_100000");
    const store = await startStore(url, { SEED_DEMO_DATA: "false" });
    try {
      await seedProducts(url, PRODUCTS);
      await seedCrossReferences(url);
      const fitmentRows = await seedFitment(url);
      const slugs = await withClient(url, async (c) =>
        (
          await c.query<{ slug: string }>(
            `select slug from products order by md5(id::text) limit ${2 * PAGES}`,
          )
        ).rows.map((r) => r.slug),
      );
      const pageUrls = slugs.slice(0, PAGES).map((s) => `${store.url}/parts/${s}`);
      // Other parts' data alone, each first asked: what the first view spends reading.
      const firstRead = await timed(slugs.slice(PAGES).map((s) => `${store.url}/api/parts/${s}`));
      // The server's renderer is loaded by its first part page, as on a running store.
      await timed([`${store.url}/parts/${slugs[0]}`]);
      const firstView = await timed(pageUrls.slice(1));
      const repeatView = await timed(pageUrls.slice(1));
      let i = 0;
      const warm = await load({
        url: store.url,
        connections: 20,
        duration: SECONDS,
        next: () => ({ path: new URL(pageUrls[i++ % pageUrls.length]!).pathname }),
      });
      const started = performance.now();
      const index = await (await fetch(`${store.url}/sitemap.xml`)).text();
      const files = [...index.matchAll(/<loc>[^<]*(\/sitemaps\/parts-\d+\.xml)<\/loc>/g)];
      let urls = 0;
      let bytes = 0;
      for (const [, file] of files) {
        const body = await (await fetch(`${store.url}${file}`)).text();
        urls += body.split("<url>").length - 1;
        bytes += Buffer.byteLength(body);
      }
      const seconds = round((performance.now() - started) / 1000);
      return {
        products: PRODUCTS,
        fitmentRows,
        firstRead,
        firstView,
        repeatView,
        warmLoad: {
          p50Ms: warm.p50,
          p99Ms: warm.p99,
          requestsPerSecond: round(warm.requestsPerSecond, 0),
        },
        sitemap: { files: files.length, urls, seconds, bytes },
        targets: "part page p50 <= 10 ms (server time) at 100,000 products; sitemap <= 2 s",
      };
    } finally {
      await store.stop();
    }
  } finally {
    await pg.stop();
  }
}

export function printParts(r: PartsResult) {
  console.log(
    `Part pages at ${r.products.toLocaleString("en")} products, ${r.fitmentRows.toLocaleString("en")} fitment rows (1 connection, loopback)`,
  );
  console.log(`  data, first asked: p50 ${r.firstRead.p50Ms} ms, p99 ${r.firstRead.p99Ms} ms`);
  console.log(
    `  first view (read + rendered): p50 ${r.firstView.p50Ms} ms, p99 ${r.firstView.p99Ms} ms`,
  );
  console.log(
    `  repeat view (rendered page kept): p50 ${r.repeatView.p50Ms} ms, p99 ${r.repeatView.p99Ms} ms`,
  );
  console.log(
    `  20 connections, warm: p50 ${r.warmLoad.p50Ms} ms, p99 ${r.warmLoad.p99Ms} ms, ${r.warmLoad.requestsPerSecond} pages/s`,
  );
  console.log(
    `  sitemap: ${r.sitemap.urls.toLocaleString("en")} part pages in ${r.sitemap.files} files, ${Math.round(r.sitemap.bytes / 1024)} KB, ${r.sitemap.seconds} s`,
  );
  console.log(`  targets: ${r.targets}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printParts(await runPartsBench());
}
