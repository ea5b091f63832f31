import type { products } from "../../src/server/catalog/tables";
import { placeTestOrder } from "./destination";
import { insertProduct } from "./factories";
import type { TestApp } from "./test-app";

/**
 * A fresh part (insertProduct's, minimum order 1, `part` over it) that `who` orders `qty` of to
 * the test address (placeTestOrder, `POST /api/orders`): the response and the part.
 */
export async function orderOfNewPart(
  t: TestApp,
  who: { cookie: string },
  qty: number,
  part: Partial<typeof products.$inferInsert> = {},
) {
  const product = await insertProduct(t.database.db, { minimumOrder: 1, ...part });
  return { res: await placeTestOrder(t.app, who, product.id, qty), product };
}
