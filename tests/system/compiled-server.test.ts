import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { getFreePort } from "../../src/server/db/free-port";
import { cookieHeader } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/test-app";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/**
 * The compiled server (scripts/build-server.mjs bundles most packages into dist/server) against
 * the source run in-process: the same OpenAPI document (one copy of zod and of every schema
 * registry in the bundle), Swagger UI's files (served from its package folder), metrics,
 * Better Auth signing up and in, and the PDF library left out of what loads at start.
 */
const root = path.resolve(import.meta.dirname, "../..");
const METRICS_TOKEN = "compiled-server-metrics-token-0123456789";
const SECRET = "compiled-server-secret-that-is-long-enough-0123456789";

let source: TestApp;
let database: TestDatabase;
let server: ServerProcess | undefined;
let url: string;

beforeAll(async () => {
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root, stdio: "ignore" });
  const port = await getFreePort();
  url = `http://127.0.0.1:${port}`;
  const env = {
    NODE_ENV: "production",
    PAYMENTS_GATEWAY: "test-card",
    // Off by default in production; this test compares the compiled server's document.
    API_DOCS: "true",
    PUBLIC_URL: url,
    BETTER_AUTH_SECRET: SECRET,
    METRICS_TOKEN,
    SEED_DEMO_DATA: "false",
  };
  source = await createTestApp(env);
  database = await createTestDatabase();
  server = await startServerProcess(
    { ...env, DATABASE_URL: database.url, PORT: String(port), LOG_LEVEL: "warn" },
    [],
    { compiled: true },
  );
});

afterAll(async () => {
  await server?.stop();
  await database?.close();
  await source?.close();
});

test("serves the same OpenAPI document as the source", async () => {
  const compiled = await fetch(`${url}/api/docs/json`);
  expect(compiled.status).toBe(200);
  const expected = await source.app.inject({ url: "/api/docs/json" });
  expect(await compiled.json()).toEqual(expected.json());
});

test("loads the invoice PDF library only when it makes a PDF", () => {
  // The files `main.js` loads as it starts: itself and the chunks it imports, statically, in turn
  // (an `import("…")` loads its chunk when called). pdf-lib is about 4 MiB of a started server.
  const dir = path.join(root, "dist/server");
  const atStart = new Set<string>();
  const visit = (file: string) => {
    if (atStart.has(file)) return;
    atStart.add(file);
    const code = readFileSync(file, "utf8");
    for (const [, spec] of code.matchAll(/(?:^|[;}\n])import(?:[^"'();]*?from)?\s*"(\.[^"]+)"/g))
      visit(path.resolve(path.dirname(file), spec!));
  };
  visit(path.join(dir, "main.js"));
  expect(atStart.size).toBeGreaterThan(1);
  const withPdfLib = [...atStart].filter((f) => readFileSync(f, "utf8").includes("PDFDocument"));
  expect(withPdfLib.map((f) => path.relative(dir, f))).toEqual([]);
});

test("serves Swagger UI and its files", async () => {
  const page = await fetch(`${url}/api/docs/static/index.html`, { redirect: "manual" });
  expect([200, 302]).toContain(page.status);
  const init = await fetch(`${url}/api/docs/static/swagger-initializer.js`);
  expect(init.status).toBe(200);
  expect(await init.text()).toContain("SwaggerUIBundle");
  const logo = await fetch(`${url}/api/docs/static/logo.svg`);
  expect(logo.status).toBe(200);
});

test("answers metrics to the scraper only", async () => {
  expect((await fetch(`${url}/metrics`)).status).toBe(401);
  const res = await fetch(`${url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(text).toContain("http_request_duration_seconds_bucket");
  expect(text).toContain("process_resident_memory_bytes");
});

test("signs up, reads the session, refuses a wrong password and signs in", async () => {
  const headers = { "content-type": "application/json", origin: url };
  const email = "compiled-server@example.com";
  const password = "a long enough passphrase 4821";
  const signUp = await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, password, name: "Compiled Server" }),
  });
  expect(signUp.status).toBe(200);
  const session = await fetch(`${url}/api/auth/get-session`, {
    headers: { cookie: cookieHeader(signUp.headers.getSetCookie()) },
  });
  expect((await session.json()).user.email).toBe(email);
  const wrong = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, password: "not the passphrase at all" }),
  });
  expect(wrong.status).toBe(401);
  const signIn = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, password }),
  });
  expect(signIn.status).toBe(200);
  const cart = await fetch(`${url}/api/cart`, {
    headers: { cookie: cookieHeader(signIn.headers.getSetCookie()) },
  });
  expect(cart.status).toBe(200);
});
