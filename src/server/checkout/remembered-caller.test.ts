import { eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUpTrusted, type TestAccount } from "../../../tests/support/accounts";
import { testCheckout } from "../../../tests/support/checkout-service";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { addresses } from "../addresses/tables";
import { stillSignedInSql, verifiedToken } from "../auth/session-reader";
import { products } from "../catalog/tables";
import { HttpError } from "../errors";
import { placementRateKey } from "./read";
import type { Customer } from "./write";
import { appForTests } from "../../../tests/support/store";

/**
 * A caller the placing routes answered from memory (`guards.customerPlacing`) is checked by the
 * placement's own first statement: the unlocked read, or the locked transaction's lock. Here the
 * session ends (or its user becomes an admin) after the caller was remembered, before the
 * placement: 401, and nothing is written, on both paths.
 */
const { t, call } = appForTests({ shipsToTestAddress: true });
const SECRET = "test-secret-that-is-long-enough-0123456789";

const checkout = () => testCheckout(t.database.db);

/** A signed-up customer as the cache remembers them, and a part with 5 in stock. */
async function rememberedCustomer(): Promise<{
  account: TestAccount;
  customer: Customer;
  partId: string;
}> {
  // Trusted: a new customer's capped holds are another test's subject.
  const account = await signUpTrusted(t);
  // Their orders go to their address book's default, as a remembered customer's do.
  await t.database.db
    .insert(addresses)
    .values({ userId: account.id, ...TEST_SHIP_TO, isDefault: true });
  const token = verifiedToken(account.cookie, SECRET)!;
  const customer: Customer = {
    id: account.id,
    email: account.email,
    name: account.name,
    emailVerified: true,
    stillSignedIn: stillSignedInSql(token, account.id),
  };
  const part = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 5 });
  return { account, customer, partId: part.id };
}

/** What a placement could have left: unpaid orders, the placement counted, the stock taken. */
async function traces(customerId: string, partId: string) {
  const row = (
    await t.database.db.execute<{ orders: number; counted: number }>(sql`
      select (select count(*)::int from orders
                where user_id = ${customerId} and status = 'unpaid') as orders,
             (select count(*)::int from rate_limit where key = ${placementRateKey(customerId)})
               as counted`)
  ).rows[0]!;
  const [p] = await t.database.db.select().from(products).where(eq(products.id, partId));
  return { ...row, stock: p!.availableQuantity };
}

const one = (partId: string) => ({
  productId: partId,
  orderQty: 2,
  phonrNo: "5550100",
  Address: "1 Dock Road",
});

/** The placement's refusal, or the order it placed. */
const outcome = (placing: Promise<unknown>) =>
  placing.then(
    () => "placed",
    (err: unknown) => (err instanceof HttpError ? err.statusCode : err),
  );

test("a remembered caller whose session is live orders as usual", async () => {
  const { customer, partId } = await rememberedCustomer();
  expect(await outcome(checkout().placeOne(customer, one(partId)))).toBe("placed");
  expect(await traces(customer.id, partId)).toEqual({ orders: 1, counted: 1, stock: 3 });
});

test("signed out since: the one-statement read refuses it (401), nothing is written", async () => {
  const { customer, partId } = await rememberedCustomer();
  await t.database.pool.query("delete from session where user_id = $1", [customer.id]);
  expect(await outcome(checkout().placeOne(customer, one(partId)))).toBe(401);
  expect(await traces(customer.id, partId)).toEqual({ orders: 0, counted: 0, stock: 5 });
});

test("made an admin since: refused (401), nothing is written", async () => {
  const { customer, partId } = await rememberedCustomer();
  await t.database.pool.query(`update "user" set role = 'admin' where id = $1`, [customer.id]);
  expect(await outcome(checkout().placeOne(customer, one(partId)))).toBe(401);
  expect(await traces(customer.id, partId)).toEqual({ orders: 0, counted: 0, stock: 5 });
});

test("signed out since, on the locked path (a checkout that saves the address): 401, nothing written, the cart kept", async () => {
  const { account, customer, partId } = await rememberedCustomer();
  const put = await call(account, "PUT", `/api/cart/items/${partId}`, { qty: 2 });
  expect(put.statusCode, put.body).toBe(200);
  const cart = await call(account, "GET", "/api/cart");
  await t.database.pool.query("delete from session where user_id = $1", [customer.id]);
  const placing = checkout().checkoutCart(customer, {
    phonrNo: "5550100",
    Address: "1 Dock Road",
    expectedTotal: cart.json().total,
    poReference: undefined,
    saveToProfile: true,
  });
  expect(await outcome(placing)).toBe(401);
  expect(await traces(customer.id, partId)).toEqual({ orders: 0, counted: 0, stock: 5 });
  const { rows } = await t.database.pool.query(
    "select qty from cart_items where user_id = $1 and product_id = $2",
    [customer.id, partId],
  );
  expect(rows).toEqual([{ qty: 2 }]);
});
