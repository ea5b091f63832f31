// Catalog reads: our production server against a bare node:http server answering the identical
// bytes from memory, side by side, on 10,000 products.
import {
  cpuSeconds,
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
/** Headers Node's http server writes for each answer itself (the bare server too). */
const CONNECTION_HEADERS = new Set(["date", "connection", "keep-alive", "content-length"]);

interface Summary {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /**
   * CPU per answer in microseconds (medians of the rounds): the server's, and the load
   * generator's (this process) while it asked that server. Steadier than the rates on a shared
   * machine, and it tells which side a rate was limited by.
   */
  serverCpuUs: number;
  clientCpuUs: number;
}
/** One load run with the CPU the server (by pid) and this process used during it. */
interface Run extends LoadResult {
  serverCpuUs: number;
  clientCpuUs: number;
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

async function measured(pid: number, run: () => Promise<LoadResult>): Promise<Run> {
  const server = cpuSeconds(pid);
  const client = process.cpuUsage();
  const result = await run();
  const clientUs = process.cpuUsage(client);
  const perAnswer = (us: number) => round(us / Math.max(1, result.requests), 1);
  return {
    ...result,
    serverCpuUs: perAnswer((cpuSeconds(pid) - server) * 1e6),
    clientCpuUs: perAnswer(clientUs.user + clientUs.system),
  };
}

const summarize = (runs: Run[]): Summary => ({
  requestsPerSecond: round(median(runs.map((r) => r.requestsPerSecond)), 0),
  p50Ms: median(runs.map((r) => r.p50)),
  p99Ms: median(runs.map((r) => r.p99)),
  non2xx: runs.reduce(
    (n, r) =>
      n + Object.entries(r.statuses).reduce((m, [s, c]) => m + (s.startsWith("2") ? 0 : c), 0),
    0,
  ),
  serverCpuUs: median(runs.map((r) => r.serverCpuUs)),
  clientCpuUs: median(runs.map((r) => r.clientCpuUs)),
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
        // Every header ours sent, so the load generator reads the same bytes from both; Node
        // writes the connection's own (date, keep-alive, length) for each.
        const headers: Record<string, string> = {};
        for (const [h, v] of res.headers) if (!CONNECTION_HEADERS.has(h)) headers[h] = v;
        responses[p] = { headers, body };
      }
    }
    const bare = await startBareServer(responses);

    const cycle = (paths: string[]) => {
      let i = 0;
      return () => ({ path: paths[i++ % paths.length]! });
    };
    const runs = {
      listBare: [] as Run[],
      idBare: [] as Run[],
      listOurs: stores.map(() => [] as Run[]),
      idOurs: stores.map(() => [] as Run[]),
    };
    try {
      for (let r = 0; r < ROUNDS; r++) {
        const opts = { connections: CONNECTIONS, duration: SECONDS };
        const ask = (server: { url: string; pid: number }, paths: string[]) =>
          measured(server.pid, () => load({ ...opts, url: server.url, next: cycle(paths) }));
        const store = (k: number) => ({
          url: stores[k]!.server.url,
          pid: stores[k]!.server.process.pid!,
        });
        runs.listBare.push(await ask(bare, listPaths));
        for (const k of inTurn(stores.length, r))
          runs.listOurs[k]!.push(await ask(store(k), listPaths));
        runs.idBare.push(await ask(bare, idPaths[0]!));
        for (const k of inTurn(stores.length, r))
          runs.idOurs[k]!.push(await ask(store(k), idPaths[k]!));
      }
    } finally {
      await bare.stop();
    }
    const compare = (ours: Run[], bareRuns: Run[]): Comparison => {
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
  { name: "list CPU µs", value: r.list.ours.serverCpuUs, better: "lower" },
  { name: "by id CPU µs", value: r.byId.ours.serverCpuUs, better: "lower" },
];

export const catalogBaseline = (r: CatalogResult) => [
  { name: "bare list req/s", value: r.list.bare.requestsPerSecond },
  { name: "bare by id req/s", value: r.byId.bare.requestsPerSecond },
];

export function printCatalog(r: CatalogResult) {
  const row = (name: string, c: Comparison) =>
    `${name.padEnd(22)} ours ${String(c.ours.requestsPerSecond).padStart(6)} req/s ` +
    `p50 ${c.ours.p50Ms} ms p99 ${c.ours.p99Ms} ms | bare ${String(c.bare.requestsPerSecond).padStart(6)} req/s ` +
    `p99 ${c.bare.p99Ms} ms | ours/bare ${c.ratio} | CPU per answer: ours ${c.ours.serverCpuUs} µs, ` +
    `bare ${c.bare.serverCpuUs} µs, load generator ${c.ours.clientCpuUs} / ${c.bare.clientCpuUs} µs`;
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
