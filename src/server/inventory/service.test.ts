import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { insertBareOrder, insertProduct } from "../../../tests/support/factories";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { products } from "../catalog/tables";
import { createInventory } from "./service";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function stockOf(...ids: string[]) {
  const rows = await database.db
    .select({ id: products.id, n: products.availableQuantity })
    .from(products)
    .where(inArray(products.id, ids));
  return ids.map((id) => rows.find((r) => r.id === id)?.n);
}

test("stock changed is announced once the move commits, never for a move rolled back", async () => {
  const p = await insertProduct(database.db, { availableQuantity: 10, minimumOrder: 1 });
  const announced: string[] = [];
  const inventory = createInventory(database.db, () => announced.push("stock"));

  const order = await insertBareOrder(database.db);
  const reserved = await inventory.transaction((stock) =>
    stock.reserve([{ productId: p.id, qty: 4 }], order),
  );
  expect(reserved).toEqual([
    {
      productId: p.id,
      qty: 4,
      productName: p.name,
      partNumber: p.partNumber,
      unitPriceCents: p.priceCents,
      minimumOrder: p.minimumOrder,
      available: 10,
    },
  ]);
  expect(announced).toHaveLength(1);
  expect(await stockOf(p.id)).toEqual([6]);

  await expect(
    inventory.transaction(async (stock) => {
      await stock.releaseOrders([order.orderId]);
      throw new Error("the caller's work failed");
    }),
  ).rejects.toThrow("the caller's work failed");
  expect(announced).toHaveLength(1);
  expect(await stockOf(p.id)).toEqual([6]);

  // A deleted product's line gives nothing back and announces nothing.
  await inventory.transaction((stock) => stock.restock([{ productId: null, qty: 3 }]));
  expect(announced).toHaveLength(1);
});

test("reserve refuses the whole call on the first broken line, naming its product", async () => {
  const a = await insertProduct(database.db, { availableQuantity: 5, minimumOrder: 2 });
  const b = await insertProduct(database.db, { availableQuantity: 5, minimumOrder: 1 });
  const inventory = createInventory(database.db);
  const reserve = async (lines: { productId: string; qty: number }[], checkMinimum = true) => {
    const order = await insertBareOrder(database.db);
    return inventory.transaction((stock) => stock.reserve(lines, order, { checkMinimum }));
  };

  await expect(
    reserve([
      { productId: b.id, qty: 1 },
      { productId: a.id, qty: 1 },
    ]),
  ).rejects.toMatchObject({
    statusCode: 422,
    message: "please order at least 2",
    fields: { [a.id]: "please order at least 2" },
  });
  const missing = randomUUID();
  await expect(reserve([{ productId: missing, qty: 1 }])).rejects.toMatchObject({
    statusCode: 404,
    fields: { [missing]: "Product not found" },
  });
  await expect(
    reserve([
      { productId: a.id, qty: 2 },
      { productId: a.id, qty: 2 },
    ]),
  ).rejects.toMatchObject({ statusCode: 422 });
  expect(await stockOf(a.id, b.id)).toEqual([5, 5]);

  // A late payment takes the stock again whatever the minimum is now.
  await reserve([{ productId: a.id, qty: 1 }], false);
  expect(await stockOf(a.id)).toEqual([4]);
});

test("two movers over the same products in opposite orders both finish (no deadlock)", async () => {
  const a = await insertProduct(database.db, { availableQuantity: 1000, minimumOrder: 1 });
  const b = await insertProduct(database.db, { availableQuantity: 1000, minimumOrder: 1 });
  const inventory = createInventory(database.db);
  const orders = await Promise.all(Array.from({ length: 40 }, () => insertBareOrder(database.db)));
  await Promise.all(
    orders.map((order, i) =>
      inventory.transaction(async (stock) => {
        const lines = [
          { productId: a.id, qty: 1 },
          { productId: b.id, qty: 1 },
        ];
        await stock.reserve(i % 2 === 0 ? lines : lines.reverse(), order);
        await stock.releaseOrders([order.orderId]);
      }),
    ),
  );
  expect(await stockOf(a.id, b.id)).toEqual([1000, 1000]);
});
