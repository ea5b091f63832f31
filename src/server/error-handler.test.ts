import Fastify from "fastify";
import { afterAll, expect, test } from "vitest";
import { errorHandler, UNAVAILABLE_MESSAGE } from "./error-handler";
import { conflict, DISK_FULL_MESSAGE, unavailable } from "./errors";

// Errors as node-postgres, Node and Fastify raise them when the database is away or too slow,
// wrapped in `cause` as Drizzle wraps them.
const postgres = (code: string) =>
  Object.assign(new Error("terminating connection"), { code, severity: "FATAL" });
const failures: Record<string, () => Error> = {
  "57014 statement timeout": () => postgres("57014"),
  "57P01 admin shutdown": () => postgres("57P01"),
  "57P03 starting up": () => postgres("57P03"),
  "08006 connection failure": () => postgres("08006"),
  "25P03 idle in transaction": () => postgres("25P03"),
  "connection refused": () =>
    Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
  "connection reset": () => Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
  "pool timeout": () => new Error("timeout exceeded when trying to connect"),
  "connection lost": () => new Error("Connection terminated unexpectedly"),
  "dead client": () => new Error("Client has encountered a connection error and is not queryable"),
};

const app = Fastify({ logger: false });
app.setErrorHandler(errorHandler);
app.get<{ Params: { name: string } }>("/fail/:name", async (req) => {
  throw new Error("Failed query", { cause: failures[req.params.name]!() });
});
app.get("/plain", async () => {
  throw new Error("a bug");
});
const full: Record<string, () => Error> = {
  "53100 could not extend file": () =>
    new Error("Failed query", {
      cause: Object.assign(new Error("could not extend file"), {
        code: "53100",
        severity: "ERROR",
      }),
    }),
  "ENOSPC writing an upload": () =>
    Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" }),
};
app.get<{ Params: { name: string } }>("/full/:name", async (req) => {
  throw full[req.params.name]!();
});
afterAll(() => app.close());

test.each(Object.keys(failures))("%s answers 503 with Retry-After", async (name) => {
  const res = await app.inject({ url: `/fail/${encodeURIComponent(name)}` });
  expect(res.statusCode).toBe(503);
  expect(res.headers["retry-after"]).toBe("1");
  expect(res.json()).toEqual({ error: "unavailable", message: UNAVAILABLE_MESSAGE });
});

test("a row lock waited for past DB_LOCK_TIMEOUT_SECONDS answers 503 busy, try again", async () => {
  failures["55P03 lock not available"] = () =>
    Object.assign(new Error("canceling statement due to lock timeout"), {
      code: "55P03",
      severity: "ERROR",
    });
  const res = await app.inject({ url: `/fail/${encodeURIComponent("55P03 lock not available")}` });
  expect(res.statusCode).toBe(503);
  expect(res.headers["retry-after"]).toBe("1");
  expect(res.json()).toEqual({
    error: "busy",
    message: "The store is busy. Please try again in a moment.",
  });
});

test.each(Object.keys(full))("%s answers 507 with a clear message", async (name) => {
  const res = await app.inject({ url: `/full/${encodeURIComponent(name)}` });
  expect(res.statusCode).toBe(507);
  expect(res.json()).toEqual({ error: "insufficient_storage", message: DISK_FULL_MESSAGE });
});

test("an error that is not the database's stays a 500", async () => {
  const res = await app.inject({ url: "/plain" });
  expect(res.statusCode).toBe(500);
  expect(res.headers["retry-after"]).toBeUndefined();
});

test("a refusal is made without a stack (never logged); a server-side failure keeps its own", () => {
  expect(conflict("Only 3 left in stock").stack).toBe("Error: Only 3 left in stock");
  expect(unavailable().stack?.split("\n").length).toBeGreaterThan(1);
  expect(new Error("a bug").stack?.split("\n").length).toBeGreaterThan(1);
});
