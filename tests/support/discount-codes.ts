import type { FastifyInstance } from "fastify";
import { expect } from "vitest";

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
