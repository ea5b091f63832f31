import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, onTestFailed, test } from "vitest";
import { isAlive } from "../support/server-process";
import { startCommand } from "../support/start-command";

const root = path.resolve(import.meta.dirname, "../..");
const entry = path.join(root, "dist/server/main.js");

let dataDir: string;
/**
 * The server under test and its PostgreSQL, killed after the tests if still running: a test that
 * failed or timed out (still awaiting, so no `finally` of its own would run) leaves nothing.
 */
let server: ChildProcess | undefined;
let postgresPid = 0;

beforeAll(async () => {
  // `npm test` runs these tests before its build step: compile the server (under a second).
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root, stdio: "ignore" });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-production-start-"));
});
afterAll(async () => {
  // (An orphaned server once blocked on its full stdout pipe for good.)
  if (server && server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
  if (postgresPid && isAlive(postgresPid)) process.kill(postgresPid, "SIGINT");
  await fs.rm(dataDir, { recursive: true, force: true });
});

test("the build holds the compiled server and its migrations", () => {
  expect(existsSync(entry)).toBe(true);
  expect(existsSync(path.join(root, "dist/server/migrations/meta/_journal.json"))).toBe(true);
  const start = JSON.parse(
    execFileSync("npm", ["pkg", "get", "scripts.start"], { cwd: root }).toString(),
  );
  // Plain node on the compiled file (no tsx in between), with its allocator setting and V8 flags,
  // exec'd: the shell npm runs the script in is replaced by node, so the signals npm forwards
  // reach the server.
  expect(start).toMatch(/^([A-Z_]+=\d+ )*exec node( --[a-z-]+=\d+)* dist\/server\/main\.js$/);
});

test("started as `npm start` starts it, SIGTERM drains a request in flight, stops PostgreSQL and exits 0", async () => {
  // As `npm start` runs it: plain node on the compiled file, the README's default set-up.
  const env = { ...process.env };
  delete env.NODE_ENV; // vitest sets "test"
  const t0 = performance.now();
  const start = startCommand();
  const child = spawn(process.execPath, start.args, {
    cwd: root,
    env: {
      ...env,
      ...start.env,
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server = child;
  let output = "";
  // Where the test got to, and what the server printed, when it fails (a timeout included).
  let step = "spawned";
  onTestFailed(() => {
    console.error(`production start failed while ${step}; the server printed:\n${output}`);
  });
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (match) resolve(match);
      };
      child.stdout.on("data", check);
      child.stderr.on("data", check);
      child.once("exit", (code) =>
        reject(new Error(`exited (${code}) before ${pattern}:\n${output}`)),
      );
      check();
    });
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  step = "waiting for 'store listening'";
  const url = (await printed(/store listening on (http:\/\/[^\s"]+)/))[1]!;
  step = "waiting for a 200 from /api/health";
  let health = await fetch(`${url}/api/health`);
  while (health.status !== 200) health = await fetch(`${url}/api/health`);
  const firstOk = Math.round(performance.now() - t0);
  // The demo store, as the README's first command promises.
  const products = await fetch(`${url}/api/products?limit=1`);
  expect(Number(products.headers.get("x-total-count"))).toBeGreaterThanOrEqual(12);

  const postmaster = (await fs.readFile(path.join(dataDir, "postgres/postmaster.pid"), "utf8"))
    .split("\n")
    .map((l) => l.trim());
  postgresPid = Number(postmaster[0]);
  expect(isAlive(postgresPid)).toBe(true);

  // A request held in flight by a lock on the table it reads.
  const password = (await fs.readFile(path.join(dataDir, "postgres-password"), "utf8")).trim();
  const locker = new pg.Client({
    connectionString: `postgres://postgres:${password}@127.0.0.1:${postmaster[3]}/postgres`,
  });
  await locker.connect();
  step = "waiting for the request to wait on the lock";
  let inFlight: Promise<Response>;
  try {
    await locker.query("begin");
    await locker.query("lock table reviews in access exclusive mode");
    inFlight = fetch(`${url}/api/reviews?limit=3`);
    let answered = false;
    void inFlight.then(
      () => (answered = true),
      () => (answered = true),
    );
    for (;;) {
      // Answered without waiting (an error, say): fail now, not at the test's timeout.
      if (answered) throw new Error(`answered before waiting: ${(await inFlight).status}`);
      // (pg_locks, not pg_stat_activity: a query waiting in its parse step is still shown
      // there as idle, with the text of the query before it.)
      const waiting = await locker.query(
        `select 1 from pg_locks l join pg_class c on c.oid = l.relation
          where c.relname = 'reviews' and not l.granted`,
      );
      if (waiting.rowCount) break;
    }
    step = "waiting for 'SIGTERM received'";
    child.kill("SIGTERM");
    await printed(/SIGTERM received: shutting down/);
    await locker.query("rollback");
  } finally {
    await locker.end();
  }
  step = "waiting for the request in flight to be answered";
  const answer = await inFlight;
  step = "waiting for the server to exit";
  expect(answer.status).toBe(200);
  expect(await exited).toBe(0);
  expect(isAlive(postgresPid)).toBe(false);
  expect(existsSync(path.join(dataDir, "postgres/postmaster.pid"))).toBe(false);
  console.log(
    `production start: first 200 from /api/health ${firstOk} ms after spawn (first start, ` +
      `cluster created); SIGTERM: the request in flight answered 200, exit 0, PostgreSQL stopped`,
  );
}, 120_000);

test("SIGTERM to the `npm start` process stops the server it started: nothing is left serving", async () => {
  // Fault injection of 75cca6d, row 3: npm and its shell exited and node, re-parented, kept
  // serving. A container's `CMD ["npm", "start"]` or systemd's KillMode=process signal only npm.
  const env = { ...process.env };
  delete env.NODE_ENV;
  const npm = spawn("npm", ["start"], {
    cwd: root,
    env: { ...env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server = npm;
  let output = "";
  const listening = new Promise<string>((resolve, reject) => {
    const check = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /store listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    npm.stdout.on("data", check);
    npm.stderr.on("data", check);
    npm.once("exit", (code) => reject(new Error(`exited (${code}) before listening:\n${output}`)));
  });
  const url = await listening;
  expect((await fetch(`${url}/api/health`)).status).toBe(200);
  const postmaster = await fs.readFile(path.join(dataDir, "postgres/postmaster.pid"), "utf8");
  postgresPid = Number(postmaster.split("\n")[0]);
  // PostgreSQL's parent is the server npm's script started, with the script's allocator setting.
  const stat = await fs.readFile(`/proc/${postgresPid}/stat`, "utf8");
  const serverPid = Number(stat.slice(stat.lastIndexOf(") ") + 2).split(" ")[1]);
  const environ = (await fs.readFile(`/proc/${serverPid}/environ`, "utf8")).split("\0");
  expect(environ).toContain("MALLOC_ARENA_MAX=2");

  const exited = new Promise<number | null>((resolve) => npm.once("exit", resolve));
  npm.kill("SIGTERM");
  // npm's child is the server itself (the script execs node): the signal reached it, it drained
  // and stopped PostgreSQL before npm could exit.
  expect(await exited).toBe(0);
  expect(output).toContain("SIGTERM received: shutting down");
  await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  expect(isAlive(postgresPid)).toBe(false);
}, 120_000);
