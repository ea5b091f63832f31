import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import pg from "pg";
import {
  startEmbeddedPostgres,
  type EmbeddedDatabase,
} from "../../src/server/db/embedded-postgres";
import { cookieHeader } from "../../tests/support/accounts";
import { statementStatsSettings, writeStatementStats } from "./statement-stats";
import { startServerProcess, type ServerProcess } from "../../tests/support/server-process";

export const root = path.resolve(import.meta.dirname, "../..");

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
export const round = (x: number, digits = 2) => Number(x.toFixed(digits));
/** The `p` quantile (0–1) of `xs`: the value at rank ⌊p × n⌋ of the sorted values; NaN when empty. */
export const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
};

/** One embedded PostgreSQL for a benchmark run; each benchmark makes its own database in it. */
export async function startBenchPostgres(): Promise<
  EmbeddedDatabase & { dir: string; createDatabase(name: string): Promise<string> }
> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-bench-pg-"));
  const pgServer = await startEmbeddedPostgres(
    dir,
    { info: () => {}, warn: () => {} },
    { settings: statementStatsSettings() },
  );
  return {
    ...pgServer,
    dir,
    async createDatabase(name: string) {
      await withClient(pgServer.adminUrl, (c) => c.query(`create database ${name}`));
      const url = new URL(pgServer.adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async stop() {
      await writeStatementStats(pgServer.adminUrl);
      await pgServer.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } catch (err) {
    throw onRevisionsSchema(url, err);
  } finally {
    await client.end();
  }
}

/**
 * A build of the store a benchmark starts: the working tree's, or a revision's built beside it
 * (`npm run bench -- --against REV`, lib/revision-build.ts).
 */
export interface StoreBuild {
  /** How the output names it: "working tree", or the revision as asked ("HEAD~3"). */
  label: string;
  /** The checkout whose `dist/server/main.js` runs, as its own `npm start` runs it. */
  dir: string;
  /** A revision's commit; none for the working tree. */
  sha?: string;
}

export const workingTree: StoreBuild = { label: "working tree", dir: root };

export const describeBuild = (build: StoreBuild) =>
  build.sha ? `${build.label} (${build.sha.slice(0, 7)})` : build.label;

/**
 * The indices of `n` builds in turn `i`'s order, each turn starting with the next: runs alternate
 * between the builds (A B, B A, …), so neither always has the first or the warmer spell.
 */
export const inTurn = (n: number, i: number): number[] =>
  Array.from({ length: n }, (_, k) => (i + k) % n);

/** The databases of stores started from a revision's build: their schema is the revision's. */
const revisionDatabases = new Map<string, StoreBuild>();

/** SQL of a benchmark (written for the working tree's schema) that failed on a revision's database. */
export class RevisionSchemaError extends Error {}

/**
 * `err` as is, or, when it came from a revision's database, an error that says so: the
 * benchmarks seed and check with SQL written for the working tree's schema, and a revision's
 * store migrated its database to its own.
 */
export function onRevisionsSchema(databaseUrl: string, err: unknown): unknown {
  const build = revisionDatabases.get(databaseUrl);
  if (!build) return err;
  return new RevisionSchemaError(
    `SQL written for the working tree's schema failed on the database of ${describeBuild(build)}: ${err instanceof Error ? err.message : String(err)}`,
    { cause: err },
  );
}

/**
 * Signs `n` customers up through the API, ten at a time; answers their emails and cookies. A
 * sign-up the store sheds (503 busy, on a loaded machine) is sent again after its Retry-After.
 */
/**
 * Every order goes somewhere the store charges shipping and tax for (docs/ordering.md, "Where it
 * goes"): the store gets a "Bench courier" zone (Oregon, a free flat method, no tax rates) and
 * each customer whose email starts with `prefix-` a default address there, so the spec's
 * one-product order (no address in the body) is charged the lines' sum, as before issue 48.
 */
export async function freeDeliveryFor(url: string, prefix: string): Promise<void> {
  await withClient(url, async (c) => {
    await c.query(`
      with zone as (
        insert into shipping_zones (name, countries, regions)
        select 'Bench courier', '{US}', '{OR}'
         where not exists (select 1 from shipping_zones where name = 'Bench courier')
        returning id)
      insert into shipping_methods (zone_id, name, estimate, kind, price_cents)
      select id, 'Bench courier', '1-2 business days', 'flat', 0 from zone`);
    await c.query(
      `insert into addresses (user_id, name, line1, city, region, postal_code, country, phone,
                              is_default)
       select id, 'Bench Buyer', '1 Bench Road', 'Salem', 'OR', '97301', 'US', '5035550100', true
         from "user" u
        where email like $1
          and not exists (select 1 from addresses a where a.user_id = u.id)`,
      [`${prefix}-%`],
    );
  });
}

export async function signUpCustomers(
  serverUrl: string,
  n: number,
  prefix: string,
): Promise<{ email: string; cookie: string }[]> {
  const customers: { email: string; cookie: string }[] = [];
  for (let i = 0; i < n; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, n - i) }, async (_, j) => {
        const email = `${prefix}-${i + j}@example.com`;
        const signUp = () =>
          fetch(`${serverUrl}/api/auth/sign-up/email`, {
            method: "POST",
            // In production Better Auth wants the Origin a browser would send.
            headers: { "content-type": "application/json", origin: serverUrl },
            body: JSON.stringify({ email, password: "bench-password", name: `Bench ${i + j}` }),
          });
        let res = await signUp();
        for (let attempt = 1; res.status === 503 && attempt < 10; attempt++) {
          await res.arrayBuffer();
          const seconds = Number(res.headers.get("retry-after") ?? 1);
          await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
          res = await signUp();
        }
        if (res.status !== 200)
          throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
        return { email, cookie: cookieHeader(res.headers.getSetCookie()) };
      }),
    );
    customers.push(...batch);
  }
  return customers;
}

