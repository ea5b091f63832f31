import { createHmac } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildApp } from "./app";
import { loadConfig } from "./config";
import { createDatabase, type Database } from "./db/database";
import { getFreePort } from "./db/free-port";
import { UNAVAILABLE_MESSAGE } from "./error-handler";

// The app over a database that is not there (nothing listens on the port): every route that
// needs it answers 503 with Retry-After, none a 500.
const SECRET = "test-secret-that-is-long-enough-0123456789";
let app: FastifyInstance;
let database: Database;
let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-db-away-"));
  database = createDatabase(`postgres://nobody:none@127.0.0.1:${await getFreePort()}/none`);
  const config = loadConfig({
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    BETTER_AUTH_SECRET: SECRET,
    DEMO_IDENTITY_PROVIDER: "false",
    // As in the other tests' apps: a busy machine's slow turns would answer "busy" first, and
    // that is not what this file judges.
    REQUEST_WAIT_MAX_MS: "0",
    EVENT_LOOP_LAG_MAX_MS: "0",
  });
  app = await buildApp({ config, database });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.pool.end();
  await fs.rm(dataDir, { recursive: true, force: true });
});

// A correctly signed session cookie, so the session is looked up in the database.
const token = "a-session-token";
const signature = createHmac("sha256", SECRET).update(token).digest("base64");
const cookie = `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}`;

test.each([
  ["GET", "/api/products"],
  ["GET", "/api/products/00000000-0000-0000-0000-000000000000"],
  ["GET", "/api/reviews"],
  ["GET", "/api/orders"],
  ["GET", "/api/user"],
  ["GET", "/api/cart"],
  ["GET", "/api/auth/get-session"],
  ["POST", "/api/auth/sign-in/email"],
  ["GET", "/api/health"],
  ["GET", "/api/health/ready"],
] as const)("%s %s answers 503 with Retry-After", async (method, url) => {
  const res = await app.inject({
    method,
    url,
    headers: { cookie },
    ...(method === "POST" ? { payload: { email: "a@example.com", password: "secret123" } } : {}),
  });
  expect(res.statusCode, res.body).toBe(503);
  expect(res.headers["retry-after"]).toBe("1");
  expect(res.json()).toEqual({ error: "unavailable", message: UNAVAILABLE_MESSAGE });
});

test("liveness answers without the database", async () => {
  const res = await app.inject({ url: "/api/health/live" });
  expect(res.statusCode).toBe(200);
});
