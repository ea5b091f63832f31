import { desc, eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { checkoutTestCart, orderToTestAddress } from "../../../tests/support/destination";
import { storeForTests } from "../../../tests/support/store";
import { createCompany, createPriceList, joinCompany } from "../../../tests/support/trade";
import { priceListMessages } from "../../contract/pricing";
import { adminAuditLog } from "../audit/tables";
import { orderItems } from "../orders/tables";
import { products } from "../catalog/tables";
import { readEntriesCsv } from "./price-lists";

const { t, call, admin } = storeForTests({
  admin: "pricing-admin@example.com",
  shipsToTestAddress: true,
});

/** A product at $15.00, minimum order 1, plenty in stock. */
const part = () =>
  insertProduct(t.database.db, { priceCents: 1500, minimumOrder: 1, availableQuantity: 1000 });

/** A buyer of a company whose price list sells `p` at 12.00, 10+ at 11.00, 50+ at 9.80. */
async function buyerWithPrices(productId: string) {
  const list = await createPriceList(t.app, admin, [
    {
      productId,
      unitPrice: 12,
      breaks: [
        { minQty: 50, unitPrice: 9.8 },
        { minQty: 10, unitPrice: 11 },
      ],
    },
  ]);
  const company = await createCompany(t.app, admin, { priceListId: list.id });
  const buyer = await joinCompany(t.app, admin, company.id, "buyer");
  return { list, company, buyer };
}

test("a price list in another currency than the store's is refused; names are unique", async () => {
  const eur = await call(admin, "POST", "/api/price-lists", { name: "Euro list", currency: "EUR" });
  expect(eur.statusCode).toBe(400);
  expect(eur.json().message).toBe(priceListMessages.otherCurrency("USD"));
  const ok = await call(admin, "POST", "/api/price-lists", { name: "Fleet A", currency: "usd" });
  expect(ok.statusCode).toBe(201);
  expect(ok.json()).toMatchObject({ name: "Fleet A", currency: "USD", entryCount: 0 });
  const again = await call(admin, "POST", "/api/price-lists", { name: "fleet a" });
  expect(again.statusCode).toBe(409);
  expect(again.json().message).toBe(priceListMessages.nameTaken);
  const found = await call(admin, "GET", "/api/price-lists?q=FLEET%20A&limit=1");
  expect(found.headers["x-total-count"]).toBe("1");
  expect(found.json().map((l: { name: string }) => l.name)).toEqual(["Fleet A"]);
});

test("entries are checked: breaks cheaper than the unit price, each quantity once, stored sorted", async () => {
  const p = await part();
  const list = (await call(admin, "POST", "/api/price-lists", { name: "Checks" })).json();
  const put = (body: unknown) =>
    call(admin, "PUT", `/api/price-lists/${list.id}/entries/${p.id}`, body);

  const dearer = await put({ unitPrice: 10, breaks: [{ minQty: 5, unitPrice: 10 }] });
  expect(dearer.statusCode).toBe(400);
  expect(dearer.body).toContain(priceListMessages.breakCheaper);
  const twice = await put({
    unitPrice: 10,
    breaks: [
      { minQty: 5, unitPrice: 9 },
      { minQty: 5, unitPrice: 8 },
    ],
  });
  expect(twice.statusCode).toBe(400);
  expect(twice.body).toContain(priceListMessages.breaksOrder);
  expect((await put({ unitPrice: 10.005 })).statusCode).toBe(400);
  expect((await put({ unitPrice: 10, breaks: [{ minQty: 1, unitPrice: 9 }] })).statusCode).toBe(
    400,
  );
  expect((await put({ unitPrice: -1 })).statusCode).toBe(400);

  const ok = await put({
    unitPrice: 10,
    breaks: [
      { minQty: 20, unitPrice: 8.5 },
      { minQty: 5, unitPrice: 9.25 },
    ],
  });
  expect(ok.statusCode).toBe(200);
  expect(ok.json()).toMatchObject({
    productId: p.id,
    listPrice: 15,
    unitPrice: 10,
    breaks: [
      { minQty: 5, unitPrice: 9.25 },
      { minQty: 20, unitPrice: 8.5 },
    ],
  });
  const missing = await call(
    admin,
    "PUT",
    `/api/price-lists/${list.id}/entries/00000000-0000-4000-8000-000000000000`,
    { unitPrice: 1 },
  );
  expect(missing.statusCode).toBe(404);
  const noList = await call(
    admin,
    "PUT",
    `/api/price-lists/00000000-0000-4000-8000-000000000000/entries/${p.id}`,
    { unitPrice: 1 },
  );
  expect(noList.statusCode).toBe(404);
  expect(noList.json().message).toBe(priceListMessages.notFound);

  const [audit] = await t.database.db
    .select()
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, list.id))
    .orderBy(desc(adminAuditLog.at))
    .limit(1);
  expect(audit).toMatchObject({ action: "price-list.entry.set", actorEmail: admin.email });
  expect(audit!.summary).toContain("5:9.25|20:8.50");
});

