import { and, eq, sql } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { idempotencyMessages } from "../../contract/idempotency";
import { clientStillWaiting } from "../client-waiting";
import { errorHandler } from "../error-handler";
import { BUSY_MESSAGE, HttpError, unavailable } from "../errors";
import type { SessionUser } from "../http/request-context";
import { applyRequestTimeout } from "../request-deadline";
import { user } from "../users/tables";
import { idempotentRoutes, STALE_MARGIN_MS } from "./idempotent-routes";
import { canonicalJson, requestHash } from "./request-hash";
import { createIdempotencyKeys } from "./service";
import { idempotencyKeys } from "./tables";

// The rules of the Idempotency-Key on a small app of its own, whose handlers wait for the test
// to let them go on (no timers of the test's own): what a wait, a deadline, a failure before or
// after the commit, and a claim left by a stopped process leave of a key. The store's routes
// themselves: idempotency.test.ts.

let db: TestDatabase;
/** Deadlines far off: the rules without a deadline in the way. */
let app: FastifyInstance;
let waiting: () => number;
/** Deadlines of a second and two (a placement's, another route's): what a deadline leaves. */
let hurried: FastifyInstance;
const ORDER_MS = 1_000;
const REQUEST_MS = 2_000;
/** How often each request id's handler ran. */
const ran: Record<string, number> = {};
/** Each running handler waits for the test: `gates.get(id)!(outcome)`. */
type Outcome =
  "ok" | "fail" | "fail after commit" | "busy after commit" | "client gone" | "too many";
const gates = new Map<string, (outcome: Outcome) => void>();

const users = ["idem-user-a", "idem-user-b"];

async function storeLike(requestMs: number, orderMs: number) {
  const app = Fastify();
  app.setErrorHandler(errorHandler);
  applyRequestTimeout(app, requestMs, orderMs);
  app.decorateRequest("user", null);
  // The guard: the caller from a test header.
  app.addHook("onRequest", async (req) => {
    const id = req.headers["x-user"];
    if (typeof id === "string") req.user = { id } as SessionUser;
  });
  const routes = idempotentRoutes(app, {
    keys: createIdempotencyKeys(db.db),
    requestTimeoutMs: requestMs,
    orderTimeoutMs: orderMs,
  });

  for (const [url, placesOrder] of [
    ["/place", true],
    ["/pay", false],
  ] as const) {
    app.post<{ Body: { id: string } }>(
      url,
      { config: { placesOrder, idempotent: true } },
      async (req, reply) => {
        const { id } = req.body;
        ran[id] = (ran[id] ?? 0) + 1;
        const outcome = await new Promise<Outcome>((resolve) => gates.set(id, resolve));
        gates.delete(id);
        if (outcome === "too many") throw new HttpError(429, "rate_limited", "Too many");
        if (outcome === "fail") throw unavailable();
        if (outcome === "client gone") throw new HttpError(499, "client_closed_request", "Gone");
        // A placement asks last whether its client still waits (a yes: it commits).
        if (placesOrder && !clientStillWaiting(req)(true)) {
          throw new HttpError(499, "client_closed_request", "Gone");
        }
        if (outcome === "fail after commit") throw unavailable();
        // The database refused the commit (a locked row waited for too long, say).
        if (outcome === "busy after commit") throw new HttpError(503, "busy", BUSY_MESSAGE);
        return reply.code(201).send({ done: id, run: ran[id] });
      },
    );
  }
  await app.ready();
  return { app, waiting: routes.waiting };
}

beforeAll(async () => {
  db = await createTestDatabase();
  await db.db
    .insert(user)
    .values(users.map((id) => ({ id, name: id, email: `${id}@example.com` })));
  ({ app, waiting } = await storeLike(60_000, 30_000));
  hurried = (await storeLike(REQUEST_MS, ORDER_MS)).app;
});
afterAll(async () => {
  await app.close();
  await hurried.close();
  await db.close();
});

let n = 0;
const freshKey = () => `key-${++n}-${Date.now()}`;
const send = (
  url: string,
  key: string | undefined,
  id: string,
  who = users[0]!,
  to: FastifyInstance = app,
) =>
  to.inject({
    method: "POST",
    url,
    headers: { "x-user": who, ...(key === undefined ? {} : { "idempotency-key": key }) },
    payload: { id },
  });
const whenRunning = (id: string) => expect.poll(() => gates.has(id)).toBe(true);
const rowOf = async (key: string, who = users[0]!) =>
  (
    await db.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, who), eq(idempotencyKeys.key, key)))
  )[0];

