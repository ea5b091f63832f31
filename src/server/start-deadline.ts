import { Worker } from "node:worker_threads";

/** How long past the deadline the watchdog thread waits for the main thread to exit by itself. */
export const STUCK_GRACE_MS = 5_000;

/**
 * The watchdog thread (CommonJS, evaluated as a string so the compiled server needs no file of
 * its own): written to the file descriptor itself, since a worker's `process.stdout` goes through
 * the main thread, which is the one that is stuck.
 */
const WATCHDOG = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
setTimeout(() => {
  const line = { level: 60, time: Date.now(), pid: process.pid, msg: workerData.message };
  fs.writeSync(1, JSON.stringify(line) + "\\n");
  process.kill(process.pid, "SIGKILL");
}, workerData.ms);
`;

/**
 * A start that does not end (issue 49, finding 4: after a kill -9, the next start hung for over
 * two minutes before listening and ignored SIGTERM) ends the process, so that a supervisor starts
 * the store again: `onLate` (log, exit 1) at `ms` after this call unless `listening()` came
 * first. A main thread stuck in native code (a crypto call that deadlocked) runs no timer and no
 * signal handler, so a watchdog thread then says so and kills the process (SIGKILL)
 * `STUCK_GRACE_MS` later. `ms` 0: no deadline.
 */
export function startDeadline(
  ms: number,
  onLate: (message: string) => void,
): { listening(): void } {
  if (ms <= 0) return { listening: () => {} };
  const message = `not listening ${ms / 1000} s after start (START_TIMEOUT_SECONDS): exiting, so that a supervisor starts the store again`;
  const timer = setTimeout(() => onLate(message), ms);
  const watchdog = new Worker(WATCHDOG, {
    eval: true,
    workerData: {
      ms: ms + STUCK_GRACE_MS,
      message: `${message}; its main thread is stuck and cannot exit: killed`,
    },
    // It needs none of the server's options (--max-semi-space-size, tsx's loader).
    execArgv: [],
    stdout: false,
    stderr: false,
  });
  // It must not keep a process alive that has finished otherwise.
  watchdog.unref();
  return {
    listening() {
      clearTimeout(timer);
      void watchdog.terminate();
    },
  };
}