test("a company buyer's product price, cart and order use the company price and the break their quantity reaches", async () => {
  const p = await part();
  const { buyer } = await buyerWithPrices(p.id);
  const stranger = await signUp(t.app);

  const price = await call(buyer, "GET", `/api/products/${p.id}/price`);
  expect(price.statusCode).toBe(200);
  expect(price.json()).toEqual({
    productId: p.id,
    currency: "USD",
    listPrice: 15,
    yourPrice: 12,
    companyPrice: true,
    priceNote: null,
    minimumOrder: 1,
    packSize: 1,
    breaks: [
      { minQty: 1, unitPrice: 12 },
      { minQty: 10, unitPrice: 11 },
      { minQty: 50, unitPrice: 9.8 },
    ],
  });
  for (const who of [stranger, null]) {
    expect((await call(who, "GET", `/api/products/${p.id}/price`)).json()).toMatchObject({
      yourPrice: 15,
      companyPrice: false,
      breaks: [{ minQty: 1, unitPrice: 15 }],
    });
  }
  // The shared product answer is the list price for everyone, the buyer included.
  expect((await call(buyer, "GET", `/api/products/${p.id}`)).json().price).toBe(15);

  const cart = await call(buyer, "PUT", `/api/cart/items/${p.id}`, { qty: 10 });
  expect(cart.json().lines[0]).toMatchObject({ unitPrice: 11, lineTotal: 110, notice: null });
  expect(cart.json().subtotal).toBe(110);
  const nine = await call(buyer, "PUT", `/api/cart/items/${p.id}`, { qty: 9 });
  expect(nine.json().lines[0]).toMatchObject({ unitPrice: 12, lineTotal: 108, notice: null });
  await call(buyer, "PUT", `/api/cart/items/${p.id}`, { qty: 10 });
  const strangerCart = await call(stranger, "PUT", `/api/cart/items/${p.id}`, { qty: 10 });
  expect(strangerCart.json().subtotal).toBe(150);

  const checkout = await checkoutTestCart(t.app, buyer, 110, "1 Fleet Road");
  expect(checkout.statusCode).toBe(201);
  const order = checkout.json().order;
  expect(order.items[0]).toMatchObject({ productId: p.id, qty: 10, unitPrice: 11, lineTotal: 110 });
  expect(order.total).toBe(110);

  // The single-product order too.
  const other = await part();
  await buyerWithPricesFor(buyer, other.id);
  // A later price change leaves the placed order as it was (the line is a snapshot).
  await t.database.db.update(products).set({ priceCents: 100 }).where(eq(products.id, p.id));
  const [line] = await t.database.db
    .select({ unitPriceCents: orderItems.unitPriceCents })
    .from(orderItems)
    .where(eq(orderItems.orderId, order._id));
  expect(line!.unitPriceCents).toBe(1100);
});

/** The single-product door (`POST /api/orders`) prices through the same module. */
async function buyerWithPricesFor(buyer: TestAccount, productId: string) {
  const { buyer: b2 } = await buyerWithPrices(productId);
  const res = await call(
    b2,
    "POST",
    "/api/orders",
    orderToTestAddress(productId, 50, "1 Fleet Road"),
  );
  expect(res.statusCode).toBe(201);
  expect(res.json().order.productPrice).toBe(9.8);
  // The first buyer's company has no price for this product: the list price.
  const theirs = await call(buyer, "GET", `/api/products/${productId}/price`);
  expect(theirs.json()).toMatchObject({ yourPrice: 15, companyPrice: false });
}

