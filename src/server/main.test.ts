import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startServerProcess } from "../../tests/support/server-process";

let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-main-test-"));
});
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

test("the server starts on the embedded database, answers, and shuts down gracefully on SIGTERM", async () => {
  const server = await startServerProcess({ DATA_DIR: dataDir });
  try {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const list = await fetch(`${server.url}/api/products?limit=1`);
    expect(Number(list.headers.get("x-total-count"))).toBeGreaterThanOrEqual(12);
  } finally {
    await server.stop("SIGTERM");
  }
  expect(server.process.exitCode).toBe(0);
  expect(server.output()).toContain("SIGTERM received: shutting down");
  // The demo's own identity provider started, and said nothing meant for a real deployment.
  expect(server.output()).toContain("demo OIDC identity provider at");
  expect(server.output()).not.toContain("oidc-provider WARNING");

  // The embedded PostgreSQL was stopped with the server: a second start gets the cluster back.
  const again = await startServerProcess({ DATA_DIR: dataDir });
  try {
    const health = await fetch(`${again.url}/api/health`);
    expect(health.status).toBe(200);
    expect(again.output()).not.toContain("inserted the demo catalog");
  } finally {
    await again.stop("SIGTERM");
  }
}, 120_000); // two cold starts of an embedded PostgreSQL on a busy machine

test("a bad configuration stops start-up with a list of what is wrong", async () => {
  await expect(
    startServerProcess({ DATA_DIR: dataDir, PORT: "not-a-port", CURRENCY: "dollars" }),
  ).rejects.toThrow(/Invalid configuration:[\s\S]*PORT[\s\S]*CURRENCY/);
});