test("a second request with the key while the first runs waits for it and is answered what it was answered; the work runs once", async () => {
  const key = freshKey();
  const first = send("/place", key, "wait-1");
  await whenRunning("wait-1");
  const second = send("/place", key, "wait-1");
  // The second waits (its handler has not run) until the first is let go.
  await expect.poll(() => waiting()).toBe(1);
  expect((await rowOf(key))?.state).toBe("running");
  gates.get("wait-1")!("ok");
  const [a, b] = await Promise.all([first, second]);
  expect(a.statusCode).toBe(201);
  expect(b.statusCode).toBe(201);
  expect(b.body).toBe(a.body);
  expect(b.headers["idempotent-replayed"]).toBe("true");
  expect(a.headers["idempotent-replayed"]).toBeUndefined();
  expect(ran["wait-1"]).toBe(1);
  expect(await rowOf(key)).toMatchObject({ state: "done", statusCode: 201, response: a.body });
});

test("a request still waiting for the first one at its bound is answered 409, and nothing runs", async () => {
  const key = freshKey();
  const first = send("/pay", key, "bound-1", users[0], hurried);
  await whenRunning("bound-1");
  // The bound is half the route's deadline (here 1 of 2 s), well before that deadline.
  const second = await send("/pay", key, "bound-1", users[0], hurried);
  expect(second.statusCode).toBe(409);
  expect(second.json()).toMatchObject({
    error: "idempotency_key_in_use",
    message: idempotencyMessages.inUse,
  });
  gates.get("bound-1")!("ok");
  // The first is answered 201, or 503 if its own deadline came first on a slow machine.
  expect([201, 503]).toContain((await first).statusCode);
  expect(ran["bound-1"]).toBe(1);
});

test("the same key with another body, or on another route, is 422; another user's same key is their own", async () => {
  const key = freshKey();
  const first = send("/place", key, "body-1");
  await whenRunning("body-1");
  gates.get("body-1")!("ok");
  expect((await first).statusCode).toBe(201);
  for (const res of [await send("/place", key, "body-2"), await send("/pay", key, "body-1")]) {
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: "idempotency_key_reused",
      message: idempotencyMessages.reused,
    });
  }
  expect(ran["body-2"]).toBeUndefined();
  const other = send("/place", key, "body-1", users[1]);
  await whenRunning("body-1");
  gates.get("body-1")!("ok");
  expect((await other).statusCode).toBe(201);
  expect(ran["body-1"]).toBe(2);
});

test("a bad key is 400 and runs nothing; no key runs the route as it is and stores nothing", async () => {
  for (const key of ["", "x".repeat(256), "tab\there"]) {
    const res = await send("/place", key, "bad-key");
    expect(res.statusCode, key).toBe(400);
    expect(res.json()).toMatchObject({
      error: "invalid_idempotency_key",
      message: idempotencyMessages.invalid,
    });
  }
  expect(ran["bad-key"]).toBeUndefined();
  const longest = send("/place", "~".repeat(255), "longest-key");
  await whenRunning("longest-key");
  gates.get("longest-key")!("ok");
  expect((await longest).statusCode).toBe(201);

  const before = await db.db.select({ n: sql<number>`count(*)::int` }).from(idempotencyKeys);
  const plain = send("/place", undefined, "no-key");
  await whenRunning("no-key");
  gates.get("no-key")!("ok");
  const res = await plain;
  expect(res.statusCode).toBe(201);
  expect(res.headers["idempotent-replayed"]).toBeUndefined();
  const after = await db.db.select({ n: sql<number>`count(*)::int` }).from(idempotencyKeys);
  expect(after).toEqual(before);
});

test("a placement answered 503 at its deadline made nothing: the key is free and the retry runs", async () => {
  const key = freshKey();
  const late = await send("/place", key, "deadline-place", users[0], hurried);
  expect(late.statusCode).toBe(503);
  expect(await rowOf(key)).toBeUndefined();
  // The first one, let go now, commits nothing (its client was told 503).
  gates.get("deadline-place")!("ok");
  await expect.poll(() => gates.has("deadline-place")).toBe(false);
  const retry = send("/place", key, "deadline-place", users[0], app);
  await whenRunning("deadline-place");
  gates.get("deadline-place")!("ok");
  const res = await retry;
  expect(res.statusCode).toBe(201);
  expect(res.json()).toEqual({ done: "deadline-place", run: 2 });
});

