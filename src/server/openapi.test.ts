import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestApp, type TestApp } from "../../tests/support/test-app";

/** The OpenAPI document the store serves, linted by Redocly's recommended rules. */
let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: "https://shop.partsworks.dev" });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-openapi-"));
});
afterAll(async () => {
  await t.close();
  await fs.rm(dir, { recursive: true, force: true });
});

interface Document {
  servers?: { url: string }[];
  components?: { securitySchemes?: Record<string, { type: string; in?: string }> };
  paths: Record<string, Record<string, { operationId?: string }>>;
}

test("the document lists the auth routes the web uses, operation ids, servers and the cookie scheme", async () => {
  const res = await t.app.inject({ url: "/api/docs/json" });
  expect(res.statusCode).toBe(200);
  const doc = res.json<Document>();
  expect(doc.servers?.[0]?.url).toBe("https://shop.partsworks.dev");
  expect(doc.components?.securitySchemes?.session).toMatchObject({ type: "apiKey", in: "cookie" });
  for (const p of [
    "/api/auth/sign-up/email",
    "/api/auth/sign-in/email",
    "/api/auth/sign-out",
    "/api/auth/get-session",
    "/api/auth/request-password-reset",
    "/api/auth/reset-password",
    "/api/auth/change-password",
    "/api/auth/send-verification-email",
  ]) {
    expect(Object.keys(doc.paths)).toContain(p);
  }
  const ids = Object.values(doc.paths).flatMap((ops) =>
    Object.values(ops).map((op) => op.operationId),
  );
  expect(ids.every(Boolean)).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
});

test("@redocly/cli lint (recommended rules): no errors and no warnings", async () => {
  const res = await t.app.inject({ url: "/api/docs/json" });
  const file = path.join(dir, "openapi.json");
  await fs.writeFile(file, res.body);
  const { stdout } = await promisify(execFile)(
    "npx",
    ["redocly", "lint", file, "--extends=recommended", "--format=json"],
    { cwd: path.resolve(import.meta.dirname, "../.."), maxBuffer: 20e6 },
  ).catch((err: { stdout: string }) => ({ stdout: err.stdout }));
  const report = JSON.parse(stdout) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
  };
  const problems = report.problems.map(
    (p) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`,
  );
  console.log(`OpenAPI lint: ${report.totals.errors} errors, ${report.totals.warnings} warnings`);
  expect(problems).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
}, 120_000);

test("routes that read their body themselves say what they take: a form of files, or a text", async () => {
  const doc = (await t.app.inject({ url: "/api/docs/json" })).json<{
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
  }>();
  expect(doc.paths["/api/imports/aces"]?.post?.requestBody?.content).toEqual({
    "multipart/form-data": {
      schema: { type: "object", additionalProperties: { type: "string", format: "binary" } },
    },
  });
  expect(doc.paths["/api/products/images"]?.post?.requestBody?.content).toHaveProperty(
    "multipart/form-data",
  );
});
