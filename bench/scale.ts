// Scale: the catalog listing and search at 1,000 and 100,000 products.
import { MAX_OFFSET, productSorts } from "../src/contract/constants";
import {
  load,
  round,
  seedProducts,
  startBenchPostgres,
  startStore,
  withClient,
} from "./lib/harness";

const SIZES = [1_000, 100_000] as const;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 20;
const SEARCHES = [
  "brake",
  "filter",
  "spark",
  "pump",
  "vans",
  "trucks",
  "kit 12",
  "light 7",
  "coupes",
  "radiator 3",
];

/** Ranked searches of several words, as shoppers type them (plurals, any order). */
const MULTI_WORD_SEARCHES = [
  "brake discs",
  "oil filters vans",
  "spark plugs trucks",
  "shock absorbers",
  "timing belts coupes",
  "fuel pump buses",
  "clutch kits",
  "headlights sedans",
  "radiator oe quality",
  "alternators vans",
];
/** Part-number lookups: OE numbers with their dashes, brand numbers with spaces, ours. */
const numberLookups = (n: number) =>
  Array.from({ length: 50 }, (_, k) => {
    const i = 1 + ((k * 7919) % n);
    return [`04465-${String(i).padStart(6, "0")}`, `0 986 ${i}`, `bn-${i}`][k % 3]!;
  });

/** Two cross-references per product (an OE number and a competitor's), as a real catalogue has. */
export async function seedCrossReferences(url: string): Promise<void> {
  await withClient(url, async (c) => {
    await c.query(`insert into product_cross_references (product_id, kind, brand, number, position)
      select id, 'OE', (array['Toyota','Volkswagen','Ford','BMW','Renault'])[1 + n % 5],
             '04465-' || lpad(n::text, 6, '0'), 0
      from (select id, substring(part_number from 4)::int as n from products) p
      union all
      select id, 'competitor', (array['Bosch','Mann','NGK','Valeo'])[1 + n % 4], '0 986 ' || n, 1
      from (select id, substring(part_number from 4)::int as n from products) p`);
    await c.query("vacuum analyze products, product_cross_references");
  });
}

interface Point {
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
}
interface Points {
  list: Point;
  search: Point;
  multiWordSearch: Point;
  numberLookup: Point;
  /** The same two at 1 connection: the time of one query, not the machine's throughput. */
  multiWordSearchAlone: Point;
  numberLookupAlone: Point;
}
export interface ScaleResult {
  /** Figures per catalog size, with the read cache on (as deployed) and off (every read a query). */
  sizes: Record<string, { cached: Points; uncached: Points }>;
  ratios: {
    cachedList: number;
    cachedSearch: number;
    uncachedList: number;
    uncachedSearch: number;
  };
  target: "p50 at 100k / p50 at 1k <= 1.5";
}

async function measure(url: string, total: number): Promise<Points> {
  const deepest = Math.min(total - 24, MAX_OFFSET);
  let i = 0;
  const listPath = () => {
    // Pages spread over the whole reachable range, in every sort order.
    const k = i++;
    const offset = Math.floor((((k * 7919) % 1000) / 1000) * (deepest / 24)) * 24;
    return {
      path: `/api/products?limit=24&offset=${offset}&sort=${productSorts[k % productSorts.length]}`,
    };
  };
  // A warm-up pass, not measured: a running store has its totals counted and its cache filled.
  await load({ url, connections: CONNECTIONS, amount: 4000, next: listPath });
  const list = await load({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    next: listPath,
  });
  let j = 0;
  const search = await load({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    next: () => ({
      path: `/api/products?limit=24&q=${encodeURIComponent(SEARCHES[j++ % SEARCHES.length]!)}`,
    }),
  });
  const multiWordSearch = await load({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    next: () => ({
      path: `/api/products?limit=24&q=${encodeURIComponent(MULTI_WORD_SEARCHES[j++ % MULTI_WORD_SEARCHES.length]!)}`,
    }),
  });
  const numbers = numberLookups(total);
  const numberPath = () => ({
    path: `/api/products?limit=24&q=${encodeURIComponent(numbers[j++ % numbers.length]!)}`,
  });
  const numberLookup = await load({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    next: numberPath,
  });
  const multiWordSearchAlone = await load({
    url,
    connections: 1,
    duration: SECONDS,
    next: () => ({
      path: `/api/products?limit=24&q=${encodeURIComponent(MULTI_WORD_SEARCHES[j++ % MULTI_WORD_SEARCHES.length]!)}`,
    }),
  });
  const numberLookupAlone = await load({
    url,
    connections: 1,
    duration: SECONDS,
    next: numberPath,
  });
  const point = (r: typeof list): Point => ({
    p50Ms: r.p50,
    p99Ms: r.p99,
    requestsPerSecond: round(r.requestsPerSecond, 0),
  });
  return {
    list: point(list),
    search: point(search),
    multiWordSearch: point(multiWordSearch),
    numberLookup: point(numberLookup),
    multiWordSearchAlone: point(multiWordSearchAlone),
    numberLookupAlone: point(numberLookupAlone),
  };
}