test("another route answered 503 at its deadline keeps the key until its work ends: done, the outcome is unknown; failed, it is free", async () => {
  const key = freshKey();
  expect((await send("/pay", key, "deadline-pay", users[0], hurried)).statusCode).toBe(503);
  expect((await rowOf(key))?.state).toBe("running");
  // Its work went on after the 503 and finished: whether it did what was asked is not known to
  // the client, so the key is never run again.
  gates.get("deadline-pay")!("ok");
  await expect.poll(async () => (await rowOf(key))?.state).toBe("unknown");
  const retry = await send("/pay", key, "deadline-pay");
  expect(retry.statusCode).toBe(409);
  expect(retry.json()).toMatchObject({
    error: "idempotency_outcome_unknown",
    message: idempotencyMessages.outcomeUnknown,
  });
  expect(ran["deadline-pay"]).toBe(1);

  const failedKey = freshKey();
  expect((await send("/pay", failedKey, "deadline-pay-fails", users[0], hurried)).statusCode).toBe(
    503,
  );
  gates.get("deadline-pay-fails")!("fail");
  await expect.poll(() => rowOf(failedKey)).toBeUndefined();
});

test("a failure before the commit, one the database refused, a refusal for too many requests and a client gone free the key; a failure after the commit never runs again", async () => {
  for (const outcome of ["fail", "busy after commit", "too many", "client gone"] as const) {
    const key = freshKey();
    const id = `free-${outcome}`;
    const first = send("/place", key, id);
    await whenRunning(id);
    gates.get(id)!(outcome);
    expect((await first).statusCode).toBeGreaterThanOrEqual(429);
    expect(await rowOf(key), outcome).toBeUndefined();
    const retry = send("/place", key, id);
    await whenRunning(id);
    gates.get(id)!("ok");
    expect((await retry).statusCode).toBe(201);
  }

  const key = freshKey();
  const first = send("/place", key, "after-commit");
  await whenRunning("after-commit");
  gates.get("after-commit")!("fail after commit");
  expect((await first).statusCode).toBe(503);
  expect((await rowOf(key))?.state).toBe("unknown");
  const retry = await send("/place", key, "after-commit");
  expect(retry.statusCode).toBe(409);
  expect(retry.json().error).toBe("idempotency_outcome_unknown");
  expect(ran["after-commit"]).toBe(1);
});

test("a claim left running by a process that stopped is never run again: 409, check and use a new key", async () => {
  const key = freshKey();
  const hash = requestHash("POST /place", {}, { id: "crashed" });
  await db.db.insert(idempotencyKeys).values({
    userId: users[0]!,
    key,
    route: "POST /place",
    requestHash: hash,
    state: "running",
    createdAt: new Date(Date.now() - 30_000 - STALE_MARGIN_MS - 60_000),
    expiresAt: new Date(Date.now() + 3600_000),
  });
  const res = await send("/place", key, "crashed");
  expect(res.statusCode).toBe(409);
  expect(res.json()).toEqual({
    error: "idempotency_outcome_unknown",
    message: idempotencyMessages.outcomeUnknown,
  });
  expect(ran.crashed).toBeUndefined();
});

test("a key past its 24 hours is free again, whatever it was used for", async () => {
  const key = freshKey();
  await db.db.insert(idempotencyKeys).values({
    userId: users[0]!,
    key,
    route: "POST /pay",
    requestHash: "not this request",
    state: "done",
    statusCode: 201,
    response: '{"done":"long ago"}',
    createdAt: new Date(Date.now() - 25 * 3600_000),
    expiresAt: new Date(Date.now() - 3600_000),
  });
  const res = send("/place", key, "expired-key");
  await whenRunning("expired-key");
  gates.get("expired-key")!("ok");
  expect((await res).json()).toEqual({ done: "expired-key", run: 1 });
  expect(await rowOf(key)).toMatchObject({ state: "done", route: "POST /place" });
});

test("the request's hash does not depend on the order of its fields", () => {
  expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: undefined }], c: "x" } })).toBe(
    '{"a":{"c":"x","d":[1,{"f":2}]},"b":1}',
  );
  expect(requestHash("POST /a", { id: "1" }, { x: 1, y: 2 })).toBe(
    requestHash("POST /a", { id: "1" }, { y: 2, x: 1 }),
  );
  expect(requestHash("POST /a", { id: "1" }, { x: 1 })).not.toBe(
    requestHash("POST /a", { id: "2" }, { x: 1 }),
  );
});
