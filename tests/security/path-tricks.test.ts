import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { limitedAuthPaths } from "../../src/server/auth/limited-paths";
import { canonicalPath, NON_CANONICAL_PATH_MESSAGE } from "../../src/server/canonical-path";
import { user } from "../../src/server/users/tables";
import { signUp } from "../support/accounts";
import { authForTest } from "../support/auth-instance";
import { createTestApp } from "../support/test-app";
import { appForTests } from "../support/store";

// Penetration test of 75cca6d, finding 1 and 3: the limiter, the password policy and the Origin
// check looked at the raw path; the router and Better Auth at a normalised one. These requests go
// over a real socket: app.inject() would resolve the dot segments itself.

const PUBLIC_URL = "http://store.example.test";
const { t } = appForTests({
  env: {
    PUBLIC_URL,
    AUTH_RATE_LIMIT_PER_IP: "1000",
    AUTH_RATE_LIMIT_PER_EMAIL: "2",
  },
});
let base: string;

beforeAll(async () => {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request sent with its path exactly as written. */
function raw(
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = http.request(`${base}/`, {
      method,
      path,
      headers: {
        ...(body ? { "content-type": "application/json" } : {}),
        origin: PUBLIC_URL,
        ...opts.headers,
      },
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The ways the tester spelt one path as another (each keeps the path's last segment). */
const tricks: [string, (path: string) => string][] = [
  ["a dot segment", (p) => p.replace(/\/([^/]+)$/, "/./$1")],
  ["a parent segment", (p) => p.replace(/\/([^/]+)$/, "/x/../$1")],
  ["an encoded dot segment", (p) => p.replace(/\/([^/]+)$/, "/%2e/$1")],
  ["an encoded parent segment", (p) => p.replace(/\/([^/]+)$/, "/x/%2E%2E/$1")],
  ["an empty segment", (p) => p.replace(/\/([^/]+)$/, "//$1")],
  [
    "an encoded letter",
    (p) =>
      p.replace(
        /\/([a-z])([^/]*)$/,
        (_m, c: string, rest: string) => `/%${c.charCodeAt(0).toString(16)}${rest}`,
      ),
  ],
  ["an encoded first segment", (p) => p.replace(/^\/api/, "/%61pi")],
];

/** The limited paths of the app's Better Auth set-up (building it reads no database). */
const limitedPaths = () =>
  limitedAuthPaths(
    authForTest({ db: t.database.db, publicUrl: PUBLIC_URL, production: false }),
  ).filter((p) => !p.includes(":"));

test("every limited Better Auth path spelt another way is refused before anything reads it", async () => {
  expect(limitedPaths()).toEqual(
    expect.arrayContaining([
      "/api/auth/sign-in/email",
      "/api/auth/sign-up/email",
      "/api/auth/request-password-reset",
      "/api/auth/verify-password",
      "/api/auth/two-factor/get-totp-uri",
    ]),
  );
  for (const path of limitedPaths()) {
    for (const [name, spell] of tricks) {
      const tricked = spell(path);
      expect(tricked, `${name} of ${path}`).not.toBe(path);
      expect(canonicalPath(tricked), `${name} of ${path}`).toBe(path);
      const res = await raw("POST", tricked, {
        body: { email: "victim@example.com", password: "123456" },
      });
      expect(res.status, `${name}: ${tricked}`).toBe(400);
      expect(JSON.parse(res.body)).toEqual({
        error: "non_canonical_path",
        message: NON_CANONICAL_PATH_MESSAGE,
      });
    }
  }
  // Nothing reached Better Auth: the weak password made no account.
  const made = await t.database.db.select().from(user).where(eq(user.email, "victim@example.com"));
  expect(made).toEqual([]);
});

test("once the sign-in limit answers 429, no spelling of the path gets a guess through", async () => {
  const victim = await signUp(t.app);
  const guess = { email: victim.email, password: "wrong-guess-000" };
  const answers: number[] = [];
  for (let i = 0; i < 4; i += 1) {
    // Each guess "just after" the last, so a slow machine does not outwait the delay.
    await t.database.pool.query(
      "update rate_limit set window_start = now() where key like 'auth:sign-in:%'",
    );
    answers.push((await raw("POST", "/api/auth/sign-in/email", { body: guess })).status);
  }
  expect(answers.at(-1)).toBe(429);
  for (const [name, spell] of tricks) {
    const res = await raw("POST", spell("/api/auth/sign-in/email"), {
      body: { email: victim.email, password: victim.password },
    });
    expect(res.status, name).toBe(400);
  }
});

test("verify-password and two-factor/get-totp-uri check a password, so they are limited", async () => {
  for (const path of ["/api/auth/verify-password", "/api/auth/two-factor/get-totp-uri"]) {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: "2" });
    try {
      const a = await signUp(limited.app);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const res = await limited.app.inject({
          method: "POST",
          url: path,
          headers: { cookie: a.cookie },
          payload: { password: `guess-${i}-xyz` },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses[2], path).toBe(429);
    } finally {
      await limited.close();
    }
  }
});

test("a state-changing request on a path spelt another way never skips the Origin check", async () => {
  const a = await signUp(t.app);
  for (const [name, spell] of tricks) {
    const res = await raw("PUT", spell("/api/user"), {
      headers: { cookie: a.cookie, origin: "http://127.0.0.1:1" },
      body: { education: `tricked ${name}`, address: "", phoneNo: "", linkedIn: "" },
    });
    expect(res.status, name).toBeGreaterThanOrEqual(400);
    expect(res.status, name).toBeLessThan(500);
  }
  const [row] = await t.database.db
    .select({ education: user.education })
    .from(user)
    .where(eq(user.email, a.email.toLowerCase()));
  expect(row!.education).not.toMatch(/tricked/);
});

test("the Origin check takes only the store's own origin, not one naming the request's Host", async () => {
  const a = await signUp(t.app);
  const host = new URL(base).host;
  for (const origin of [`http://${host}`, "http://127.0.0.1:1", "null"]) {
    const res = await raw("PUT", "/api/user", {
      headers: { cookie: a.cookie, origin, host },
      body: { education: "from elsewhere", address: "", phoneNo: "", linkedIn: "" },
    });
    expect(res.status, origin).toBe(403);
  }
  // Outside /api too: a write to any path from another origin is refused before routing.
  const page = await raw("POST", "/dev/mailbox", { headers: { origin: "http://127.0.0.1:1" } });
  expect(page.status).toBe(403);
  const ours = await raw("PUT", "/api/user", {
    headers: { cookie: a.cookie },
    body: { education: "from the store", address: "", phoneNo: "", linkedIn: "" },
  });
  expect(ours.status).toBe(200);
});

test("a page read spelt another way is redirected to its plain form, never to another host", async () => {
  const cases: [string, string][] = [
    ["/./allproducts?q=brake", "/allproducts?q=brake"],
    ["/%61llproducts", "/allproducts"],
    ["//evil.test/x", "/evil.test/x"],
    ["/\\evil.test", "/evil.test"],
    ["/blogs/../review", "/review"],
  ];
  for (const [path, to] of cases) {
    const res = await raw("GET", path);
    expect(res.status, path).toBe(308);
    expect(res.headers.location, path).toBe(to);
  }
  const api = await raw("GET", "/%61pi/products");
  expect(api.status).toBe(400);
});
