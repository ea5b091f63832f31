import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { startCommand } from "./start-command";

export interface ServerProcess {
  url: string;
  process: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The environment of a store that tests order far past one customer's limits (load, locked rows,
 * overload): no demo data, and the sign-ups per IP, the orders per minute and the holds' caps
 * lifted, so that what a test measures is not those limits.
 */
export const ORDERING_AT_LOAD = {
  SEED_DEMO_DATA: "false",
  AUTH_RATE_LIMIT_PER_IP: "100000",
  HOLD_NEW_CUSTOMER_SHARE: "1",
  ORDERS_PER_MINUTE: "10000",
  HOLD_FREE_UNITS: "100000",
  HOLD_MAX_VALUE: "1000000000",
};

/**
 * Starts the real server as its own process (on a free port unless `env` gives PORT) and resolves
 * once it is listening: `src/server/main.ts` through tsx, or with `compiled` the build's
 * `dist/server/main.js` as `npm start` runs it (build it first: scripts/build-server.mjs). `dir`:
 * the checkout to run, this one unless a benchmark compares another revision (`--against`).
 */
export function startServerProcess(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  { compiled = false, dir = root } = {},
): Promise<ServerProcess> {
  const start = compiled
    ? startCommand(dir)
    : { env: {}, args: ["--import", "tsx", "src/server/main.ts"] };
  const child = spawn(process.execPath, [...nodeArgs, ...start.args], {
    cwd: dir,
    env: {
      ...process.env,
      ...start.env,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      // As in the in-process test app: a busy machine's slow turns, lagging event loop and slow
      // placements are not what these tests judge; a test of any of them sets its own.
      REQUEST_WAIT_MAX_MS: "0",
      EVENT_LOOP_LAG_MAX_MS: "0",
      ORDER_TIMEOUT_SECONDS: "30",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /store listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match?.[1]) {
        resolve({
          url: match[1],
          process: child,
          output: () => output,
          async stop(signal = "SIGTERM") {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            await exited;
          },
        });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`the server exited (code ${code}) before listening:\n${output}`)),
    );
  });
}

/** Whether a process of this id is running (signal 0: asks, sends nothing). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
