import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { getFreePort } from "../../src/server/db/free-port";

export interface PgBouncer {
  /** `directUrl` with host and port swapped for PgBouncer's (same user, password, database). */
  pooled(directUrl: string): string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Debian's PgBouncer in transaction pooling mode in front of the PostgreSQL at `serverUrl`, on a
 * free port, every database passed through (`*`). Clients authenticate with SCRAM against a
 * generated userlist holding the server's password, which PgBouncer then uses towards the server.
 */
export async function startPgBouncer(serverUrl: string, poolSize = 20): Promise<PgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-pgbouncer-"));
  const port = await getFreePort();
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  await fs.writeFile(path.join(dir, "userlist.txt"), `${quote(user)} ${quote(password)}\n`, {
    mode: 0o600,
  });
  await fs.writeFile(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = scram-sha-256",
      `auth_file = ${path.join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 2000",
      `default_pool_size = ${poolSize}`,
      "max_db_connections = 0",
      "server_reset_query =",
      "ignore_startup_parameters = extra_float_digits",
      // PgBouncer refuses to run as root; it then switches to PostgreSQL's system user.
      ...(process.getuid?.() === 0 ? ["user = postgres"] : []),
      "",
    ].join("\n"),
  );
  if (process.getuid?.() === 0) {
    const { uid, gid } = await systemUser("postgres");
    await fs.chown(dir, uid, gid);
    for (const f of ["userlist.txt", "pgbouncer.ini"]) await fs.chown(path.join(dir, f), uid, gid);
  }
  const child = spawn("/usr/sbin/pgbouncer", [path.join(dir, "pgbouncer.ini")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // Ready once it accepts connections.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited:\n${output}`);
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      s.once("connect", () => (s.destroy(), resolve(true)));
      s.once("error", () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error(`pgbouncer did not listen:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    pooled(directUrl) {
      const u = new URL(directUrl);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.toString();
    },
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** A system user's ids, from /etc/passwd (PostgreSQL's `postgres`, when the tests run as root). */
export async function systemUser(name: string): Promise<{ uid: number; gid: number }> {
  const line = (await fs.readFile("/etc/passwd", "utf8"))
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (!uid || !gid) throw new Error(`no system user ${name}`);
  return { uid: Number(uid), gid: Number(gid) };
}
