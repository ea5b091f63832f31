import http from "node:http";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { isAlive, startServerProcess, type ServerProcess } from "../support/server-process";

// Fault injection of 75cca6d, row 2 (and issue 24): under load, SIGTERM reset requests already
// sent on kept-alive connections (ECONNRESET) instead of answering or refusing them cleanly.

let dataDir: string;
let server: ServerProcess | undefined;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-graceful-drain-"));
});
afterAll(async () => {
  await server?.stop("SIGKILL");
  await fs.rm(dataDir, { recursive: true, force: true });
});

type Outcome = { status: number; connection: string | undefined } | { error: string };

function get(agent: http.Agent, url: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.once("end", () =>
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }),
      );
    });
    req.once("error", (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });
}

test("SIGTERM under load: every request is answered or refused at connect, none is reset", async () => {
  server = await startServerProcess({ DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_SECONDS: "10" });
  const url = `${server.url}/api/products?limit=1`;
  const ready = `${server.url}/api/health/ready`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  // A load balancer asks for readiness all along, on a connection of its own that is never idle
  // long enough to be closed by the drain, so it sees the answer change.
  const balancer = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const exited = new Promise<number | null>((resolve) => server!.process.once("exit", resolve));
  const outcomes: { afterSignal: boolean; health: boolean; outcome: Outcome }[] = [];
  let signalled = false;
  let answered = 0;
  const loop = async (_: unknown, n: number) => {
    for (;;) {
      const afterSignal = signalled;
      const health = n === 16;
      const outcome = await get(health ? balancer : agent, health ? ready : url);
      outcomes.push({ afterSignal, health, outcome });
      // Refused at connect: the server no longer listens, and a client knows nothing was sent.
      if ("error" in outcome) return;
      if (!health && ++answered === 400) {
        signalled = true;
        server!.process.kill("SIGTERM");
      }
    }
  };
  await Promise.all(Array.from({ length: 17 }, loop));
  expect(await exited).toBe(0);
  agent.destroy();
  balancer.destroy();

  const errors = outcomes.flatMap(({ outcome }) => ("error" in outcome ? [outcome.error] : []));
  expect(new Set(errors)).toEqual(new Set(["ECONNREFUSED"]));
  const drained = outcomes
    .filter(({ afterSignal, health }) => afterSignal && !health)
    .map(({ outcome }) => outcome);
  // Requests sent after the signal were answered (200 while draining, with Connection: close).
  expect(drained.some((o) => "status" in o && o.status === 200 && o.connection === "close")).toBe(
    true,
  );
  // Readiness said the store is going, so that a load balancer sends new work elsewhere.
  const readiness = outcomes.filter((o) => o.health).map(({ outcome }) => outcome);
  expect(readiness.some((o) => "status" in o && o.status === 200)).toBe(true);
  expect(readiness.some((o) => "status" in o && o.status === 503)).toBe(true);
  expect(server.output()).toMatch(/draining \d+ open connections/);
}, 120_000);

/** A client of the embedded PostgreSQL as its superuser, from the data folder. */
async function superuser(): Promise<{ client: pg.Client; postgresPid: number }> {
  const postmaster = (await fs.readFile(path.join(dataDir, "postgres/postmaster.pid"), "utf8"))
    .split("\n")
    .map((l) => l.trim());
  const password = (await fs.readFile(path.join(dataDir, "postgres-password"), "utf8")).trim();
  const client = new pg.Client({
    connectionString: `postgres://postgres:${password}@127.0.0.1:${postmaster[3]}/postgres`,
  });
  client.on("error", () => {}); // PostgreSQL stops under it
  await client.connect();
  return { client, postgresPid: Number(postmaster[0]) };
}

test("a statement that waits on a lock does not hold the shutdown: exit 0 in seconds, PostgreSQL stopped", async () => {
  await server?.stop("SIGKILL");
  server = await startServerProcess({
    DATA_DIR: dataDir,
    SHUTDOWN_TIMEOUT_SECONDS: "1",
    DB_STATEMENT_TIMEOUT_SECONDS: "60",
    REQUEST_TIMEOUT_SECONDS: "60",
  });
  const { client: locker, postgresPid } = await superuser();
  try {
    await locker.query("begin");
    await locker.query("lock table reviews in access exclusive mode");
    const inFlight = fetch(`${server.url}/api/reviews?limit=3`).catch(() => undefined);
    for (;;) {
      const waiting = await locker.query(
        `select 1 from pg_locks l join pg_class c on c.oid = l.relation
          where c.relname = 'reviews' and not l.granted`,
      );
      if (waiting.rowCount) break;
    }
    const exited = new Promise<number | null>((resolve) => server!.process.once("exit", resolve));
    const signalledAt = performance.now();
    server.process.kill("SIGTERM");
    const code = await exited;
    const took = performance.now() - signalledAt;
    await inFlight;
    // The statement would have waited 60 s; the drain gives it 1 s, closing the pool 2 s more.
    expect(code).toBe(0);
    expect(took).toBeLessThan(6_000);
    expect(isAlive(postgresPid)).toBe(false);
  } finally {
    await locker.end().catch(() => undefined);
  }
}, 120_000);

test("a shutdown that hangs anyway ends within SHUTDOWN_TIMEOUT_SECONDS + 5 s", async () => {
  await server?.stop("SIGKILL");
  server = await startServerProcess({ DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_SECONDS: "1" });
  const { client, postgresPid } = await superuser();
  await client.end();
  // A PostgreSQL that answers nothing, not even the request to stop.
  process.kill(postgresPid, "SIGSTOP");
  try {
    const exited = new Promise<number | null>((resolve) => server!.process.once("exit", resolve));
    const signalledAt = performance.now();
    server.process.kill("SIGTERM");
    const code = await exited;
    expect(performance.now() - signalledAt).toBeLessThan(9_000);
    expect(code).toBe(1);
    expect(server.output()).toContain("still stopping 6000 ms after SIGTERM: exiting");
  } finally {
    process.kill(postgresPid, "SIGCONT");
    process.kill(postgresPid, "SIGINT");
    while (isAlive(postgresPid)) await new Promise((r) => setImmediate(r));
  }
}, 120_000);