/**
 * Builds the server once per benchmark process (dist/server, under two seconds): every
 * benchmark measures what `npm start` runs, the compiled server with its flags and environment.
 */
let serverBuilt = false;
export function buildServerOnce(): void {
  if (serverBuilt) return;
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root, stdio: "ignore" });
  serverBuilt = true;
}

/** The working tree's server is built once per run; a revision's was when it was prepared. */
export function ensureBuilt(build: StoreBuild): void {
  if (!build.sha) buildServerOnce();
}

/**
 * The production server (`npm start`'s entry) as its own process, on the given database: the
 * working tree's unless `build` names a revision's (built when it was prepared).
 */
export async function startStore(
  databaseUrl: string,
  env: Record<string, string> = {},
  build: StoreBuild = workingTree,
) {
  ensureBuilt(build);
  if (build.sha) revisionDatabases.set(databaseUrl, build);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-bench-data-"));
  // BENCH_PROFILE=dir writes a CPU profile of the server there (node --cpu-prof); with
  // BENCH_PROFILE_HEAP=1, an allocation profile instead (lib/heap-sampling.mjs).
  const profile = process.env.BENCH_PROFILE;
  const profileArgs = !profile
    ? []
    : process.env.BENCH_PROFILE_HEAP === "1"
      ? ["--import", pathToFileURL(path.join(root, "bench/lib/heap-sampling.mjs")).href]
      : ["--cpu-prof", `--cpu-prof-dir=${profile}`];
  const server = await startServerProcess(
    {
      NODE_ENV: "production",
      PAYMENTS_GATEWAY: "test-card",
      BETTER_AUTH_SECRET: "bench-secret-of-the-store-under-measurement-0123456789",
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      // Logging as shipped (info: one JSON line per request); BENCH_LOG_LEVEL to compare.
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
      AUTH_RATE_LIMIT_PER_IP: "1000000",
      // Every bench client asks from 127.0.0.1; the quick-order bench measures resolving, not its
      // per-IP budget (quick-order/limits.test.ts covers that).
      QUICK_ORDER_PER_MINUTE: "1000000",
      // The bench's customers are fresh sign-ups; it measures placement, not the cap on what
      // unverified accounts hold together (orders/holds.test.ts covers that).
      HOLD_NEW_CUSTOMER_SHARE: "1",
      // Orders decided from memory, as shipped; BENCH_PLACEMENT_MEMORY=false to compare.
      PLACEMENT_MEMORY: process.env.BENCH_PLACEMENT_MEMORY ?? "true",
      ...env,
    },
    profileArgs,
    { compiled: true, dir: build.dir },
  ).catch((err: unknown) => {
    if (!build.sha) throw err;
    throw new Error(`the store of ${describeBuild(build)} did not start`, { cause: err });
  });
  return {
    ...server,
    async stop() {
      await server.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  } satisfies ServerProcess;
}

/**
 * Inserts `n` plain products for the order benchmarks ("<prefix>-1"…, `stock` each, at
 * `priceCents`) and answers their ids.
 */
export async function insertOrderableProducts(
  databaseUrl: string,
  opts: { n: number; stock: number; prefix: string; priceCents?: number },
): Promise<string[]> {
  return withClient(databaseUrl, async (c) =>
    (
      await c.query<{ id: string }>(
        `insert into products (name, img, price_cents, minimum_order, available_quantity,
                               short_description, warranty_months, creator_email,
                               part_number, category)
         select 'Bench part ' || i, '/images/products/oil-filter.svg', $3, 1, $2,
                'For the order benchmarks', 12, 'admin@example.com', $4 || '-' || i, 'Other'
         from generate_series(1, $1) i returning id`,
        [opts.n, opts.stock, opts.priceCents ?? 1000, opts.prefix],
      )
    ).rows.map((r) => r.id),
  );
}

/** Inserts `n` generated products in one statement (names and descriptions carry search words). */
export async function seedProducts(databaseUrl: string, n: number, stock = 1000): Promise<void> {
  await withClient(databaseUrl, (c) =>
    c.query(
      `insert into products (name, img, price_cents, minimum_order, available_quantity,
                             short_description, warranty_months, creator_email, created_at,
                             part_number, category)
       select (array['Brake disc','Oil filter','Spark plug','Alternator','Radiator','Shock absorber',
                     'Timing belt','Clutch kit','Fuel pump','Headlight'])[1 + i % 10] || ' ' || i,
              '/images/products/oil-filter.svg', 500 + (i * 37) % 50000, 1, $2,
              'Part ' || i || ' for ' ||
                (array['sedans','vans','trucks','coupes','buses'])[1 + i % 5] || ', OE quality',
              12, 'admin@example.com', now() - make_interval(secs => i),
              'BN-' || i, (array['Brakes','Filters','Ignition','Electrical','Cooling','Suspension',
                                 'Engine','Clutch','Fuel','Lighting'])[1 + i % 10]
       from generate_series(1, $1) as i`,
      [n, stock],
    ),
  );
  // As autovacuum would have done on a live store: statistics and the visibility map.
  await withClient(databaseUrl, (c) => c.query("vacuum analyze products"));
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Mean latency in ms (autocannon's p50 is whole milliseconds). */
  mean: number;
  requests: number;
  statuses: Record<string, number>;
  durationSeconds: number;
}

/** autocannon against `url`, each request's path (and body) chosen by `next`. */
export function load(opts: {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  next: () => { path: string; method?: string; body?: string; headers?: Record<string, string> };
  onResponse?: (status: number) => void;
}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const statuses: Record<string, number> = {};
    const instance = autocannon(
      {
        url: opts.url,
        connections: opts.connections,
        ...(opts.duration !== undefined && { duration: opts.duration }),
        ...(opts.amount !== undefined && { amount: opts.amount }),
        requests: [
          {
            setupRequest: (req) => {
              const n = opts.next();
              return {
                ...req,
                path: n.path,
                method: (n.method ?? "GET") as "GET",
                body: n.body,
                headers: { ...req.headers, ...n.headers },
              };
            },
          },
        ],
      },
      (err, result) => {
        if (err) return reject(err);
        resolve({
          requestsPerSecond: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          mean: result.latency.average,
          requests: result.requests.total,
          statuses,
          durationSeconds: result.duration,
        });
      },
    );
    instance.on("response", (_client, statusCode) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      opts.onResponse?.(statusCode);
    });
  });
}

