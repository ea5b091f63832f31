// Outgoing webhooks (issue 51, docs/webhooks.md): events recorded at a steady 200 a second, each
// in a transaction of its own through `recordWebhookEvent` (as the store's modules do), posted by
// the store's sender to a receiver on loopback; the time from each commit to its receipt.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { recordWebhookEvent } from "../src/server/webhooks/outbox";
import { newWebhookSecret } from "../src/server/webhooks/signing";
import { percentile, round, startBenchPostgres, startStore, withClient } from "./lib/harness";

const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Receipts waited for after the last event, at most. */
const DRAIN_MS = 30_000;

export interface WebhooksResult {
  rate: number;
  seconds: number;
  events: number;
  received: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  targets: string;
}

export async function runWebhooksBench(): Promise<WebhooksResult> {
  const committedAt = new Map<number, number>();
  const latencies: number[] = [];
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      const at = performance.now();
      const seq = (JSON.parse(body) as { data: { seq: number } }).data.seq;
      const committed = committedAt.get(seq);
      if (committed !== undefined) latencies.push(at - committed);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const { port } = receiver.address() as AddressInfo;
  const pgServer = await startBenchPostgres();
  try {
    const url = await pgServer.createDatabase("webhooks");
    const store = await startStore(url, {
      SEED_DEMO_DATA: "false",
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true",
    });
    const pool = new pg.Pool({ connectionString: url, max: 8 });
    try {
      await withClient(url, (c) =>
        c.query(`insert into webhook_endpoints (url, event_types, secret) values ($1, $2, $3)`, [
          `http://127.0.0.1:${port}/bench`,
          ["product.updated"],
          newWebhookSecret(),
        ]),
      );
      const db = drizzle(pool);
      const total = Math.round(RATE * SECONDS);
      const started = performance.now();
      const inFlight = new Set<Promise<void>>();
      for (let seq = 0; seq < total; seq++) {
        // Each event at its time on the schedule (a steady rate, not as fast as possible).
        const due = started + (seq * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const one = db
          .transaction((tx) => recordWebhookEvent(tx, { type: "product.updated", data: { seq } }))
          .then(() => {
            committedAt.set(seq, performance.now());
          });
        inFlight.add(one);
        void one.finally(() => inFlight.delete(one));
      }
      await Promise.all(inFlight);
      const deadline = Date.now() + DRAIN_MS;
      while (latencies.length < total && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      return {
        rate: RATE,
        seconds: SECONDS,
        events: total,
        received: latencies.length,
        p50Ms: round(percentile(latencies, 0.5)),
        p99Ms: round(percentile(latencies, 0.99)),
        maxMs: round(Math.max(...latencies)),
        targets: "webhook delivery p99 <= 2 s after commit at 200 events/s to a local receiver",
      };
    } finally {
      await pool.end();
      await store.stop();
    }
  } finally {
    await pgServer.stop();
    await new Promise<void>((r) => receiver.close(() => r()));
  }
}

export function printWebhooks(r: WebhooksResult) {
  console.log(
    `Webhooks: ${r.events} events at ${r.rate}/s for ${r.seconds} s, one endpoint on loopback`,
  );
  console.log(`  received ${r.received} of ${r.events}`);
  console.log(`  commit → receipt: p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, slowest ${r.maxMs} ms`);
  console.log(`  targets: ${r.targets}`);
}
