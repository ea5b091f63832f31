import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";

// Fifth outside review (issue 49), finding 4: after a kill -9, a new store hung for over two
// minutes before listening and ignored SIGTERM (Node 20's crypto deadlocked exporting the demo
// identity provider's key). Now a start has a deadline, START_TIMEOUT_SECONDS: past it the store
// exits 1 with a line saying so, or, when its main thread is stuck and cannot, it is killed.

const root = path.resolve(import.meta.dirname, "../..");
const preload = path.join(root, "tests/support/block-main-thread.mjs");

/** A "PostgreSQL" that accepts connections and never answers: a start that waits forever. */
let silent: net.Server;
let silentPort = 0;
const sockets = new Set<net.Socket>();
let child: ChildProcess | undefined;

beforeAll(async () => {
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentPort = (silent.address() as net.AddressInfo).port;
});
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

/** Starts the store (through tsx) on the silent database; what it printed and how it ended. */
function startHanging(nodeArgs: string[] = []) {
  child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
      DATABASE_URL: `postgres://store:secret@127.0.0.1:${silentPort}/store`,
      START_TIMEOUT_SECONDS: "2",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const started = performance.now();
  return new Promise<{ code: number | null; signal: string | null; output: string; ms: number }>(
    (resolve) =>
      child!.once("exit", (code, signal) =>
        resolve({ code, signal, output, ms: Math.round(performance.now() - started) }),
      ),
  );
}

test("a start still waiting at START_TIMEOUT_SECONDS exits 1, saying so", async () => {
  const ended = await startHanging();
  expect(ended.output).not.toContain("store listening");
  expect(ended.output).toContain(
    "not listening 2 s after start (START_TIMEOUT_SECONDS): exiting, so that a supervisor starts the store again",
  );
  expect(ended).toMatchObject({ code: 1, signal: null });
  console.log(`start deadline: a start waiting on the database exited 1 after ${ended.ms} ms`);
}, 60_000);

test("a start whose main thread is stuck (no timer runs) is killed by its watchdog, saying so", async () => {
  const ended = await startHanging(["--import", preload]);
  expect(ended.output).toContain("its main thread is stuck and cannot exit: killed");
  expect(ended).toMatchObject({ code: null, signal: "SIGKILL" });
  console.log(`start deadline: a start with its main thread stuck was killed after ${ended.ms} ms`);
}, 60_000);
