import type { FastifyInstance } from "fastify";
import type { Db } from "../../src/server/db/database";
import { signUp, type TestAccount } from "./accounts";
import { insertProduct } from "./factories";
import { orderAndCharge } from "./payments";

/**
 * A customer who has bought something: signs up, orders one piece of a fresh product and pays it
 * with the test card, so the account has a `paid` order (a verified buyer, docs/reviews.md).
 */
export async function signUpBuyer(
  t: { app: FastifyInstance; database: { db: Db } },
  overrides: Partial<Omit<TestAccount, "cookie">> = {},
): Promise<TestAccount> {
  const buyer = await signUp(t.app, overrides);
  await makeBuyer(t, buyer);
  return buyer;
}

/** Gives an existing customer a paid order. */
export async function makeBuyer(
  t: { app: FastifyInstance; database: { db: Db } },
  who: TestAccount,
): Promise<void> {
  const product = await insertProduct(t.database.db, { minimumOrder: 1 });
  const { confirm } = await orderAndCharge(t.app, who, product.id, 1);
  const paid = await confirm();
  if (paid.statusCode !== 200) throw new Error(`paying failed: ${paid.statusCode} ${paid.body}`);
}
