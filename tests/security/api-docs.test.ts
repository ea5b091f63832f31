import { expect, test } from "vitest";
import { createTestApp } from "../support/test-app";

// Penetration test of 75cca6d, finding 16: /api/docs listed every admin route publicly in
// production.

const production = { NODE_ENV: "production", PAYMENTS_GATEWAY: "test-card" };

test("production serves no API docs unless API_DOCS=true", async () => {
  for (const [env, status] of [
    [production, 404],
    [{ ...production, API_DOCS: "true" }, 200],
    [{}, 200],
  ] as const) {
    const t = await createTestApp(env);
    try {
      for (const url of ["/api/docs/json", "/api/docs/"]) {
        const res = await t.app.inject({ method: "GET", url });
        expect(res.statusCode, `${JSON.stringify(env)} ${url}`).toBe(status);
      }
    } finally {
      await t.close();
    }
  }
});
