import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { getFreePort } from "../../src/server/db/free-port";

const root = path.resolve(import.meta.dirname, "../..");
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
/** The recipe's nginx configuration (docs/operations.md, "From one node to several"). */
export const NODES_TEMPLATE = path.join(root, "deploy/nginx/partsworks-nodes.conf.template");

/**
 * The template with its `${PARTSWORKS_…}` variables filled in, as `envsubst` with the variables
 * named does: nginx's own `$variables` stay.
 */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{(PARTSWORKS_[A-Z_]+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`the template wants ${name}`);
    return value;
  });
}

/** One `server` line per node of the upstream, as the recipe writes them. */
export const upstreamServers = (nodes: string[]) =>
  nodes.map((n) => `server ${n} max_fails=1 fail_timeout=10s;`).join(" ");

export interface Nginx {
  url: string;
  dir: string;
  process: ChildProcess;
  accessLog(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Debian's nginx, unprivileged from a temporary prefix (its pid, logs and temp files there), on a
 * free loopback port, serving the recipe's template rendered for `nodes` (host:port each) over
 * plain HTTP. Resolves once `/api/health/live` answers 200 through it.
 */
export async function startNodesNginx(nodes: string[]): Promise<Nginx> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-nginx-nodes-"));
  const port = await getFreePort();
  const site = renderTemplate(await fs.readFile(NODES_TEMPLATE, "utf8"), {
    PARTSWORKS_NODES: upstreamServers(nodes),
    PARTSWORKS_LISTEN: `127.0.0.1:${port}`,
    PARTSWORKS_SERVER_NAME: "localhost",
    PARTSWORKS_TLS: "",
    PARTSWORKS_ACCESS_LOG: path.join(dir, "access.log"),
  });
  await fs.writeFile(path.join(dir, "partsworks.conf"), site);
  // Run as root (CI), nginx's workers would switch to nobody, who cannot use this temp folder.
  await fs.writeFile(
    path.join(dir, "nginx.conf"),
    `${process.getuid?.() === 0 ? "user root;" : ""}
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/partsworks.conf;
}
`,
  );
  const child = spawn(
    NGINX,
    ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log")],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = await fs.readFile(path.join(dir, "error.log"), "utf8").catch(() => "");
      throw new Error(`nginx exited (${child.exitCode}):\n${output}\n${log}`);
    }
    const ok = await fetch(`${url}/api/health/live`).then(
      async (r) => (await r.arrayBuffer(), r.status === 200),
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer on ${url}:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    dir,
    process: child,
    accessLog: () => fs.readFile(path.join(dir, "access.log"), "utf8"),
    async stop() {
      // SIGQUIT: nginx's graceful stop.
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGQUIT");
      await exited;
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
