import { expect, test } from "vitest";
import { loadConfig } from "../../src/server/config";
import { createTestApp } from "../support/test-app";

// Penetration test of 75cca6d, finding 5: `HOST=0.0.0.0 npm start` without NODE_ENV=production
// seeded admin/admin123 and served an anonymous /dev/mailbox showing every reset link.

test("a store listening on every interface runs no demo: no mailbox, no demo accounts", async () => {
  const open = await createTestApp({ HOST: "0.0.0.0" });
  try {
    expect((await open.app.inject({ method: "GET", url: "/api/dev/mailbox" })).statusCode).toBe(
      404,
    );
  } finally {
    await open.close();
  }
  // main.ts seeds the demo accounts only when the configuration says demo.
  expect(loadConfig({ HOST: "0.0.0.0" }).demo).toBe(false);
});

test("on loopback (or when asked for by DEMO=true) the demo mailbox is there", async () => {
  const setUps: Record<string, string>[] = [{}, { HOST: "0.0.0.0", DEMO: "true" }];
  for (const env of setUps) {
    const demo = await createTestApp(env);
    try {
      expect((await demo.app.inject({ method: "GET", url: "/api/dev/mailbox" })).statusCode).toBe(
        200,
      );
    } finally {
      await demo.close();
    }
  }
});
