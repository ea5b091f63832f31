// Catalog reads: our production server against a bare node:http server answering the identical
// bytes from memory, side by side, on 10,000 products.
import {
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
  type LoadResult,
} from "./lib/harness";

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

export async function runCatalogBench(): Promise<CatalogResult> {
  const pgServer = await startBenchPostgres();
  const url = await pgServer.createDatabase("catalog");
  const server = await startStore(url, { SEED_DEMO_DATA: "false" });
  try {
    await seedProducts(url, PRODUCTS);
    const listPaths = Array.from(
      { length: 100 },
      (_, i) => `/api/products?limit=24&offset=${i * 24}`,
    );
    const ids = await withClient(
      url,
      async (c) =>
        (await c.query<{ id: string }>("select id from products order by random() limit 100")).rows,
    );
    const idPaths = ids.map((r) => `/api/products/${r.id}`);

    // The bare server answers exactly what ours answers, headers that matter included.
    const responses: Record<string, { headers: Record<string, string>; body: string }> = {};
    for (const p of [...listPaths, ...idPaths]) {
      const res = await fetch(`${server.url}${p}`);
      const headers: Record<string, string> = {};
      for (const h of ["content-type", "x-total-count", "etag", "cache-control"]) {
        const v = res.headers.get(h);
        if (v) headers[h] = v;
      }
      responses[p] = { headers, body: await res.text() };
    }
    const bare = await startBareServer(responses);

    const cycle = (paths: string[]) => {
      let i = 0;
      return () => ({ path: paths[i++ % paths.length]! });
    };
    const runs = { listOurs: [], listBare: [], idOurs: [], idBare: [] } as Record<
      string,
      LoadResult[]
    >;
    try {
      for (let r = 0; r < ROUNDS; r++) {
        const opts = { connections: CONNECTIONS, duration: SECONDS };
        runs.listBare!.push(await load({ ...opts, url: bare.url, next: cycle(listPaths) }));
        runs.listOurs!.push(await load({ ...opts, url: server.url, next: cycle(listPaths) }));
        runs.idBare!.push(await load({ ...opts, url: bare.url, next: cycle(idPaths) }));
        runs.idOurs!.push(await load({ ...opts, url: server.url, next: cycle(idPaths) }));
      }
    } finally {
      await bare.stop();
    }
    const compare = (ours: LoadResult[], bareRuns: LoadResult[]): Comparison => {
      const o = summarize(ours);
      const b = summarize(bareRuns);
      return { ours: o, bare: b, ratio: round(o.requestsPerSecond / b.requestsPerSecond) };
    };
    return {
      products: PRODUCTS,
      connections: CONNECTIONS,
      rounds: ROUNDS,
      secondsPerRun: SECONDS,
      list: compare(runs.listOurs!, runs.listBare!),
      byId: compare(runs.idOurs!, runs.idBare!),
      memoryMiB: {
        server: residentMiB(server.process.pid!),
        postgres: postgresResidentMiB(pgServer.dir),
      },
      targets: { ratio: ">= 0.85", p99Ms: "<= 25" },
    };
  } finally {
    await server.stop();
    await pgServer.stop();
  }
}

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
  printCatalog(await runCatalogBench());
}