/** Resident memory (MiB) of a process, and of its PostgreSQL if `pgDataDir` is given. */
export function residentMiB(pid: number): number {
  const out = execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" });
  return round(Number(out.trim()) / 1024, 1);
}

/** Resident memory (MiB) of every postgres process serving the cluster in `clusterDir`. */
export function postgresResidentMiB(clusterDir: string): number {
  const out = execFileSync("ps", ["-eo", "pid=,rss=,args="], { encoding: "utf8" });
  const postmaster = out
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .find((f) => f.slice(2).join(" ").includes(clusterDir));
  if (!postmaster) return 0;
  const ppid = postmaster[0];
  const children = execFileSync("ps", ["-o", "rss=", "--ppid", ppid!], { encoding: "utf8" });
  const kb = [postmaster[1], ...children.split("\n")].reduce((n, v) => n + (Number(v) || 0), 0);
  return round(kb / 1024, 1);
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux); with
 * `reapedChildren`, also what its children used that it has waited for (they have exited).
 */
export function cpuSeconds(pid: number, opts: { reapedChildren?: boolean } = {}): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields 14 to 17 (utime, stime, cutime, cstime); the name in field 2 is in parentheses and
    // may hold spaces.
    const fields = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    const own = fields[11]! + fields[12]!;
    return (opts.reapedChildren ? own + fields[13]! + fields[14]! : own) / clockTicks();
  } catch {
    return 0; // the process has exited
  }
}

