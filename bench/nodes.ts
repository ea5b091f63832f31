// Several nodes (issue 55): orders placed per second through nginx to two store nodes, ÷ the same
// orders sent straight to one node, in the same run on the same PostgreSQL, in alternating
// rounds. nginx is Debian's, configured by the recipe's template (deploy/nginx/, as
// tests/system/several-nodes.test.ts runs it). The question: does the coordination the nodes
// share through PostgreSQL (sessions, caches, the job queue, the placement's locks) cost
// throughput? On one 2-core machine the second node adds no cores, so the ratio shows what nginx
// and a second process cost, not what a second machine would add.
import { readFileSync } from "node:fs";
import { startNodesNginx, type Nginx } from "../tests/support/nginx";
import {
  cpuSeconds,
  postgresCpuSeconds,
  freeDeliveryFor,
  inTurn,
  insertOrderableProducts,
  load,
  median,
  round,
  signUpCustomers,
  startBenchPostgres,
  startStore,
} from "./lib/harness";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
const CUSTOMERS = 100;
/** Products per run: each (customer, product) pair is ordered once, and a run never runs out. */
const PRODUCTS = 200;

interface Run {
  ordersPerSecond: number;
  /**
   * CPU per order placed, ms: both nodes, nginx (master and workers) and PostgreSQL, all read
   * from /proc. Steadier than the rate on a shared machine: others' load slows the rate, not this.
   */
  cpuMsPerOrder: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

export interface NodesResult {
  rounds: { direct: Run; nginx: Run; ratio: number; cpuRatio: number }[];
  medianDirect: number;
  medianNginx: number;
  /** The median of the rounds' ratios (two nodes behind nginx ÷ one node direct). */
  medianRatio: number;
  /** The median of the rounds' CPU per order, nginx and two nodes ÷ one node direct. */
  medianCpuRatio: number;
  target: string;
}

export async function runNodesBench(): Promise<NodesResult> {
  const pg = await startBenchPostgres();
  const stores: Awaited<ReturnType<typeof startStore>>[] = [];
  let nginx: Nginx | undefined;
  try {
    const url = await pg.createDatabase("nodes");
    const env = { SEED_DEMO_DATA: "false", ORDERS_PER_MINUTE: "10000", TRUST_PROXY: "127.0.0.1" };
    // One after the other: the first migrates the database.
    stores.push(await startStore(url, env));
    stores.push(await startStore(url, env));
    nginx = await startNodesNginx(stores.map((s) => new URL(s.url).host));
    const customers = await signUpCustomers(stores[0]!.url, CUSTOMERS, "nodes");
    await freeDeliveryFor(url, "nodes");

    const nginxPid = nginx.process.pid!;
    const cpuNow = () => {
      let workers: number[] = [];
      try {
        workers = readFileSync(`/proc/${nginxPid}/task/${nginxPid}/children`, "utf8")
          .split(" ")
          .map(Number)
          .filter((pid) => pid > 0);
      } catch {
        // nginx has exited: the run fails on its own.
      }
      return (
        stores.reduce((sum, s) => sum + cpuSeconds(s.process.pid!), 0) +
        workers.reduce((sum, pid) => sum + cpuSeconds(pid), cpuSeconds(nginxPid)) +
        postgresCpuSeconds(pg.dir)
      );
    };
    const run = async (base: string, tag: string): Promise<Run> => {
      const productIds = await insertOrderableProducts(url, {
        n: PRODUCTS,
        stock: 1_000_000,
        prefix: tag,
      });
      let k = 0;
      const cpuBefore = cpuNow();
      const result = await load({
        url: base,
        connections: CONNECTIONS,
        duration: SECONDS,
        next: () => {
          // The next customer to the next product; a pair never twice within a run.
          const i = k++;
          const customer = customers[i % CUSTOMERS]!;
          const productId = productIds[Math.floor(i / CUSTOMERS) % PRODUCTS]!;
          return {
            path: "/api/orders",
            method: "POST",
            headers: { "content-type": "application/json", cookie: customer.cookie },
            body: JSON.stringify({
              productId,
              orderQty: 1,
              phonrNo: "5550100",
              Address: "1 Bench Road",
            }),
          };
        },
      });
      const placed = result.statuses["201"] ?? 0;
      return {
        ordersPerSecond: round(placed / result.durationSeconds, 1),
        cpuMsPerOrder: round(((cpuNow() - cpuBefore) * 1000) / Math.max(1, placed)),
        p50: result.p50,
        p99: result.p99,
        statuses: result.statuses,
      };
    };

    const rounds: NodesResult["rounds"] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating which goes first, so neither always has the warmer or quieter spell.
      const measured: Partial<Record<"direct" | "nginx", Run>> = {};
      for (const which of inTurn(2, r)) {
        if (which === 0) measured.direct = await run(stores[0]!.url, `NODES-D${r}`);
        else measured.nginx = await run(nginx.url, `NODES-N${r}`);
      }
      const { direct, nginx: proxied } = measured as Record<"direct" | "nginx", Run>;
      rounds.push({
        direct,
        nginx: proxied,
        ratio: round(proxied.ordersPerSecond / direct.ordersPerSecond),
        cpuRatio: round(proxied.cpuMsPerOrder / direct.cpuMsPerOrder),
      });
    }
    return {
      rounds,
      medianDirect: round(median(rounds.map((r) => r.direct.ordersPerSecond)), 1),
      medianNginx: round(median(rounds.map((r) => r.nginx.ordersPerSecond)), 1),
      medianRatio: round(median(rounds.map((r) => r.ratio))),
      medianCpuRatio: round(median(rounds.map((r) => r.cpuRatio))),
      target: "two nodes behind nginx ÷ one node direct ≥ 0.9 (orders/s, issue 55)",
    };
  } finally {
    await nginx?.stop();
    for (const s of stores) await s.stop();
    await pg.stop();
  }
}

export function printNodes(r: NodesResult) {
  console.log(
    `Orders (POST /api/orders, ${CUSTOMERS} customers × ${PRODUCTS} products, ${CONNECTIONS} ` +
      `connections, ${SECONDS} s a run): two nodes behind nginx vs one node direct, same PostgreSQL`,
  );
  r.rounds.forEach((x, i) =>
    console.log(
      `  round ${i + 1}: direct ${x.direct.ordersPerSecond}/s (p50 ${x.direct.p50} ms, p99 ` +
        `${x.direct.p99} ms, ${x.direct.cpuMsPerOrder} ms CPU/order), nginx → 2 nodes ` +
        `${x.nginx.ordersPerSecond}/s (p50 ${x.nginx.p50} ms, p99 ${x.nginx.p99} ms, ` +
        `${x.nginx.cpuMsPerOrder} ms CPU/order): ratio ${x.ratio}, CPU/order ratio ${x.cpuRatio}; ` +
        `statuses ${JSON.stringify(x.direct.statuses)} / ${JSON.stringify(x.nginx.statuses)}`,
    ),
  );
  console.log(
    `  median: direct ${r.medianDirect}/s, nginx → 2 nodes ${r.medianNginx}/s; median ratio ` +
      `${r.medianRatio}, CPU per order ratio ${r.medianCpuRatio} (target: ${r.target})`,
  );
}
