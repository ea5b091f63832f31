// Start-up: from `npm start`'s command (node, its V8 flags, dist/server/main.js; production mode, database already initialised) to the first 200 from
// /api/health, on the embedded PostgreSQL of the default set-up; and its resident memory.
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { getFreePort } from "../src/server/db/free-port";
import { startServerProcess } from "../tests/support/server-process";
import { startCommand } from "../tests/support/start-command";
import { buildServerOnce, median, postgresResidentMiB, residentMiB, root } from "./lib/harness";

const RUNS = 5;

export interface StartupResult {
  runs: number;
  medianMs: number;
  allMs: number[];
  /** Medians over the starts, each measured after its own 200 reads. */
  memoryMiB: { server: number; postgres: number };
  allServerMiB: number[];
}

export async function runStartupBench(): Promise<StartupResult> {
  // What `npm start` runs: the compiled server.
  buildServerOnce();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-bench-start-"));
  const port = await getFreePort();
  try {
    // First start: creates the cluster and the demo data (not measured).
    const first = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
    // (the development set-up, which also creates the demo accounts: the first start is not timed)
    await first.stop();
    const times: number[] = [];
    const serverMiB: number[] = [];
    const postgresMiB: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const start = startCommand();
      const child = spawn(process.execPath, start.args, {
        cwd: root,
        env: {
          ...process.env,
          ...start.env,
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: "127.0.0.1",
          // Production as shipped (no demo identity provider, JSON logs at info).
          NODE_ENV: "production",
          PAYMENTS_GATEWAY: "test-card",
          BETTER_AUTH_SECRET: "bench-secret-that-is-long-enough-0123456789",
          SEED_DEMO_DATA: "true",
        },
        stdio: "ignore",
      });
      const exited = new Promise((r) => child.once("exit", r));
      for (;;) {
        const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) break;
        await new Promise((r) => setTimeout(r, 20)); // polling interval of the probe
      }
      times.push(Math.round(performance.now() - t0));
      for (let k = 0; k < 200; k++)
        await fetch(`http://127.0.0.1:${port}/api/products?offset=${k % 10}`);
      serverMiB.push(residentMiB(child.pid!));
      postgresMiB.push(postgresResidentMiB(path.join(dataDir, "postgres")));
      child.kill("SIGTERM");
      await exited;
    }
    return {
      runs: RUNS,
      medianMs: median(times),
      allMs: times,
      memoryMiB: { server: median(serverMiB), postgres: median(postgresMiB) },
      allServerMiB: serverMiB,
    };
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export function printStartup(r: StartupResult) {
  console.log(
    `Start-up to first 200 from /api/health: median ${r.medianMs} ms over ${r.runs} starts (${r.allMs.join(", ")} ms); ` +
      `memory after 200 reads (median): server ${r.memoryMiB.server} MiB (${r.allServerMiB.join(", ")}), ` +
      `embedded PostgreSQL ${r.memoryMiB.postgres} MiB`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printStartup(await runStartupBench());
}
