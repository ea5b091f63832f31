import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { sql } from "./sql";
import { sqlNullableInts, sqlTexts } from "./sql-arrays";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

test("text arrays reach PostgreSQL as written: quotes, backslashes, separators, NULL as a word, nulls", async () => {
  const texts = [
    'say "hi"',
    "back\\slash\\",
    "a,b",
    "{braces}",
    "NULL",
    "",
    " spaced ",
    "ünïcödé – ✔",
    "line\nbreak",
    null,
  ];
  const { rows } = await database.db.execute<{ x: string | null; n: number }>(
    sql`select x, n::int from unnest(${sqlTexts(texts)}) with ordinality as t(x, n) order by n`,
  );
  expect(rows.map((r) => r.x)).toEqual(texts);
});

test("int arrays keep their nulls and order", async () => {
  const ints = [3, null, -7, 0, 2147483647, null];
  const { rows } = await database.db.execute<{ x: number | null }>(
    sql`select x from unnest(${sqlNullableInts(ints)}) with ordinality as t(x, n) order by n`,
  );
  expect(rows.map((r) => r.x)).toEqual(ints);
});