export async function runScaleBench(): Promise<ScaleResult> {
  const pgServer = await startBenchPostgres();
  const sizes: ScaleResult["sizes"] = {};
  try {
    for (const n of SIZES) {
      const url = await pgServer.createDatabase(`scale_${n}`);
      const cachedServer = await startStore(url, { SEED_DEMO_DATA: "false" });
      await seedProducts(url, n);
      await seedCrossReferences(url);
      const cached = await measure(cachedServer.url, n);
      await cachedServer.stop();
      const uncachedServer = await startStore(url, {
        SEED_DEMO_DATA: "false",
        CATALOG_CACHE: "false",
      });
      const uncached = await measure(uncachedServer.url, n);
      await uncachedServer.stop();
      sizes[String(n)] = { cached, uncached };
    }
  } finally {
    await pgServer.stop();
  }
  const small = sizes[String(SIZES[0])]!;
  const big = sizes[String(SIZES[1])]!;
  const ratio = (a: number, b: number) => round(a / Math.max(b, 0.01));
  return {
    sizes,
    ratios: {
      cachedList: ratio(big.cached.list.p50Ms, small.cached.list.p50Ms),
      cachedSearch: ratio(big.cached.search.p50Ms, small.cached.search.p50Ms),
      uncachedList: ratio(big.uncached.list.p50Ms, small.uncached.list.p50Ms),
      uncachedSearch: ratio(big.uncached.search.p50Ms, small.uncached.search.p50Ms),
    },
    target: "p50 at 100k / p50 at 1k <= 1.5",
  };
}

export function printScale(r: ScaleResult) {
  console.log(`Scale (${CONNECTIONS} connections, ${SECONDS} s each)`);
  for (const [n, s] of Object.entries(r.sizes)) {
    for (const mode of ["cached", "uncached"] as const) {
      console.log(
        `  ${n.padStart(6)} products, ${mode.padEnd(8)}: list p50 ${s[mode].list.p50Ms} ms (p99 ${s[mode].list.p99Ms}), ` +
          `search p50 ${s[mode].search.p50Ms} ms (p99 ${s[mode].search.p99Ms}), ` +
          `multi-word p50 ${s[mode].multiWordSearch.p50Ms} ms (p99 ${s[mode].multiWordSearch.p99Ms}), ` +
          `number p50 ${s[mode].numberLookup.p50Ms} ms (p99 ${s[mode].numberLookup.p99Ms}); ` +
          `1 connection: multi-word p50 ${s[mode].multiWordSearchAlone.p50Ms} ms (p99 ${s[mode].multiWordSearchAlone.p99Ms}), ` +
          `number p50 ${s[mode].numberLookupAlone.p50Ms} ms (p99 ${s[mode].numberLookupAlone.p99Ms})`,
      );
    }
  }
  console.log(`  p50 100k/1k: ${JSON.stringify(r.ratios)}  (target <= 1.5)`);
  console.log(
    "  targets at 100k, uncached: multi-word p50 <= 25 ms, p99 <= 80 ms; number p50 <= 5 ms",
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printScale(await runScaleBench());
}
