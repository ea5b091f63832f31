// A read replica (issue 55): catalog reads (`GET /api/products?limit=24&offset=K`, 100 pages, and
// `GET /api/products/{id}`, 100 ids, in turn) answered from a streaming replica ÷ the same reads
// answered from the primary, in the same run, in alternating rounds. Two store nodes run side by
// side on Debian's PostgreSQL 15 primary: one with DATABASE_READ_URL (a `pg_basebackup -R`
// replica, as tests/system/read-replica.test.ts starts it), one without. The read cache keeps no
// answers (CATALOG_CACHE=false): every read is a query, which is what a replica takes over. Also
// reports CPU per read of the store and of each PostgreSQL, read from /proc: the capacity model's
// page-read figures (docs/operations.md "Capacity").
import { startPrimaryAndReplica } from "../tests/support/replica";
import {
  cpuSeconds,
  inTurn,
  load,
  median,
  postgresCpuSeconds,
  round,
  seedProducts,
  startStore,
  withClient,
} from "./lib/harness";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
const PRODUCTS = 10_000;

interface Run {
  readsPerSecond: number;
  p50: number;
  p99: number;
  /** CPU per read, ms: the store node, the primary and the replica. */
  cpuMs: { store: number; primary: number; replica: number };
  statuses: Record<string, number>;
}

export interface ReplicaResult {
  rounds: { primary: Run; replica: Run; ratio: number }[];
  medianPrimary: number;
  medianReplica: number;
  /** The median of the rounds' ratios (reads from the replica ÷ from the primary). */
  medianRatio: number;
  target: string;
}

export async function runReplicaBench(): Promise<ReplicaResult> {
  const servers = await startPrimaryAndReplica();
  const stores: Awaited<ReturnType<typeof startStore>>[] = [];
  try {
    const env = { SEED_DEMO_DATA: "false", CATALOG_CACHE: "false" };
    // One after the other: the first migrates the database.
    const onReplica = await startStore(servers.primaryUrl, {
      ...env,
      DATABASE_READ_URL: servers.replicaUrl,
    });
    stores.push(onReplica);
    const onPrimary = await startStore(servers.primaryUrl, env);
    stores.push(onPrimary);
    await seedProducts(servers.primaryUrl, PRODUCTS);
    // The replica has the products (and the primary's position) before anything is measured.
    for (;;) {
      const [row] = await servers.onReplica<{ n: string }>("select count(*) as n from products");
      if (Number(row!.n) >= PRODUCTS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const ids = await withClient(servers.primaryUrl, async (c) =>
      (await c.query<{ id: string }>("select id from products order by id limit 100")).rows.map(
        (r) => r.id,
      ),
    );

    const cpu = (pid: number) => ({
      store: cpuSeconds(pid),
      primary: postgresCpuSeconds(servers.dataDirs.primary),
      replica: postgresCpuSeconds(servers.dataDirs.replica),
    });
    const run = async (store: (typeof stores)[number], seconds = SECONDS): Promise<Run> => {
      let k = 0;
      const before = cpu(store.process.pid!);
      const result = await load({
        url: store.url,
        connections: CONNECTIONS,
        duration: seconds,
        next: () => {
          const i = k++;
          return {
            path:
              i % 2 === 0
                ? `/api/products?limit=24&offset=${((i / 2) % 100) * 24}`
                : `/api/products/${ids[((i - 1) / 2) % ids.length]}`,
          };
        },
      });
      const after = cpu(store.process.pid!);
      const ok = Math.max(1, result.statuses["200"] ?? 0);
      const per = (k: keyof typeof after) => round(((after[k] - before[k]) * 1000) / ok, 3);
      return {
        readsPerSecond: round(ok / result.durationSeconds, 1),
        p50: result.p50,
        p99: result.p99,
        cpuMs: { store: per("store"), primary: per("primary"), replica: per("replica") },
        statuses: result.statuses,
      };
    };
    // Warm both (plans, connections, the replica's cache) before the rounds.
    await run(onReplica, 2);
    await run(onPrimary, 2);

    const rounds: ReplicaResult["rounds"] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const measured: Partial<Record<"primary" | "replica", Run>> = {};
      for (const which of inTurn(2, r)) {
        if (which === 0) measured.primary = await run(onPrimary);
        else measured.replica = await run(onReplica);
      }
      const { primary, replica } = measured as Record<"primary" | "replica", Run>;
      rounds.push({
        primary,
        replica,
        ratio: round(replica.readsPerSecond / primary.readsPerSecond),
      });
    }
    return {
      rounds,
      medianPrimary: round(median(rounds.map((r) => r.primary.readsPerSecond)), 1),
      medianReplica: round(median(rounds.map((r) => r.replica.readsPerSecond)), 1),
      medianRatio: round(median(rounds.map((r) => r.ratio))),
      target: "catalog reads from the replica ÷ from the primary ≥ 0.9 (issue 55)",
    };
  } finally {
    for (const s of stores) await s.stop();
    await servers.stop();
  }
}

export function printReplica(r: ReplicaResult) {
  console.log(
    `Catalog reads (list pages and products in turn, ${PRODUCTS} products, ${CONNECTIONS} ` +
      `connections, ${SECONDS} s a run, CATALOG_CACHE=false): a node reading from a streaming ` +
      `replica vs a node reading from the primary (PostgreSQL 15)`,
  );
  const cpu = (x: Run) =>
    `CPU/read store ${x.cpuMs.store} ms, primary ${x.cpuMs.primary} ms, replica ${x.cpuMs.replica} ms`;
  r.rounds.forEach((x, i) =>
    console.log(
      `  round ${i + 1}: primary ${x.primary.readsPerSecond}/s (p50 ${x.primary.p50} ms, p99 ` +
        `${x.primary.p99} ms, ${cpu(x.primary)}), replica ${x.replica.readsPerSecond}/s (p50 ` +
        `${x.replica.p50} ms, p99 ${x.replica.p99} ms, ${cpu(x.replica)}): ratio ${x.ratio}; ` +
        `statuses ${JSON.stringify(x.primary.statuses)} / ${JSON.stringify(x.replica.statuses)}`,
    ),
  );
  console.log(
    `  median: primary ${r.medianPrimary}/s, replica ${r.medianReplica}/s; median ratio ` +
      `${r.medianRatio} (target: ${r.target})`,
  );
}
