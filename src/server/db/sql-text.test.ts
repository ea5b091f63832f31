import { sql as drizzleSql, Param, SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { expect, test } from "vitest";
import { products } from "../catalog/tables";
import { sqlInts, sqlTexts, sqlUuids } from "./sql-arrays";
import { sql } from "./sql";
import { sqlText } from "./sql-text";

const dialect = new PgDialect();
const drizzles = (query: SQL) => {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { sql: text, params };
};

test("writes what drizzle writes for text, values, lists, nested templates, joins and raw text", () => {
  const at = new Date("2026-11-27T10:00:00Z");
  const inner = sql`select id from t where a = ${"x"} and b = ${7}`;
  const queries: SQL[] = [
    sql`select 1`,
    sql``,
    sql.empty(),
    sql`${"only a value"}`,
    sql`select ${1}, ${"two"}, ${null}, ${true}, ${false}, ${2.5}, ${10n}`,
    sql`select ${at}::timestamptz, ${Buffer.from("ab")}, ${{ a: 1 }}::jsonb`,
    sql`select * from t where id in ${[1, 2, 3]} and x in ${["a", sql`lower(${"B"})`]}`,
    sql`with w as (${inner}) select * from w where c = ${"y"} ${undefined} and ${inner}`,
    sql`select ${sql.join([sql`a`, sql`${1}`, sql`${"b"}`], sql`, `)}`,
    sql`select ${sql.raw("now()")}, ${sql.param("p")}, ${sql.param(null)}`,
    sql`select ${sqlUuids(["00000000-0000-4000-8000-000000000001"])}, ${sqlInts([1, 2])}, ${sqlTexts(["a", null])}`,
    sql`select ${new Param(5, { mapToDriverValue: (v: unknown) => `n${String(v)}` })}`,
    sql`${sql`${sql`${sql`deep ${1}`} ${2}`} ${3}`} ${4}`,
    // drizzle's own pieces without values: their text as drizzle writes it, in place.
    sql`select ${products.id}, ${products.name} from ${products} where ${products.id} = ${"x"}`,
    sql`select * from ${sql.identifier('we"ird')} where a in ${[products.name, 1]}`,
    sql`select ${sql`${products.priceCents}`.as("p")} from ${products}`,
  ];
  for (const query of queries) expect(sqlText(query, dialect)).toEqual(drizzles(query));
});

test("the order path's own builders are written the same too, values numbered in order", () => {
  const many = Array.from({ length: 40 }, (_, i) => sql`(${i}, ${`v${i}`})`);
  const query = sql`insert into t values ${sql.join(many, sql`, `)} returning ${sql`${"r"}`}`;
  const ours = sqlText(query, dialect)!;
  expect(ours).toEqual(drizzles(query));
  expect(ours.params).toHaveLength(81);
  expect(ours.sql.endsWith("returning $81")).toBe(true);
});

test("leaves the whole to drizzle when a piece has values of its own or is written otherwise: placeholders, inlined values, values that turn into SQL", () => {
  const notOurs: SQL[] = [
    sql`select ${sql.placeholder("id")}`,
    sql`select ${new Param(sql.placeholder("id"))}`,
    sql`select ${"x"}`.inlineParams(),
    sql`select ${sql`a = ${"x"}`.inlineParams()}`,
    sql`select ${new Param(1, { mapToDriverValue: () => sql`now()` })}`,
  ];
  for (const query of notOurs) expect(sqlText(query, dialect)).toBeUndefined();
});

test("the server's sql tag makes what drizzle's makes, its text pieces once per template", () => {
  const at = (id: string, n: number) => sql`select * from t where id = ${id} and n > ${n}`;
  const ours = [at("a", 1), at("b", 2)];
  for (const [i, query] of ours.entries()) {
    const theirs = drizzleSql`select * from t where id = ${["a", "b"][i]!} and n > ${i + 1}`;
    expect(dialect.sqlToQuery(query)).toEqual(dialect.sqlToQuery(theirs));
    expect(sqlText(query, dialect)).toEqual(drizzles(theirs));
  }
  // The same template twice: the same text pieces, each call its own list of pieces.
  expect(ours[0]!.queryChunks[0]).toBe(ours[1]!.queryChunks[0]);
  expect(ours[0]!.queryChunks).not.toBe(ours[1]!.queryChunks);
  // Empty and text-only templates, as drizzle's.
  const empty = () => sql``;
  expect(empty().queryChunks).toEqual(drizzleSql``.queryChunks);
  expect(sql`now()`.queryChunks).toEqual(drizzleSql`now()`.queryChunks);
  expect(sql`${1}`.queryChunks).toEqual(drizzleSql`${1}`.queryChunks);
  expect(sql.join([sql`a`, sql`b`], sql`, `)).toBeInstanceOf(SQL);
});
