import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { watchQueries } from "../../../tests/support/query-spy";
import { appForTests } from "../../../tests/support/store";
import { createDatabase } from "./database";
import { executePrepared, statementName } from "./prepared";

const { t, call } = appForTests({ shipsToTestAddress: true });

/** The statement names each query of `pool` carried while `work` ran, in order. */
async function namesDuring(
  work: () => Promise<unknown>,
  pool = t.database.pool,
): Promise<(string | undefined)[]> {
  const names: (string | undefined)[] = [];
  await watchQueries(pool, (query) => names.push(query.name), work);
  return names;
}

const order = (cookie: string, productId: string, qty: number) =>
  t.app.inject({
    method: "POST",
    url: "/api/orders",
    payload: {
      productId,
      orderQty: qty,
      phonrNo: "5550100",
      Address: "1 Plan Road",
      shipTo: TEST_SHIP_TO,
    },
    headers: { cookie },
  });

test("a placement's statements are named straight to PostgreSQL (none through a pooler), and two placements (other customers, products, quantities) use the same names", async () => {
  const [a, b] = [await signUp(t.app), await signUp(t.app)];
  const [p, q] = [
    await insertProduct(t.database.db, { availableQuantity: 100, minimumOrder: 1 }),
    await insertProduct(t.database.db, { availableQuantity: 50, minimumOrder: 1 }),
  ];
  const placed = async (cookie: string, id: string, qty: number) =>
    expect((await order(cookie, id, qty)).statusCode).toBe(201);
  // The markets and each customer's delivery countries, read once and kept in memory for the
  // market a request prices in (docs/pricing.md "The market chosen"), are not the placement's.
  for (const who of [a, b]) {
    const cart = await call(who, "GET", "/api/cart");
    expect(cart.statusCode).toBe(200);
  }
  // So are the order limits (orders/limits.ts), read by the first placement or hold sweep of all.
  await placed((await signUp(t.app)).cookie, p.id, 1);
  const first = await namesDuring(() => placed(a.cookie, p.id, 1));
  const second = await namesDuring(() => placed(b.cookie, q.id, 3));
  if (t.database.pooled) {
    expect(first.every((n) => n === undefined)).toBe(true);
    return;
  }
  // The session, the read, the write (no transaction around them): every one named.
  const named = first.filter(Boolean);
  expect(named).toHaveLength(3);
  expect(first).toEqual(named);
  // The values are parameters, never in the text: the same statements, the same names.
  expect(second.filter(Boolean)).toEqual(named);
});

test("behind a transaction pooler nothing is named, on the pool or in a transaction", async () => {
  // A pool whose direct URL differs from its URL is taken as going through a pooler.
  const pooled = createDatabase(t.database.url, undefined, undefined, `${t.database.url}&pooled`);
  try {
    const names = await namesDuring(async () => {
      const one = await executePrepared<{ one: number }>(pooled.db, sql`select 1 as one`);
      expect(one.rows).toEqual([{ one: 1 }]);
      await pooled.db.transaction(async (tx) => {
        const two = await executePrepared<{ two: number }>(tx, sql`select 2 as two`);
        expect(two.rows).toEqual([{ two: 2 }]);
      });
    }, pooled.pool);
    // select 1; begin, select 2, commit.
    expect(names).toHaveLength(4);
    expect(names.every((n) => n === undefined)).toBe(true);
  } finally {
    await pooled.pool.end();
  }
});

test("straight to PostgreSQL a statement is prepared on its connection and answers as execute does", async () => {
  const query = sql`select ${7}::int as seven, now()::timestamptz as at`;
  const name = statementName(new PgDialect().sqlToQuery(query).sql);
  const plain = await t.database.db.execute<{ seven: number; at: string }>(query);
  const prepared = await t.database.db.transaction(async (tx) => {
    const r = await executePrepared<{ seven: number; at: string }>(tx, query);
    const kept = await tx.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_prepared_statements where name = ${name}`,
    );
    return { row: r.rows[0]!, kept: kept.rows[0]!.n };
  });
  expect(prepared.row.seven).toBe(7);
  // Timestamps stay strings, as drizzle's execute gives them.
  expect(typeof prepared.row.at).toBe("string");
  expect(typeof plain.rows[0]!.at).toBe("string");
  expect(prepared.kept).toBe(t.database.pooled ? 0 : 1);
});