test("the CSV of a list's entries imports back as it was; a bad file writes nothing and names each line", async () => {
  const [a, b] = [await part(), await part()];
  const source = await createPriceList(t.app, admin, [
    { productId: a.id, unitPrice: 12.5, breaks: [{ minQty: 10, unitPrice: 11 }] },
    { productId: b.id, unitPrice: 3 },
  ]);
  const exported = await call(admin, "GET", `/api/price-lists/${source.id}/entries.csv`);
  expect(exported.statusCode).toBe(200);
  expect(exported.headers["content-type"]).toContain("text/csv");
  const csv = exported.body;
  expect(csv).toContain("part_number,unit_price,breaks");
  expect(csv).toContain(`${a.partNumber},12.50,10:11.00`);

  const copy = (await call(admin, "POST", "/api/price-lists", { name: "Copy" })).json();
  const imported = await call(admin, "POST", `/api/price-lists/${copy.id}/entries/import`, { csv });
  expect(imported.statusCode).toBe(200);
  expect(imported.json()).toEqual({ imported: 2, removed: 0 });
  const entries = async (id: string) =>
    (await call(admin, "GET", `/api/price-lists/${id}/entries`)).json();
  expect(await entries(copy.id)).toEqual(await entries(source.id));
  expect((await call(admin, "GET", `/api/price-lists/${copy.id}/entries.csv`)).body).toBe(csv);

  // Lowercase, spaced part numbers find their product; a bad line refuses the whole file.
  const bad = [
    "part_number,unit_price,breaks",
    `${a.partNumber.toLowerCase().replaceAll("-", " ")},10.00,`,
    "NO-SUCH-PART,1.00,",
    `${b.partNumber},abc,`,
    `${b.partNumber},2.00,5:3.00`,
  ].join("\n");
  const refused = await call(admin, "POST", `/api/price-lists/${copy.id}/entries/import`, {
    csv: bad,
  });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().fields).toMatchObject({
    "line 4": 'Unit price "abc" is not an amount like 12.50',
    "line 5": `Part number ${b.partNumber} is also on line 4`,
  });
  expect(await entries(copy.id)).toEqual(await entries(source.id));
  const unknown = await call(admin, "POST", `/api/price-lists/${copy.id}/entries/import`, {
    csv: `\uFEFFpart_number,unit_price,breaks\r\n${a.partNumber.toLowerCase()},10.00,\r\nNO-SUCH-PART,1.00,\r\n`,
  });
  expect(unknown.statusCode).toBe(400);
  expect(unknown.json().fields).toEqual({ "line 3": "Unknown part number NO-SUCH-PART" });
  expect(
    (await call(admin, "POST", `/api/price-lists/${copy.id}/entries/import`, { csv: "" }))
      .statusCode,
  ).toBe(400);
  expect(
    (
      await call(admin, "POST", `/api/price-lists/${copy.id}/entries/import`, {
        csv: "sku,price\nX,1",
      })
    ).json().fields,
  ).toEqual({ "line 1": "The first line must be the header part_number,unit_price,breaks" });

  // Replace: the file becomes the whole list.
  const replaced = await call(admin, "POST", `/api/price-lists/${copy.id}/entries/import`, {
    csv: `part_number,unit_price,breaks\n${a.partNumber},10.00,\n`,
    replace: true,
  });
  expect(replaced.json()).toEqual({ imported: 1, removed: 1 });
  expect(await entries(copy.id)).toMatchObject([{ productId: a.id, unitPrice: 10, breaks: [] }]);
});

test("a list a company uses cannot be deleted; an unused one can, and its entries go with it", async () => {
  const p = await part();
  const { list, company } = await buyerWithPrices(p.id);
  const refused = await call(admin, "DELETE", `/api/price-lists/${list.id}`);
  expect(refused.statusCode).toBe(409);
  expect(refused.json().message).toBe(priceListMessages.inUse);
  await call(admin, "PATCH", `/api/companies/${company.id}`, { priceListId: null });
  expect((await call(admin, "DELETE", `/api/price-lists/${list.id}`)).statusCode).toBe(204);
  expect((await call(admin, "GET", `/api/price-lists/${list.id}`)).statusCode).toBe(404);
});

test("taking a company's price list away, or a product out of it, gives its buyers the list price at once", async () => {
  const p = await part();
  const { list, company, buyer } = await buyerWithPrices(p.id);
  const yours = async () =>
    (await call(buyer, "GET", `/api/products/${p.id}/price`)).json().yourPrice;
  expect(await yours()).toBe(12);
  expect(
    (await call(admin, "DELETE", `/api/price-lists/${list.id}/entries/${p.id}`)).statusCode,
  ).toBe(204);
  expect(await yours()).toBe(15);
  await call(admin, "PUT", `/api/price-lists/${list.id}/entries/${p.id}`, { unitPrice: 13 });
  expect(await yours()).toBe(13);
  await call(admin, "PATCH", `/api/companies/${company.id}`, { priceListId: null });
  expect(await yours()).toBe(15);
});

test("a price list file of more lines than one import takes is refused whole", () => {
  const file = ["part_number,unit_price,breaks", ...Array.from({ length: 100_001 }, () => "X,1,")];
  let refused: unknown;
  try {
    readEntriesCsv(file.join("\n"));
  } catch (err) {
    refused = err;
  }
  expect((refused as { fields?: unknown }).fields).toEqual({ "line 1": "At most 100,000 lines" });
});
