import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { SessionCache, type SessionCacheOptions } from "./session-cache";
import type { SessionUser } from "../http/request-context";

const user = (id: string): SessionUser =>
  ({ id, sessionId: `s-${id}`, email: `${id}@example.com`, name: id, role: "user" }) as SessionUser;

/** A cache over a counting reader: the cookie is the token, "cookie-x" → user x. */
function setUp(opts: Omit<SessionCacheOptions, "now"> = {}) {
  let clock = 0;
  const reads: string[] = [];
  let release: (() => void) | undefined;
  let held = false;
  const cache = new SessionCache(
    (cookie) => cookie,
    async (cookie) => {
      reads.push(cookie!);
      if (held) await new Promise<void>((resolve) => (release = resolve));
      return cookie === "nobody" ? null : user(cookie!.replace("cookie-", ""));
    },
    { ...opts, now: () => clock },
  );
  return {
    cache,
    reads,
    tick: (ms: number) => (clock += ms),
    hold: () => (held = true),
    release: () => {
      held = false;
      release?.();
    },
  };
}

test("while the listener hears, a session is read once and then answered from memory", async () => {
  const { cache, reads } = setUp();
  cache.setListening(true);
  expect((await cache.user("cookie-a"))?.id).toBe("a");
  expect((await cache.user("cookie-a"))?.id).toBe("a");
  expect(await cache.user("nobody")).toBeNull();
  expect(await cache.user("nobody")).toBeNull();
  expect(await cache.user(undefined)).toBeNull();
  expect(reads).toEqual(["cookie-a", "nobody"]);
});

test("nothing is kept while the listener is not proven to hear, and losing it forgets all", async () => {
  const { cache, reads } = setUp();
  await cache.user("cookie-a");
  await cache.user("cookie-a");
  expect(reads).toHaveLength(2);
  cache.setListening(true);
  await cache.user("cookie-a");
  cache.setListening(false);
  cache.setListening(true);
  await cache.user("cookie-a");
  expect(reads).toHaveLength(4);
});

test("a change heard (invalidate) forgets every session; an entry lives ttlMs at most", async () => {
  const { cache, reads, tick } = setUp({ ttlMs: 1000 });
  cache.setListening(true);
  await cache.user("cookie-a");
  cache.invalidate();
  await cache.user("cookie-a");
  expect(reads).toHaveLength(2);
  tick(999);
  await cache.user("cookie-a");
  expect(reads).toHaveLength(2);
  tick(1);
  await cache.user("cookie-a");
  expect(reads).toHaveLength(3);
});

test("a read under way when a change is heard is answered but not kept (it may predate the change)", async () => {
  const { cache, reads, hold, release } = setUp();
  cache.setListening(true);
  hold();
  const pending = cache.user("cookie-a");
  cache.invalidate();
  release();
  expect((await pending)?.id).toBe("a");
  await cache.user("cookie-a");
  expect(reads).toHaveLength(2);
});

test("past maxEntries the cache starts again empty rather than grow", async () => {
  const { cache, reads } = setUp({ maxEntries: 2 });
  cache.setListening(true);
  for (const c of ["cookie-a", "cookie-b", "cookie-c", "cookie-a"]) await cache.user(c);
  expect(reads).toEqual(["cookie-a", "cookie-b", "cookie-c", "cookie-a"]);
});

test("a caller answered from memory carries the check an action makes of it; a caller just read does not", async () => {
  const { cache, reads } = setUp({
    stillSignedIn: (token, userId) => sql`still(${token}, ${userId})`,
  });
  cache.setListening(true);
  const read = await cache.user("cookie-a");
  expect(read?.stillSignedIn).toBeUndefined();
  const remembered = await cache.user("cookie-a");
  expect(reads).toEqual(["cookie-a"]);
  expect({ ...remembered, stillSignedIn: undefined }).toEqual(read);
  expect(remembered?.stillSignedIn?.queryChunks).toEqual(
    sql`still(${"cookie-a"}, ${"a"})`.queryChunks,
  );
  // What is kept is the read: the check is made anew for each answer, never stored.
  expect((await cache.user("cookie-a"))?.stillSignedIn).not.toBe(remembered?.stillSignedIn);
  expect(await cache.user("nobody")).toBeNull();
  expect(await cache.user("nobody")).toBeNull();
  // A read that acts on nothing (the catalog's prices, a market) gets the caller alone.
  expect(await cache.reader("cookie-a")).toEqual(read);
  expect(reads).toEqual(["cookie-a", "nobody"]);
});

test("a cookie header's signature is checked once; one that fails is checked every time", async () => {
  const checked: string[] = [];
  const cache = new SessionCache(
    (cookie) => {
      checked.push(cookie);
      return cookie.startsWith("signed-") ? cookie.slice("signed-".length) : undefined;
    },
    async (cookie) => (cookie ? user(cookie) : null),
    { maxEntries: 2 },
  );
  cache.setListening(true);
  expect((await cache.user("signed-a"))?.id).toBe("signed-a");
  expect((await cache.user("signed-a"))?.id).toBe("signed-a");
  expect(await cache.user("forged-a")).toBeNull();
  expect(await cache.user("forged-a")).toBeNull();
  expect(checked).toEqual(["signed-a", "forged-a", "forged-a"]);
  // At most maxEntries headers kept: past it they are forgotten and checked again.
  await cache.user("signed-b");
  await cache.user("signed-c");
  await cache.user("signed-a");
  expect(checked.slice(3)).toEqual(["signed-b", "signed-c", "signed-a"]);
});
