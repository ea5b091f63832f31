import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestDatabase } from "../../../tests/support/test-database";
import { createDatabase, type Database } from "./database";

let database: Database;
let url: string;
beforeAll(async () => {
  url = (await createTestDatabase()).directUrl;
  database = createDatabase(url);
});
afterAll(() => database.close());

const backend = async () =>
  (await database.pool.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;

test("a statement PostgreSQL refuses leaves its connection in the pool", async () => {
  const pid = await backend();
  const before = database.pool.totalCount;
  // An error raised by a statement (as a refused placement raises 40001), then a division by zero.
  await expect(
    database.pool.query(
      "do $$ begin raise exception 'changed' using errcode = 'serialization_failure'; end $$",
    ),
  ).rejects.toMatchObject({ code: "40001" });
  await expect(database.pool.query("select 1 / 0")).rejects.toMatchObject({ code: "22012" });
  expect(database.pool.totalCount).toBe(before);
  expect(await backend()).toBe(pid);
});

test("a connection that ended is not handed out again", async () => {
  const pid = await backend();
  // The connection ends itself: the statement fails with FATAL (or the socket closes).
  await expect(
    database.pool.query("select pg_terminate_backend(pg_backend_pid())"),
  ).rejects.toThrow();
  expect(await backend()).not.toBe(pid);
});

test("the callback form still answers", async () => {
  const rows = await new Promise<unknown[]>((resolve, reject) =>
    database.pool.query("select 2 as n", (err, res) => (err ? reject(err) : resolve(res.rows))),
  );
  expect(rows).toEqual([{ n: 2 }]);
});
