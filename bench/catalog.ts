// Catalog reads: our production server against a bare node:http server answering the identical
// bytes from memory, side by side, on 10,000 products.
import {
  inTurn,
  load,
  median,
  postgresResidentMiB,
  residentMiB,
  round,
  seedProducts,
  startBareServer,
  startBenchPostgres,
  startStore,
  withClient,
  workingTree,
  type LoadResult,
  type StoreBuild,
} from "./lib/harness";
import type { Figure } from "./lib/comparison";

const PRODUCTS = 10_000;
const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

interface Summary {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}
interface Comparison {
  ours: Summary;
  bare: Summary;
  /** ours / bare, requests per second (median of the rounds). */
  ratio: number;
}
export interface CatalogResult {
  products: number;
  connections: number;
  rounds: number;
  secondsPerRun: number;
  list: Comparison;
  byId: Comparison;
  memoryMiB: { server: number; postgres: number };
  targets: { ratio: ">= 0.85"; p99Ms: "<= 25" };
}

const summarize = (runs: LoadResult[]): Summary => ({
  requestsPerSecond: round(median(runs.map((r) => r.requestsPerSecond)), 0),
  p50Ms: median(runs.map((r) => r.p50)),
  p99Ms: median(runs.map((r) => r.p99)),
  non2xx: runs.reduce(
    (n, r) =>
      n + Object.entries(r.statuses).reduce((m, [s, c]) => m + (s.startsWith("2") ? 0 : c), 0),
    0,
  ),
});

/**
 * One result per build, in the order given: the builds' stores run side by side, each on its
 * own database, taking turns within every round (`--against`); the bare server is shared.
 */
export async function runCatalogBench(
  builds: StoreBuild[] = [workingTree],
): Promise<CatalogResult[]> {
  const pgServer = await startBenchPostgres();
  const stores: { url: string; server: Awaited<ReturnType<typeof startStore>> }[] = [];
  try {
    for (const [k, build] of builds.entries()) {
      const url = await pgServer.createDatabase(k === 0 ? "catalog" : `catalog_${k}`);
      stores.push({ url, server: await startStore(url, { SEED_DEMO_DATA: "false" }, build) });
      await seedProducts(url, PRODUCTS);
    }
    const listPaths = Array.from(
      { length: 100 },
      (_, i) => `/api/products?limit=24&offset=${i * 24}`,
    );
    const picked = await withClient(
      stores[0]!.url,
      async (c) =>
        (
          await c.query<{ id: string; part_number: string }>(
            "select id, part_number from products order by random() limit 100",
          )
        ).rows,
    );
    // The same products in every build's database (ids are random: found by part number).
    const idPaths = await Promise.all(
      stores.map(async ({ url }, k) => {
        if (k === 0) return picked.map((r) => `/api/products/${r.id}`);
        const ids = await withClient(url, async (c) => {
          const rows = await c.query<{ id: string; part_number: string }>(
            "select id, part_number from products where part_number = any($1)",
            [picked.map((r) => r.part_number)],
          );
          return new Map(rows.rows.map((r) => [r.part_number, r.id]));
        });
        return picked.map((r) => `/api/products/${ids.get(r.part_number)}`);
      }),
    );

    // The bare server answers exactly what ours answers, headers that matter included. Every
    // build's store is asked for every path once, so each starts the rounds with a warm cache.
    const responses: Record<string, { headers: Record<string, string>; body: string }> = {};
    for (const [k, { server }] of stores.entries()) {
      for (const p of [...listPaths, ...idPaths[k]!]) {
        const res = await fetch(`${server.url}${p}`);
        const body = await res.text();
        if (k > 0) continue;
        const headers: Record<string, string> = {};
        for (const h of ["content-type", "x-total-count", "etag", "cache-control"]) {
          const v = res.headers.get(h);
          if (v) headers[h] = v;
        }
        responses[p] = { headers, body };
      }
    }
    const bare = await startBareServer(responses);

    const cycle = (paths: string[]) => {
      let i = 0;
      return () => ({ path: paths[i++ % paths.length]! });
    };
    const runs = {
      listBare: [] as LoadResult[],
      idBare: [] as LoadResult[],
      listOurs: stores.map(() => [] as LoadResult[]),
      idOurs: stores.map(() => [] as LoadResult[]),
    };
    try {
      for (let r = 0; r < ROUNDS; r++) {
        const opts = { connections: CONNECTIONS, duration: SECONDS };
        runs.listBare.push(await load({ ...opts, url: bare.url, next: cycle(listPaths) }));
        for (const k of inTurn(stores.length, r)) {
          const url = stores[k]!.server.url;
          runs.listOurs[k]!.push(await load({ ...opts, url, next: cycle(listPaths) }));
        }
        runs.idBare.push(await load({ ...opts, url: bare.url, next: cycle(idPaths[0]!) }));
        for (const k of inTurn(stores.length, r)) {
          const url = stores[k]!.server.url;
          runs.idOurs[k]!.push(await load({ ...opts, url, next: cycle(idPaths[k]!) }));
        }
      }
    } finally {
      await bare.stop();
    }
    const compare = (ours: LoadResult[], bareRuns: LoadResult[]): Comparison => {
      const o = summarize(ours);
      const b = summarize(bareRuns);
      return { ours: o, bare: b, ratio: round(o.requestsPerSecond / b.requestsPerSecond) };
    };
    const postgres = postgresResidentMiB(pgServer.dir);
    return stores.map(({ server }, k) => ({
      products: PRODUCTS,
      connections: CONNECTIONS,
      rounds: ROUNDS,
      secondsPerRun: SECONDS,
      list: compare(runs.listOurs[k]!, runs.listBare),
      byId: compare(runs.idOurs[k]!, runs.idBare),
      memoryMiB: { server: residentMiB(server.process.pid!), postgres },
      targets: { ratio: ">= 0.85", p99Ms: "<= 25" },
    }));
  } finally {
    for (const { server } of stores) await server.stop();
    await pgServer.stop();
  }
}

