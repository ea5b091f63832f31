// Quick order: resolving 100 pasted lines on a 100,000-product catalog (issue 23).
import { load, round, seedProducts, startBenchPostgres, startStore } from "./lib/harness";
import { seedCrossReferences } from "./scale";

const PRODUCTS = 100_000;
const LINES = 100;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

interface Point {
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  non2xx: number;
}
export interface QuickOrderBenchResult {
  products: number;
  lines: number;
  /** Every line a known number: ours (lower case), OE with dashes, a competitor's with spaces. */
  known: { alone: Point; twenty: Point };
  /** The same with 5 unknown numbers among them (each asks for "did you mean"). */
  withUnknown: { alone: Point; twenty: Point };
  target: string;
}

/** A request body of 100 pasted lines, a different mix each call. */
function bodies(unknown: number) {
  let call = 0;
  return () => {
    const c = call++;
    const lines = Array.from({ length: LINES }, (_, k) => {
      const i = 1 + ((c * 7919 + k * 104_729) % PRODUCTS);
      if (k < unknown) return `ZZ-${c}-${k}-404 1`;
      return [`bn-${i} 2`, `04465-${String(i).padStart(6, "0")};3`, `0 986 ${i}\t1`][k % 3]!;
    });
    return JSON.stringify({ text: lines.join("\n") });
  };
}

async function measure(url: string, unknown: number) {
  const next = bodies(unknown);
  const request = () => ({
    path: "/api/quick-order/resolve",
    method: "POST",
    body: next(),
    headers: { "content-type": "application/json" },
  });
  const point = (r: Awaited<ReturnType<typeof load>>): Point => ({
    p50Ms: r.p50,
    p99Ms: r.p99,
    requestsPerSecond: round(r.requestsPerSecond, 0),
    non2xx: Object.entries(r.statuses)
      .filter(([s]) => !s.startsWith("2"))
      .reduce((n, [, k]) => n + k, 0),
  });
  await load({ url, connections: 4, amount: 400, next: request });
  const alone = point(await load({ url, connections: 1, duration: SECONDS, next: request }));
  const twenty = point(await load({ url, connections: 20, duration: SECONDS, next: request }));
  return { alone, twenty };
}

export async function runQuickOrderBench(): Promise<QuickOrderBenchResult> {
  const pgServer = await startBenchPostgres();
  try {
    const url = await pgServer.createDatabase("quick_order");
    const store = await startStore(url, { SEED_DEMO_DATA: "false" });
    try {
      await seedProducts(url, PRODUCTS);
      await seedCrossReferences(url);
      const known = await measure(store.url, 0);
      const withUnknown = await measure(store.url, 5);
      return {
        products: PRODUCTS,
        lines: LINES,
        known,
        withUnknown,
        target: "p50 <= 30 ms, p99 <= 80 ms at 1 connection; p50 <= 100 ms at 20 connections",
      };
    } finally {
      await store.stop();
    }
  } finally {
    await pgServer.stop();
  }
}

export function printQuickOrder(r: QuickOrderBenchResult) {
  console.log(
    `Quick order: ${r.lines} lines resolved on ${r.products.toLocaleString("en-US")} products`,
  );
  const line = (name: string, p: { alone: Point; twenty: Point }) =>
    console.log(
      `  ${name.padEnd(16)} 1 connection: p50 ${p.alone.p50Ms} ms, p99 ${p.alone.p99Ms} ms (${p.alone.requestsPerSecond}/s); ` +
        `20 connections: p50 ${p.twenty.p50Ms} ms, p99 ${p.twenty.p99Ms} ms (${p.twenty.requestsPerSecond}/s)` +
        (p.alone.non2xx + p.twenty.non2xx > 0
          ? `; ${p.alone.non2xx + p.twenty.non2xx} not 2xx`
          : ""),
    );
  line("all known", r.known);
  line("5 unknown", r.withUnknown);
  console.log(`  target: ${r.target}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printQuickOrder(await runQuickOrderBench());
}
