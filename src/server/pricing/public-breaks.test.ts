import { randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { checkoutTestCart, orderToTestAddress } from "../../../tests/support/destination";
import { storeForTests } from "../../../tests/support/store";
import { createCompany, createPriceList, joinCompany } from "../../../tests/support/trade";
import { priceBreakMessages } from "../../contract/pricing";
import { productFieldMessages } from "../../contract/products";
import { adminAuditLog } from "../audit/tables";
import { orderItems } from "../orders/tables";
import { products } from "../catalog/tables";

/** Public (store-wide) quantity breaks on products: docs/pricing.md. */

const { t, call, admin, customer } = storeForTests({
  admin: "breaks-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: {} },
});

const newProduct = (over: object = {}) => ({
  name: `Water pump ${randomUUID().slice(0, 8)}`,
  partNumber: `PW-PB-${randomUUID().slice(0, 8)}`,
  category: "Cooling",
  price: 12.5,
  minimumOrder: 1,
  availableQuantity: 1000,
  warranty: 24,
  shortDescription: "Water pump with gasket",
  img: "https://cdn.example.com/parts/pump.png",
  ...over,
});

/** 10+ at 11.00, 50+ at 9.80 (sent out of order: stored sorted). */
const breaks = [
  { minQty: 50, unitPrice: 9.8 },
  { minQty: 10, unitPrice: 11 },
];
const sorted = [
  { minQty: 10, unitPrice: 11 },
  { minQty: 50, unitPrice: 9.8 },
];

const rowOf = async (id: string) =>
  (await t.database.db.select().from(products).where(eq(products.id, id)))[0]!;

/** A product at $12.50 with the public breaks above, made through the admin API. */
async function productWithBreaks() {
  const res = await call(admin, "POST", "/api/products", newProduct({ breaks }));
  expect(res.statusCode).toBe(201);
  return res.json().product as { _id: string; breaks: unknown };
}

describe("admin sets the breaks", () => {
  test("on create and edit; stored sorted in integer cents; the shared product answer carries them", async () => {
    const p = await productWithBreaks();
    expect(p.breaks).toEqual(sorted);
    expect((await rowOf(p._id)).breaks).toEqual([
      { minQty: 10, unitPriceCents: 1100 },
      { minQty: 50, unitPriceCents: 980 },
    ]);
    // Everyone, a visitor included, gets them in the cached, shared product answer.
    const anon = await call(null, "GET", `/api/products/${p._id}`);
    expect(anon.statusCode).toBe(200);
    expect(anon.json().breaks).toEqual(sorted);
    expect((await call(customer, "GET", `/api/products/${p._id}`)).json().breaks).toEqual(sorted);
    // The cached list carries them too (product cards); a product without any has no field.
    const partNumber = (await rowOf(p._id)).partNumber;
    const listed = await call(null, "GET", `/api/products?q=${encodeURIComponent(partNumber)}`);
    expect(listed.json().find((i: { _id: string }) => i._id === p._id).breaks).toEqual(sorted);

    const edited = await call(admin, "PATCH", `/api/products/${p._id}`, {
      breaks: [{ minQty: 5, unitPrice: 12.25 }],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().breaks).toEqual([{ minQty: 5, unitPrice: 12.25 }]);
    // The cached answer is cleared by the change (the catalog's NOTIFY).
    await expect
      .poll(async () => (await call(null, "GET", `/api/products/${p._id}`)).json().breaks)
      .toEqual([{ minQty: 5, unitPrice: 12.25 }]);
    const [audit] = await t.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, p._id), eq(adminAuditLog.action, "product.edit")))
      .orderBy(desc(adminAuditLog.at))
      .limit(1);
    expect(audit!.summary).toContain("breaks");

    // An empty list removes them; a product made without any has none.
    const cleared = await call(admin, "PATCH", `/api/products/${p._id}`, { breaks: [] });
    expect(cleared.json().breaks).toEqual([]);
    const plain = await call(admin, "POST", "/api/products", newProduct());
    expect(plain.json().product.breaks).toEqual([]);
    expect((await rowOf(plain.json().product._id)).breaks).toEqual([]);
  });

  test("bad breaks are refused with 400 and the field's message; nothing is written", async () => {
    const p = await productWithBreaks();
    const cases: [unknown, string][] = [
      [[{ minQty: 10, unitPrice: 12.5 }], productFieldMessages.breakCheaper],
      [[{ minQty: 10, unitPrice: 13 }], productFieldMessages.breakCheaper],
      [
        [
          { minQty: 10, unitPrice: 11 },
          { minQty: 10, unitPrice: 10 },
        ],
        priceBreakMessages.breaksOrder,
      ],
      [[{ minQty: 1, unitPrice: 11 }], "A break starts at 2 units or more"],
      [[{ minQty: 2.5, unitPrice: 11 }], "Minimum quantity must be a whole number"],
      [[{ minQty: 10, unitPrice: 11.005 }], "Break price: use at most 2 decimals"],
      [[{ minQty: 10, unitPrice: -1 }], "Break price must be 0 or more"],
      [
        Array.from({ length: 11 }, (_, i) => ({ minQty: i + 2, unitPrice: 10 - i / 2 })),
        "At most 10 breaks",
      ],
      ["10:11.00", "Breaks must be a list"],
    ];
    for (const [bad, message] of cases) {
      const res = await call(admin, "PATCH", `/api/products/${p._id}`, { breaks: bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(JSON.stringify(res.json().fields ?? res.json()), JSON.stringify(bad)).toContain(
        message,
      );
      const created = await call(admin, "POST", "/api/products", newProduct({ breaks: bad }));
      expect(created.statusCode, JSON.stringify(bad)).toBe(400);
      expect(JSON.stringify(created.json()), JSON.stringify(bad)).toContain(message);
    }
    expect((await rowOf(p._id)).breaks).toEqual([
      { minQty: 10, unitPriceCents: 1100 },
      { minQty: 50, unitPriceCents: 980 },
    ]);
    // A price lowered to a break (or below it) is refused too: the breaks stay cheaper.
    const lower = await call(admin, "PATCH", `/api/products/${p._id}`, { price: 11 });
    expect(lower.statusCode).toBe(400);
    expect(lower.json().fields).toEqual({ breaks: productFieldMessages.breakCheaper });
    expect((await rowOf(p._id)).priceCents).toBe(1250);
    // Both at once, consistent, go through.
    const both = await call(admin, "PATCH", `/api/products/${p._id}`, {
      price: 11,
      breaks: [{ minQty: 10, unitPrice: 10.5 }],
    });
    expect(both.statusCode).toBe(200);
    expect(both.json()).toMatchObject({ price: 11, breaks: [{ minQty: 10, unitPrice: 10.5 }] });
    const row = await rowOf(p._id);
    expect(row.priceCents).toBe(1100);
    expect(row.breaks).toEqual([{ minQty: 10, unitPriceCents: 1050 }]);
  });

  test("only an admin sets them: a visitor 401, a customer 403, the product unchanged", async () => {
    const p = await productWithBreaks();
    const cheap = { breaks: [{ minQty: 2, unitPrice: 0.01 }] };
    expect((await call(null, "PATCH", `/api/products/${p._id}`, cheap)).statusCode).toBe(401);
    expect((await call(customer, "PATCH", `/api/products/${p._id}`, cheap)).statusCode).toBe(403);
    const made = await call(customer, "POST", "/api/products", newProduct(cheap));
    expect(made.statusCode).toBe(403);
    expect((await rowOf(p._id)).breaks).toEqual([
      { minQty: 10, unitPriceCents: 1100 },
      { minQty: 50, unitPriceCents: 980 },
    ]);
  });
});

describe("everyone pays the break their quantity reaches", () => {
  test("a customer's product price, cart and cart checkout at 10 pay the break price", async () => {
    const p = await productWithBreaks();
    const buyer = await signUp(t.app);

    for (const who of [buyer, null]) {
      const price = await call(who, "GET", `/api/products/${p._id}/price`);
      expect(price.json()).toEqual({
        productId: p._id,
        currency: "USD",
        listPrice: 12.5,
        yourPrice: 12.5,
        companyPrice: false,
        priceNote: null,
        minimumOrder: 1,
        packSize: 1,
        breaks: [
          { minQty: 1, unitPrice: 12.5 },
          { minQty: 10, unitPrice: 11 },
          { minQty: 50, unitPrice: 9.8 },
        ],
      });
    }

    const nine = await call(buyer, "PUT", `/api/cart/items/${p._id}`, { qty: 9 });
    expect(nine.json().lines[0]).toMatchObject({ unitPrice: 12.5, lineTotal: 112.5, notice: null });
    const ten = await call(buyer, "PUT", `/api/cart/items/${p._id}`, { qty: 10 });
    expect(ten.json().lines[0]).toMatchObject({ unitPrice: 11, lineTotal: 110, notice: null });
    expect(ten.json().subtotal).toBe(110);

    const checkout = await checkoutTestCart(t.app, buyer, 110, "1 Fleet Road");
    expect(checkout.statusCode).toBe(201);
    const order = checkout.json().order;
    expect(order.items[0]).toMatchObject({
      productId: p._id,
      qty: 10,
      unitPrice: 11,
      lineTotal: 110,
    });
    expect(order.total).toBe(110);
    // The order line is a snapshot: a later change of the breaks leaves it as it was.
    await call(admin, "PATCH", `/api/products/${p._id}`, { breaks: [] });
    const [line] = await t.database.db
      .select({ unitPriceCents: orderItems.unitPriceCents })
      .from(orderItems)
      .where(eq(orderItems.orderId, order._id));
    expect(line!.unitPriceCents).toBe(1100);
  });

  test("the single-product order and quick order price the public break too", async () => {
    const p = await productWithBreaks();
    const buyer = await signUp(t.app);
    const res = await call(
      buyer,
      "POST",
      "/api/orders",
      orderToTestAddress(p._id, 50, "1 Fleet Road"),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().order.productPrice).toBe(9.8);
    expect(res.json().order.total).toBe(490);

    const partNumber = (await rowOf(p._id)).partNumber;
    const resolved = await call(buyer, "POST", "/api/quick-order/resolve", {
      lines: [{ number: partNumber, qty: 12 }],
    });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().lines[0]).toMatchObject({ unitPrice: 11, lineTotal: 132 });
  });

  test("a company buyer gets the lowest of list price, public break and company price or break", async () => {
    const p = await productWithBreaks();
    const list = await createPriceList(t.app, admin, [
      { productId: p._id, unitPrice: 11.5, breaks: [{ minQty: 20, unitPrice: 10.5 }] },
    ]);
    const company = await createCompany(t.app, admin, { priceListId: list.id });
    const buyer = await joinCompany(t.app, admin, company.id, "buyer");

    const price = await call(buyer, "GET", `/api/products/${p._id}/price`);
    expect(price.json()).toMatchObject({
      yourPrice: 11.5,
      companyPrice: true,
      breaks: [
        { minQty: 1, unitPrice: 11.5 },
        { minQty: 10, unitPrice: 11 },
        { minQty: 20, unitPrice: 10.5 },
        { minQty: 50, unitPrice: 9.8 },
      ],
    });
    const at = async (qty: number) =>
      (await call(buyer, "PUT", `/api/cart/items/${p._id}`, { qty })).json().lines[0];
    expect(await at(5)).toMatchObject({ unitPrice: 11.5, lineTotal: 57.5 });
    expect(await at(10)).toMatchObject({ unitPrice: 11, lineTotal: 110 });
    expect(await at(20)).toMatchObject({ unitPrice: 10.5, lineTotal: 210 });
    expect(await at(50)).toMatchObject({ unitPrice: 9.8, lineTotal: 490 });
    const checkout = await checkoutTestCart(t.app, buyer, 490, "1 Fleet Road");
    expect(checkout.statusCode).toBe(201);
    expect(checkout.json().order.items[0]).toMatchObject({ qty: 50, unitPrice: 9.8 });
  });

  test("a product inserted without breaks (older rows) has none and costs its list price", async () => {
    const p = await insertProduct(t.database.db, { priceCents: 700, minimumOrder: 1 });
    expect(p.breaks).toEqual([]);
    const cart = await call(customer, "PUT", `/api/cart/items/${p.id}`, { qty: 100 });
    expect(cart.json().lines[0]).toMatchObject({ unitPrice: 7, lineTotal: 700 });
    expect((await call(null, "GET", `/api/products/${p.id}`)).json().breaks).toEqual([]);
  });
});
