// Idempotent writes (issue 51, docs/idempotency.md): how long the store takes to answer an order
// placement sent again with the same Idempotency-Key (the first answer, repeated from the
// database), beside a placement without a key and one with a fresh key, in turns on one
// connection.
import { randomUUID } from "node:crypto";
import {
  freeDeliveryFor,
  insertOrderableProducts,
  percentile,
  round,
  signUpCustomers,
  startBenchPostgres,
  startStore,
} from "./lib/harness";

/** Requests timed of each kind, one after another on one connection. */
const REQUESTS = 400;
const WARM = 50;

export interface IdempotencyResult {
  /** A placement without a key. */
  plain: { p50Ms: number; p99Ms: number };
  /** A placement with a new key each time: the claim and the stored answer on top. */
  freshKey: { p50Ms: number; p99Ms: number };
  /** The same placement sent again with its key: the stored answer repeated. */
  replay: { p50Ms: number; p99Ms: number };
  /**
   * An empty request (`GET /health/live`) in the same turns: the client's and the loopback's
   * share of each figure, so the replay's server time is about `replay - roundTrip`.
   */
  roundTrip: { p50Ms: number; p99Ms: number };
  targets: string;
}

export async function runIdempotencyBench(): Promise<IdempotencyResult> {
  const pg = await startBenchPostgres();
  try {
    const url = await pg.createDatabase("idempotency");
    const store = await startStore(url, { SEED_DEMO_DATA: "false", ORDERS_PER_MINUTE: "10000" });
    try {
      // A customer orders a product once (its orders page shows one line each): a product each.
      const productIds = await insertOrderableProducts(url, {
        n: 2 * REQUESTS + WARM + 1,
        stock: 1000,
        prefix: "IDEM",
      });
      let next = 0;
      const [customer] = await signUpCustomers(store.url, 1, "idem");
      await freeDeliveryFor(url, "idem");
      const bodyFor = (productId: string) =>
        JSON.stringify({ productId, orderQty: 1, phonrNo: "5550100", Address: "1 Bench Road" });
      const place = async (key?: string, body = bodyFor(productIds[next++]!)) => {
        const started = performance.now();
        const res = await fetch(`${store.url}/api/orders`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            cookie: customer!.cookie,
            ...(key && { "idempotency-key": key }),
          },
          body,
        });
        const text = await res.text();
        if (res.status !== 201) throw new Error(`placement answered ${res.status}: ${text}`);
        return {
          ms: performance.now() - started,
          replayed: res.headers.get("idempotent-replayed"),
        };
      };
      const figures = (times: number[]) => ({
        p50Ms: round(percentile(times, 0.5)),
        p99Ms: round(percentile(times, 0.99)),
      });
      // Warm: the server's statements prepared, its code optimised.
      for (let i = 0; i < WARM; i++) await place(i % 2 ? randomUUID() : undefined);
      const key = randomUUID();
      const first = bodyFor(productIds[next++]!);
      await place(key, first);
      // In turns: a customer's placements cost more as their orders grow.
      const times = {
        plain: [] as number[],
        freshKey: [] as number[],
        replay: [] as number[],
        roundTrip: [] as number[],
      };
      for (let i = 0; i < REQUESTS; i++) {
        times.plain.push((await place()).ms);
        times.freshKey.push((await place(randomUUID())).ms);
        const again = await place(key, first);
        if (again.replayed !== "true") throw new Error("the placement ran again, not replayed");
        times.replay.push(again.ms);
        const started = performance.now();
        await (await fetch(`${store.url}/health/live`)).arrayBuffer();
        times.roundTrip.push(performance.now() - started);
      }
      const plain = figures(times.plain);
      const freshKey = figures(times.freshKey);
      const replay = figures(times.replay);
      return {
        plain,
        freshKey,
        replay,
        roundTrip: figures(times.roundTrip),
        targets: "an idempotent replay answered in <= 2 ms (server time)",
      };
    } finally {
      await store.stop();
    }
  } finally {
    await pg.stop();
  }
}

export function printIdempotency(r: IdempotencyResult) {
  console.log(`Order placements, ${REQUESTS} of each, one after another (1 connection, loopback)`);
  console.log(`  without a key: p50 ${r.plain.p50Ms} ms, p99 ${r.plain.p99Ms} ms`);
  console.log(`  with a new key: p50 ${r.freshKey.p50Ms} ms, p99 ${r.freshKey.p99Ms} ms`);
  console.log(
    `  the same key again (replayed): p50 ${r.replay.p50Ms} ms, p99 ${r.replay.p99Ms} ms`,
  );
  console.log(
    `  an empty request (GET /health/live): p50 ${r.roundTrip.p50Ms} ms; the replay's server ` +
      `time about ${round(r.replay.p50Ms - r.roundTrip.p50Ms)} ms`,
  );
  console.log(`  targets: ${r.targets}`);
}
