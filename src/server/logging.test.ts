import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { expect, test } from "vitest";
import { buildApp } from "./app";
import { loadConfig } from "./config";
import { createLogger, requestLogger } from "./logging";
import { testDatabaseForTests } from "../../tests/support/test-database";

/** The real app logging into memory, with or without a trusted proxy in front. */
const database = testDatabaseForTests();
const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const l of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(l));
    done();
  },
});
/** The app, with or without a trusted proxy, for `use`: closed when it is done. */
async function withApp(trustProxy: boolean, use: (app: FastifyInstance) => Promise<void>) {
  const app = await buildApp({
    config: loadConfig({
      NODE_ENV: "test",
      DATABASE_URL: database.url,
      BETTER_AUTH_SECRET: "test-secret-that-is-long-enough-0123456789",
      DEMO_IDENTITY_PROVIDER: "false",
      TRUST_PROXY: String(trustProxy),
    }),
    database,
    logger: createLogger("info", sink),
  });
  try {
    await use(app);
  } finally {
    await app.close();
  }
}

test("every line is JSON; no cookie, password, authorization or email reaches the log", async () => {
  await withApp(false, async (app) => {
    const email = "private.person@example.com";
    const signUp = await app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      payload: { email, password: "hunter2-secret", name: "Private Person" },
    });
    expect(signUp.statusCode).toBe(200);
    const cookie = signUp.headers["set-cookie"];
    // Signed in, an email in the path, a bad password, a bearer header, an error logged with it.
    await app.inject({
      url: `/api/admin/${encodeURIComponent(email)}`,
      headers: { cookie: String(cookie), authorization: "Bearer sk_live_abcdef" },
    });
    // Refused (401), so its request line is logged at info, URL and all.
    await app.inject({
      url: `/api/admin/${encodeURIComponent(email)}`,
      headers: { authorization: "Bearer sk_live_abcdef" },
    });
    await app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email, password: "wrong-password-here" },
    });
    app.log.error(
      { err: new Error(`duplicate key ${email}`), user: { email } },
      `mail to ${email}`,
    );
    const text = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThan(3);
    for (const secret of [email, "private.person", "hunter2-secret", "wrong-password", "sk_live"]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/better-auth\.session_token=/);
    expect(text).toContain("[email]");
    // The email in the URL is replaced, the route stays readable.
    expect(lines.some((l) => JSON.stringify(l).includes("/api/admin/[email]"))).toBe(true);
  });
});

test("one line per failed request, with a generated id: a client's X-Request-Id is not taken", async () => {
  await withApp(false, async (app) => {
    lines.length = 0;
    // A request that succeeds quickly is not logged at info (nginx's access log has it).
    const fine = await app.inject({ url: "/api/health/live" });
    expect(lines.filter((l) => l.reqId === fine.headers["x-request-id"])).toHaveLength(0);
    const res = await app.inject({
      url: "/api/no-such-route",
      headers: { "x-request-id": "forged-by-client" },
    });
    const id = res.headers["x-request-id"];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const mine = lines.filter((l) => l.reqId === id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      msg: "request completed",
      req: { method: "GET", url: "/api/no-such-route" },
      res: { statusCode: 404 },
    });
    expect(JSON.stringify(lines)).not.toContain("forged-by-client");
  });
});

test("behind a trusted proxy (TRUST_PROXY=true) its X-Request-Id is the request's id", async () => {
  await withApp(true, async (app) => {
    lines.length = 0;
    const res = await app.inject({
      url: "/api/no-such-route",
      headers: { "x-request-id": "nginx-3f2a9c" },
    });
    expect(res.headers["x-request-id"]).toBe("nginx-3f2a9c");
    expect(lines.filter((l) => l.reqId === "nginx-3f2a9c")).toHaveLength(1);
    // Something that is no id (spaces, a log-injection attempt) is replaced.
    const odd = await app.inject({
      url: "/api/health/live",
      headers: { "x-request-id": "a b\nc" },
    });
    expect(odd.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

test("a request's logger is made when the request first logs, and carries its id", () => {
  lines.length = 0;
  const parent = createLogger("info", sink);
  let made = 0;
  const child = parent.child.bind(parent);
  parent.child = ((...args: Parameters<typeof child>) => {
    made += 1;
    return child(...args);
  }) as typeof parent.child;
  const log = requestLogger(parent, { reqId: "req-1" }, {});
  expect(log.level).toBe("info");
  log.debug("below the level");
  expect(made).toBe(1); // a call made it, level or not
  const quiet = requestLogger(parent, { reqId: "req-2" }, {});
  expect(quiet.level).toBe("info");
  expect(made).toBe(1); // reading the level makes none
  log.warn({ user: { email: "someone@example.com" } }, "with an object");
  log.info("plain");
  expect(made).toBe(1);
  expect(lines).toMatchObject([
    { reqId: "req-1", level: 40, msg: "with an object", user: { email: "[redacted]" } },
    { reqId: "req-1", level: 30, msg: "plain" },
  ]);
  expect(log.child({ job: "x" }, {})).toBeDefined();
});
