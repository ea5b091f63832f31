import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { createDatabase } from "./database";
import { getFreePort } from "./free-port";
import {
  lsnValue,
  ownWritesHook,
  primaryOnly,
  readingOwnWrites,
  replicaReads,
  wroteAt,
  type ReplicaReads,
} from "./read-replica";

// The happy path (a real streaming replica, its lag, read-your-writes) is
// tests/system/read-replica.test.ts; these are the rules that need no standby.

let primary: TestDatabase;
beforeAll(async () => {
  primary = await createTestDatabase();
});
afterAll(async () => {
  await primary?.close();
});

const settings = { maxLagMs: 2_000, ownWritesMs: 10_000, secureCookie: false };
const quiet = { warn: () => {} };
/** Which database a read inside `run` used, told by a reader made on each. */
const whichOf = (reads: ReplicaReads) => {
  const reader = reads.readers((db) => ({ on: db === primary.db ? "primary" : "replica" }));
  return (cookie?: string) => reads.run({ headers: { cookie } }, async () => reader.on);
};

test("WAL positions order as numbers; the own-writes cookie is read back", () => {
  expect(lsnValue("0/16B3748") < lsnValue("0/16B3750")).toBe(true);
  expect(lsnValue("1/0") > lsnValue("0/FFFFFFFF")).toBe(true);
  expect(wroteAt("a=1; pw_wrote=1700000000000; b=2")).toBe(1_700_000_000_000);
  expect(wroteAt("xpw_wrote=5")).toBeUndefined();
  expect(wroteAt(undefined)).toBeUndefined();
});

test("without a replica every read is the primary's and nothing is set", async () => {
  const reads = primaryOnly(primary.db);
  expect(reads.db).toBe(primary.db);
  expect(await whichOf(reads)()).toBe("primary");
  expect(reads.readsOwnWrites({ headers: { cookie: `pw_wrote=${Date.now()}` } })).toBe(false);
  expect(reads.state()).toMatchObject({ configured: false, usable: false });
});

test("a server that is no standby in recovery is never read from", async () => {
  // The same PostgreSQL again: it answers, but it is a primary.
  const reads = replicaReads(primary, createDatabase(primary.url), settings, quiet);
  try {
    expect(await reads.check()).toMatchObject({ configured: true, healthy: false, usable: false });
    expect(await whichOf(reads)()).toBe("primary");
  } finally {
    await reads.close();
  }
});

test("a replica that does not answer counts as away, within the check's bound", async () => {
  const port = await getFreePort();
  const away = createDatabase(`postgres://store@127.0.0.1:${port}/store`);
  const reads = replicaReads(primary, away, settings, quiet);
  try {
    expect(await reads.check()).toMatchObject({ healthy: false, lagMs: null, usable: false });
    expect(await whichOf(reads)()).toBe("primary");
  } finally {
    await reads.close();
  }
});

test("an admin's write sets the cookie that sends their reads to the primary for the window", async () => {
  let now = 1_000_000;
  const reads = replicaReads(primary, createDatabase(primary.url), settings, quiet, () => now);
  try {
    const hook = ownWritesHook(reads);
    const headers = new Map<string, unknown>([["set-cookie", "session=abc; Path=/"]]);
    const reply = {
      statusCode: 200,
      getHeader: (name: string) => headers.get(name),
      header: (name: string, value: unknown) => headers.set(name, value),
    };
    const done = () => {};
    hook({ method: "GET", user: { role: "admin" } }, reply, "", done);
    hook({ method: "PATCH", user: { role: "customer" } }, reply, "", done);
    expect(headers.get("set-cookie")).toBe("session=abc; Path=/");
    hook({ method: "PATCH", user: { role: "admin" } }, reply, "", done);
    expect(headers.get("set-cookie")).toEqual([
      "session=abc; Path=/",
      "pw_wrote=1000000; Max-Age=10; Path=/; HttpOnly; SameSite=Lax",
    ]);

    const req = { headers: { cookie: "session=abc; pw_wrote=1000000" } };
    expect(reads.readsOwnWrites(req)).toBe(true);
    expect(await reads.run(req, async () => readingOwnWrites())).toBe(true);
    now += 10_000;
    expect(reads.readsOwnWrites(req)).toBe(false);
    expect(await reads.run(req, async () => readingOwnWrites())).toBe(false);
  } finally {
    await reads.close();
  }
});
