import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import type { Db } from "../../src/server/db/database";
import { orderItems } from "../../src/server/orders/tables";
import { discountRedemptions } from "../../src/server/pricing/tables";

/**
 * The admin creates the discount code `code` with `body` (kind, amount or percent, scope, limits:
 * `POST /api/discount-codes`, as the admin's form sends it), which must be created: its id.
 */
export async function createDiscountCode(
  app: FastifyInstance,
  admin: { cookie: string },
  code: string,
  body: object,
): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/api/discount-codes",
    headers: { cookie: admin.cookie },
    payload: { code, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/**
 * A test file's discount codes: each call has the admin create a code of its own (`prefix`, the
 * process id and a count: no two files or tests share one) with `body`, and answers its text and
 * id. `t.app` is read at each call, as tests build it in `beforeAll`.
 */
export function newDiscountCodes(
  t: { app: FastifyInstance },
  admin: { cookie: string },
  prefix: string,
) {
  let n = 0;
  return async (body: object): Promise<{ code: string; id: string }> => {
    const code = `${prefix}${process.pid}X${++n}`;
    return { code, id: await createDiscountCode(t.app, admin, code, body) };
  };
}

/** What a discount wrote with order `orderId`: each line's discount, and the code's uses by it. */
export async function discountsOfOrder(db: Db, orderId: string) {
  const lines = await db
    .select({ discountCents: orderItems.discountCents })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  const uses = await db
    .select()
    .from(discountRedemptions)
    .where(eq(discountRedemptions.orderId, orderId));
  return { lines, uses };
}