/**
 * The figures `--against` compares. Not the server's memory: the two stores run side by side,
 * and the one started second came out 3–9 MiB larger in each of six trials, whichever build it was
 * (startup compares memory, each start alone).
 */
export const catalogFigures = (r: CatalogResult): Figure[] => [
  { name: "list req/s", value: r.list.ours.requestsPerSecond, better: "higher" },
  { name: "list p99 ms", value: r.list.ours.p99Ms, better: "lower" },
  { name: "list ÷ bare", value: r.list.ratio, better: "higher" },
  { name: "by id req/s", value: r.byId.ours.requestsPerSecond, better: "higher" },
  { name: "by id p99 ms", value: r.byId.ours.p99Ms, better: "lower" },
  { name: "by id ÷ bare", value: r.byId.ratio, better: "higher" },
];

export const catalogBaseline = (r: CatalogResult) => [
  { name: "bare list req/s", value: r.list.bare.requestsPerSecond },
  { name: "bare by id req/s", value: r.byId.bare.requestsPerSecond },
];

export function printCatalog(r: CatalogResult) {
  const row = (name: string, c: Comparison) =>
    `${name.padEnd(22)} ours ${String(c.ours.requestsPerSecond).padStart(6)} req/s ` +
    `p50 ${c.ours.p50Ms} ms p99 ${c.ours.p99Ms} ms | bare ${String(c.bare.requestsPerSecond).padStart(6)} req/s ` +
    `p99 ${c.bare.p99Ms} ms | ours/bare ${c.ratio}`;
  console.log(
    `Catalog reads (${r.products} products, ${r.connections} connections, median of ${r.rounds} × ${r.secondsPerRun} s)`,
  );
  console.log(row("GET /api/products?…", r.list));
  console.log(row("GET /api/products/{id}", r.byId));
  console.log(
    `  targets: ours/bare >= 0.85, p99 <= 25 ms; memory after: server ${r.memoryMiB.server} MiB, PostgreSQL ${r.memoryMiB.postgres} MiB`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printCatalog((await runCatalogBench())[0]!);
}
