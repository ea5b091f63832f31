import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { eventually } from "../support/mailbox";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * The compiled store, sent errors that escape outside any request (a promise rejected with
 * nobody awaiting it, as pg-boss's job completion does on a full disk: issue 30, row 1). A
 * database, network or disk error is logged and the store keeps answering; a programming error
 * stops it with exit code 1.
 */
const root = path.resolve(import.meta.dirname, "../..");
const preload = path.join(root, "tests/support/reject-on-signal.mjs");
let database: TestDatabase;
let dataDir: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root, stdio: "ignore" });
  database = await createTestDatabase();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-escaped-"));
});

afterAll(async () => {
  await server?.stop();
  await database?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

test("a 53100 disk-full error (and 57P01, ECONNRESET, ENOSPC) escaping outside a request leaves the store running; a TypeError stops it", async () => {
  const operational = ["53100", "57P01", "ECONNRESET", "ENOSPC"];
  server = await startServerProcess(
    {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SEED_DEMO_DATA: "false",
      DEMO_IDENTITY_PROVIDER: "false",
      LOG_LEVEL: "warn",
      ESCAPE_TEST_ERRORS: [...operational, "TypeError"].join(","),
    },
    ["--import", preload],
    { compiled: true },
  );
  const running = server;
  const logged = (code: string) =>
    running
      .output()
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        try {
          return JSON.parse(line) as { level: number; code?: string; msg: string };
        } catch {
          return undefined;
        }
      })
      .find((l) => l?.code === code);

  for (const code of operational) {
    running.process.kill("SIGUSR2");
    const line = await eventually(async () => logged(code), `the ${code} error to be logged`);
    // pino's error level; the store said it keeps running.
    expect(line.level).toBe(50);
    expect(line.msg).toContain("keeps running");
    expect(running.process.exitCode).toBeNull();
    const live = await fetch(`${running.url}/api/health/live`);
    expect(live.status).toBe(200);
    const ready = await fetch(`${running.url}/api/health/ready`);
    expect(ready.status).toBe(200);
  }

  const exited = new Promise<number | null>((resolve) =>
    running.process.once("exit", (code) => resolve(code)),
  );
  running.process.kill("SIGUSR2");
  expect(await exited).toBe(1);
  expect(running.output()).toContain("a programming error escaped: the store stops");
}, 60_000);