let ticks: number | undefined;
const clockTicks = () =>
  (ticks ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100);

/**
 * CPU seconds used so far by every process of the PostgreSQL cluster in `clusterDir`: the
 * postmaster, its live children, and the children it has reaped. Without the reaped ones, a
 * backend that ended between two readings (an earlier run's pool closing) took all its CPU out
 * of the difference: the orders bench's hot case read 0.1 ms of PostgreSQL per request. The
 * postmaster is found once (`ps`); its children are read from /proc, a millisecond's work, so a
 * benchmark may read this in the middle of a run.
 */
export function postgresCpuSeconds(clusterDir: string): number {
  const postmaster = postmasterOf(clusterDir);
  if (!postmaster) return 0;
  let children: number[];
  try {
    children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, "utf8")
      .split(" ")
      .map(Number)
      .filter((pid) => pid > 0);
  } catch {
    postmasters.delete(clusterDir); // it has exited (a cluster started again has another)
    return 0;
  }
  return children.reduce(
    (sum, pid) => sum + cpuSeconds(pid),
    cpuSeconds(postmaster, { reapedChildren: true }),
  );
}

const postmasters = new Map<string, number>();
function postmasterOf(clusterDir: string): number | undefined {
  const known = postmasters.get(clusterDir);
  if (known) return known;
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  const pid = Number(
    out
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.includes(clusterDir))
      ?.split(/\s+/)[0],
  );
  if (!(pid > 0)) return undefined;
  postmasters.set(clusterDir, pid);
  return pid;
}

/** A bare node:http server process answering fixed bytes per path: the limit to compare with. */
export async function startBareServer(
  responses: Record<string, { headers: Record<string, string>; body: string }>,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "bare-")), "responses.json");
  await fs.writeFile(file, JSON.stringify(responses));
  return startScriptServer(path.join(root, "bench/lib/bare-server.mjs"), [file]);
}

/** A node script run as its own process that prints the URL it listens on (a baseline server). */
export async function startScriptServer(
  script: string,
  args: string[],
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  // BENCH_PROFILE: the baseline's CPU profile too, beside the store's (in <dir>/baseline).
  const profile = process.env.BENCH_PROFILE
    ? ["--cpu-prof", `--cpu-prof-dir=${path.join(process.env.BENCH_PROFILE, "baseline")}`]
    : [];
  const child = spawn(process.execPath, [...profile, script, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim()));
    child.once("exit", () => reject(new Error(`${path.basename(script)} exited`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
