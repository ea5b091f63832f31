import { describe, expect, test } from "vitest";
import { type TestApp } from "../../../tests/support/test-app";
import { appForTests } from "../../../tests/support/store";
import { authForTest } from "../../../tests/support/auth-instance";
import { storeOrigins } from "./cross-site";

// Issue 48, item 8: opened at http://127.0.0.1:3000 instead of localhost, the cart said only
// "Cross-site requests are not accepted".

/** A public state-changing call the cart makes (a visitor's empty cart priced). */
const quoteFrom = (t: TestApp, origin: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/cart/quote",
    headers: { origin },
    payload: { items: [] },
  });

describe("in development", () => {
  const { t } = appForTests({ env: { PUBLIC_URL: "http://localhost:3000", PORT: "3000" } });

  test.each(["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"])(
    "the store's pages at %s are its own",
    async (origin) => {
      const res = await quoteFrom(t, origin);
      expect(res.statusCode, res.body).toBe(200);
    },
  );

  test.each([
    "https://evil.example",
    "http://127.0.0.1:4000",
    "http://localhost.evil.example:3000",
  ])("a page at %s is another site", async (origin) => {
    const res = await quoteFrom(t, origin);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: "cross_site",
      message: "Cross-site requests are not accepted",
    });
  });
});

describe("in production", () => {
  const { t } = appForTests({
    env: {
      NODE_ENV: "production",
      PAYMENTS_GATEWAY: "test-card",
      PUBLIC_URL: "https://shop.example.com",
      PORT: "3000",
    },
  });

  test("only PUBLIC_URL is the store's own; a refusal says to open the store there", async () => {
    expect((await quoteFrom(t, "https://shop.example.com")).statusCode).toBe(200);
    for (const origin of [
      "http://127.0.0.1:3000",
      "http://localhost:3000",
      "https://evil.example",
    ]) {
      const res = await quoteFrom(t, origin);
      expect(res.statusCode, origin).toBe(403);
      expect(res.json(), origin).toEqual({
        error: "cross_site",
        message: "Cross-site requests are not accepted: open the store at https://shop.example.com",
      });
    }
  });
});

test("the store's origins: loopback spellings on its ports outside production only", () => {
  expect(storeOrigins("http://localhost:3000", { production: false, port: 3001 })).toEqual([
    "http://localhost:3000",
    "http://127.0.0.1:3000",
    "http://[::1]:3000",
    "http://localhost:3001",
    "http://127.0.0.1:3001",
    "http://[::1]:3001",
  ]);
  // A public address that is no loopback keeps its own origin; the server's port still answers.
  expect(storeOrigins("https://shop.test", { production: false, port: 80 })).toEqual([
    "https://shop.test",
    "http://localhost",
    "http://127.0.0.1",
    "http://[::1]",
  ]);
  expect(storeOrigins("https://shop.example.com", { production: true, port: 3000 })).toEqual([
    "https://shop.example.com",
  ]);
});

test("Better Auth trusts the same origins (its own Origin check runs outside tests)", async () => {
  const authFor = (production: boolean) =>
    authForTest({
      db: {} as never,
      publicUrl: "http://localhost:3000",
      trustedOrigins: storeOrigins("http://localhost:3000", { production, port: 3000 }),
      production,
    });
  const dev = await authFor(false).$context;
  const prod = await authFor(true).$context;
  for (const origin of ["http://127.0.0.1:3000", "http://[::1]:3000"]) {
    expect(dev.isTrustedOrigin(origin), origin).toBe(true);
    expect(prod.isTrustedOrigin(origin), origin).toBe(false);
  }
  expect(dev.isTrustedOrigin("http://127.0.0.1:4000")).toBe(false);
});
