import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type pg from "pg";
import { getFreePort } from "../../src/server/db/free-port";
import { systemUser } from "./pgbouncer";
import { withClient } from "./pg-client";

/** Debian's PostgreSQL 15: the server, initdb and pg_basebackup (the embedded 18 has no client tools). */
export const POSTGRES_15_BIN = "/usr/lib/postgresql/15/bin";

export interface PrimaryAndReplica {
  /** The database `store` on the primary and on the replica (user `store`, trust on loopback). */
  primaryUrl: string;
  replicaUrl: string;
  /** Runs SQL on the replica (`pg_wal_replay_pause()`, a read) or the primary. */
  onReplica<T extends pg.QueryResultRow>(text: string): Promise<T[]>;
  onPrimary<T extends pg.QueryResultRow>(text: string): Promise<T[]>;
  /** Each server's data folder (the benchmark reads their CPU by it). */
  dataDirs: { primary: string; replica: string };
  /** What each server logged so far (every statement with `logStatements`). */
  log(server: "primary" | "replica"): string;
  output(): string;
  stop(): Promise<void>;
}

const run = promisify(execFile);

/**
 * A PostgreSQL 15 primary and a streaming replica of it made with `pg_basebackup -R` (the recipe
 * of docs/operations.md "A read replica"), each on a free loopback port, in a temporary folder.
 * As root the servers run as the `postgres` system user, as Debian's own do.
 */
export async function startPrimaryAndReplica({
  logStatements = false,
} = {}): Promise<PrimaryAndReplica> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-replica-"));
  const user: { uid?: number; gid?: number } =
    process.getuid?.() === 0 ? await systemUser("postgres") : {};
  if (user.uid !== undefined) await fs.chown(dir, user.uid, user.gid!);
  const asPostgres = { ...user, cwd: dir };
  const bin = (name: string) => path.join(POSTGRES_15_BIN, name);
  const children: ChildProcess[] = [];
  let output = "";
  const logs = { primary: "", replica: "" };
  const start = async (data: string, port: number, server: "primary" | "replica") => {
    const child = spawn(
      bin("postgres"),
      [
        ...["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1"],
        ...(logStatements ? ["-c", "log_statement=all"] : []),
      ],
      { ...asPostgres, stdio: ["ignore", "pipe", "pipe"] },
    );
    const logged = (c: Buffer) => {
      output += c.toString();
      logs[server] += c.toString();
    };
    child.stdout!.on("data", logged);
    child.stderr!.on("data", logged);
    children.push(child);
    await untilAnswers(`postgres://store@127.0.0.1:${port}/postgres`, child, () => output);
  };
  try {
    const primaryData = path.join(dir, "primary");
    const replicaData = path.join(dir, "replica");
    await run(
      bin("initdb"),
      ["-D", primaryData, "-U", "store", "--auth=trust", "-E", "UTF8", "--no-sync"],
      asPostgres,
    );
    // A standby answers reads (hot_standby) and tells the primary which rows its queries still
    // read, so that a vacuum on the primary cancels none of them (hot_standby_feedback).
    await fs.appendFile(
      path.join(primaryData, "postgresql.conf"),
      "\nwal_level = replica\nmax_wal_senders = 5\nhot_standby = on\nhot_standby_feedback = on\nfsync = off\n",
    );
    const [primaryPort, replicaPort] = [await getFreePort(), await getFreePort()];
    await start(primaryData, primaryPort, "primary");
    const primaryAdmin = `postgres://store@127.0.0.1:${primaryPort}/postgres`;
    await query(primaryAdmin, "create database store");
    // -R writes standby.signal and primary_conninfo: the copy starts as a streaming replica;
    // "-c fast" checkpoints at once rather than spread over minutes.
    await run(
      bin("pg_basebackup"),
      [
        "-h",
        "127.0.0.1",
        "-p",
        String(primaryPort),
        "-U",
        "store",
        "-D",
        replicaData,
        "-R",
        "-c",
        "fast",
      ],
      asPostgres,
    );
    await start(replicaData, replicaPort, "replica");
    const primaryUrl = `postgres://store@127.0.0.1:${primaryPort}/store`;
    const replicaUrl = `postgres://store@127.0.0.1:${replicaPort}/store`;
    return {
      primaryUrl,
      replicaUrl,
      onReplica: (text) => query(replicaUrl, text),
      onPrimary: (text) => query(primaryUrl, text),
      dataDirs: { primary: primaryData, replica: replicaData },
      log: (server) => logs[server],
      output: () => output,
      async stop() {
        await stopAll(children);
        await fs.rm(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await stopAll(children);
    await fs.rm(dir, { recursive: true, force: true });
    throw new Error(`${(err as Error).message}\n${output}`, { cause: err });
  }
}

async function stopAll(children: ChildProcess[]) {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // A fast shutdown: open sessions are ended, nothing waits for them.
      child.kill("SIGINT");
      await exited;
    }),
  );
}

const query = <T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> =>
  withClient(
    url,
    async (client) =>
      (await client.query<T>({ text, query_timeout: 10_000 } as pg.QueryConfig)).rows,
    { connectionTimeoutMillis: 5_000 },
  );

/** Waits until the server answers a query (a standby answers once it is consistent). */
async function untilAnswers(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited:\n${output()}`);
    try {
      await query(url, "select 1");
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
