// Start-up: from `npm start`'s command (node, its V8 flags, dist/server/main.js; production mode, database already initialised) to the first 200 from
// /api/health, on the embedded PostgreSQL of the default set-up; and its resident memory.
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { getFreePort } from "../src/server/db/free-port";
import { startServerProcess } from "../tests/support/server-process";
import { startCommand } from "../tests/support/start-command";
import type { Figure } from "./lib/comparison";
import {
  ensureBuilt,
  inTurn,
  median,
  postgresResidentMiB,
  residentMiB,
  workingTree,
  type StoreBuild,
} from "./lib/harness";

const RUNS = 5;

export interface StartupResult {
  runs: number;
  medianMs: number;
  allMs: number[];
  /** Medians over the starts, each measured after its own 200 reads. */
  memoryMiB: { server: number; postgres: number };
  allServerMiB: number[];
}

/**
 * One result per build, in the order given: each build starts from a database of its own, made
 * by its own first start, and the timed starts take turns (`--against`).
 */
export async function runStartupBench(
  builds: StoreBuild[] = [workingTree],
): Promise<StartupResult[]> {
  const dataDirs: string[] = [];
  const port = await getFreePort();
  try {
    for (const build of builds) {
      // What `npm start` runs: the compiled server.
      ensureBuilt(build);
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-bench-start-"));
      dataDirs.push(dataDir);
      // First start: creates the cluster and the demo data (not measured).
      const first = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: "warn" }, [], {
        dir: build.dir,
      });
      // (the development set-up, which also creates the demo accounts: the first start is not timed)
      await first.stop();
    }
    const times: number[][] = builds.map(() => []);
    const serverMiB: number[][] = builds.map(() => []);
    const postgresMiB: number[][] = builds.map(() => []);
    for (let i = 0; i < RUNS; i++) {
      for (const k of inTurn(builds.length, i)) {
        const dataDir = dataDirs[k]!;
        const t0 = performance.now();
        const start = startCommand(builds[k]!.dir);
        const child = spawn(process.execPath, start.args, {
          cwd: builds[k]!.dir,
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
        times[k]!.push(Math.round(performance.now() - t0));
        for (let n = 0; n < 200; n++)
          await fetch(`http://127.0.0.1:${port}/api/products?offset=${n % 10}`);
        serverMiB[k]!.push(residentMiB(child.pid!));
        postgresMiB[k]!.push(postgresResidentMiB(path.join(dataDir, "postgres")));
        child.kill("SIGTERM");
        await exited;
      }
    }
    return builds.map((_, k) => ({
      runs: RUNS,
      medianMs: median(times[k]!),
      allMs: times[k]!,
      memoryMiB: { server: median(serverMiB[k]!), postgres: median(postgresMiB[k]!) },
      allServerMiB: serverMiB[k]!,
    }));
  } finally {
    for (const dir of dataDirs) await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The figures `--against` compares. */
export const startupFigures = (r: StartupResult): Figure[] => [
  { name: "first 200 ms (median)", value: r.medianMs, better: "lower" },
  { name: "server MiB after 200 reads", value: r.memoryMiB.server, better: "lower" },
  { name: "PostgreSQL MiB", value: r.memoryMiB.postgres, better: "lower" },
];

export function printStartup(r: StartupResult) {
  console.log(
    `Start-up to first 200 from /api/health: median ${r.medianMs} ms over ${r.runs} starts (${r.allMs.join(", ")} ms); ` +
      `memory after 200 reads (median): server ${r.memoryMiB.server} MiB (${r.allServerMiB.join(", ")}), ` +
      `embedded PostgreSQL ${r.memoryMiB.postgres} MiB`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printStartup((await runStartupBench())[0]!);
}
