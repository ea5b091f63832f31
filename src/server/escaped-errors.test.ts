import assert from "node:assert";
import pg from "pg";
import { expect, test } from "vitest";
import { getFreePort } from "./db/free-port";
import { classifyEscapedError } from "./escaped-errors";

/** An error as `pg` makes it from PostgreSQL's answer. */
function postgresError(code: string, message: string) {
  return Object.assign(new pg.DatabaseError(message, message.length, "error"), {
    code,
    severity: "ERROR",
  });
}

test.each([
  ["53100", 'could not extend file "base/16384/16385": No space left on device'],
  ["53200", "out of memory"],
  ["25006", "cannot execute UPDATE in a read-only transaction"],
  ["57P01", "terminating connection due to administrator command"],
  ["08006", "connection failure"],
  ["40001", "could not serialize access due to concurrent update"],
  ["XX000", "internal error"],
])("PostgreSQL's %s is a database error: logged, not fatal", (code, message) => {
  expect(classifyEscapedError(postgresError(code, message))).toEqual({
    kind: "database",
    fatal: false,
    code,
  });
});

test("a database error wrapped by Drizzle, or a bare SQLSTATE code, is still one", () => {
  const wrapped = new Error("Failed query: update pgboss.job …", {
    cause: postgresError("53100", "could not extend file"),
  });
  expect(classifyEscapedError(wrapped)).toMatchObject({ kind: "database", code: "53100" });
  const bare = Object.assign(new Error("could not extend file"), { code: "53100" });
  expect(classifyEscapedError(bare)).toMatchObject({ kind: "database", fatal: false });
  // pg's own words for a connection that died or could not be had.
  expect(classifyEscapedError(new Error("Connection terminated unexpectedly"))).toMatchObject({
    kind: "database",
    fatal: false,
  });
});

test("network failures are logged, not fatal: a refused fetch, a socket reset, a timeout", async () => {
  const port = await getFreePort();
  const refused: unknown = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
  // fetch rejects with a TypeError ("fetch failed") whose cause says ECONNREFUSED.
  expect(refused).toBeInstanceOf(TypeError);
  expect(classifyEscapedError(refused)).toEqual({
    kind: "network",
    fatal: false,
    code: "ECONNREFUSED",
  });
  const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
  expect(classifyEscapedError(reset)).toMatchObject({ kind: "network", fatal: false });
  // EPIPE is five letters, like a SQLSTATE, but not PostgreSQL's.
  const pipe = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
  expect(classifyEscapedError(pipe)).toEqual({ kind: "network", fatal: false, code: "EPIPE" });
  const timedOut: unknown = await new Promise((resolve) => {
    const signal = AbortSignal.timeout(1);
    signal.addEventListener("abort", () => resolve(signal.reason));
  });
  expect(classifyEscapedError(timedOut)).toMatchObject({ kind: "network", fatal: false });
});

test("the machine out of room is logged, not fatal", () => {
  const full = Object.assign(new Error("ENOSPC: no space left on device, write"), {
    code: "ENOSPC",
  });
  expect(classifyEscapedError(full)).toEqual({ kind: "resource", fatal: false, code: "ENOSPC" });
});

test("programming errors are fatal: TypeError, ReferenceError, a failed assertion, a non-Error", () => {
  let typeError: unknown;
  try {
    (undefined as unknown as { x: number }).x.toFixed();
  } catch (err) {
    typeError = err;
  }
  expect(classifyEscapedError(typeError)).toMatchObject({ kind: "programming", fatal: true });
  expect(classifyEscapedError(new ReferenceError("x is not defined"))).toMatchObject({
    fatal: true,
  });
  expect(classifyEscapedError(new RangeError("Invalid array length"))).toMatchObject({
    fatal: true,
  });
  let assertion: unknown;
  try {
    assert.equal(1, 2);
  } catch (err) {
    assertion = err;
  }
  expect(classifyEscapedError(assertion)).toMatchObject({ kind: "programming", fatal: true });
  expect(classifyEscapedError("something went wrong")).toEqual({
    kind: "programming",
    fatal: true,
  });
  expect(classifyEscapedError(undefined)).toMatchObject({ fatal: true });
});

test("an Error of another kind is logged as unclassified and is not fatal", () => {
  expect(classifyEscapedError(new Error("Queue mail not found"))).toEqual({
    kind: "unclassified",
    fatal: false,
    code: undefined,
  });
});
