import { eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { orderMessages } from "../../contract/orders";
import { storeForTests } from "../../../tests/support/store";
import { AUSTIN_ADDRESS } from "../../../tests/support/destination";
import { standardFreeOver, usZoneForm } from "../../../tests/support/shipping-forms";
import { orders } from "../orders/tables";
import { products } from "../catalog/tables";

// Shipping and tax from the admin's zones and rates to the customer's order, through the API:
// the quote a visitor sees, the quote for a saved address, and the order the checkout places.

let standardId: string;
let expressId: string;

const texas = AUSTIN_ADDRESS;
/** The zone's second method, by weight, as the admin saves it and reads it back. */
const express = {
  name: "Express",
  estimate: "1-2 business days",
  kind: "weight",
  bands: [
    { upToGrams: 5000, price: 19.95 },
    { upToGrams: 20000, price: 34.95 },
  ],
};

const { t, call, admin } = storeForTests({ admin: "money-admin@example.com" });
beforeAll(async () => {
  const us = await call(
    admin,
    "POST",
    "/api/shipping-zones",
    usZoneForm(standardFreeOver(250), express),
  );
  expect(us.statusCode).toBe(201);
  [standardId, expressId] = us.json().methods.map((m: { id: string }) => m.id);
  for (const rate of [
    { country: "US", region: "TX", name: "Texas sales tax", rate: 6.25 },
    {
      country: "US",
      region: "CA",
      name: "California sales tax",
      rate: 7.25,
      appliesToShipping: false,
    },
    { country: "DE", name: "VAT", rate: 19 },
  ]) {
    expect((await call(admin, "POST", "/api/tax-rates", rate)).statusCode).toBe(201);
  }
});

/** The cart's quote (POST /api/cart/quote) for the saved address `addressId`, by Express. */
const expressQuote = async (who: TestAccount, addressId: string) =>
  (await call(who, "POST", "/api/cart/quote", { addressId, shippingMethodId: expressId })).json();

async function twoParts() {
  const filter = await insertProduct(t.database.db, {
    priceCents: 1299,
    minimumOrder: 1,
    weightGrams: 350,
  });
  const plugs = await insertProduct(t.database.db, {
    priceCents: 899,
    minimumOrder: 1,
    weightGrams: 60,
  });
  return { filter, plugs };
}

test("admins keep zones and rates; bad ones are refused with the field's message", async () => {
  const zones = (await call(admin, "GET", "/api/shipping-zones")).json();
  expect(zones[0].methods[1]).toMatchObject(express);
  const bad = await call(admin, "POST", "/api/shipping-zones", {
    name: "Bad",
    countries: ["ZZ"],
    methods: [
      {
        name: "W",
        kind: "weight",
        bands: [
          { upToGrams: 500, price: 1 },
          { upToGrams: 400, price: 2 },
        ],
      },
    ],
  });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().fields).toMatchObject({
    countries: "Use two-letter country codes, like US or DE",
    "methods.0.bands.1.upToGrams": "Each band must be heavier than the one before",
  });
  const noThreshold = await call(admin, "POST", "/api/shipping-zones", {
    name: "Bad",
    countries: ["FR"],
    methods: [{ name: "F", kind: "free_over", price: 5 }],
  });
  expect(noThreshold.json().fields).toMatchObject({
    "methods.0.freeOver": "Enter the order value from which shipping is free",
  });
  const twice = await call(admin, "POST", "/api/tax-rates", {
    country: "US",
    region: "tx",
    name: "Again",
    rate: 1,
  });
  expect(twice.statusCode).toBe(409);
  expect(twice.json().message).toBe(
    "A rate for this country, region and postal code exists already; edit it instead",
  );
  const tooHigh = await call(admin, "POST", "/api/tax-rates", {
    country: "FR",
    name: "VAT",
    rate: 120,
  });
  expect(tooHigh.json().fields).toEqual({ rate: "A rate is at most 100 %" });
  const customer = await signUp(t.app);
  expect((await call(customer, "GET", "/api/tax-rates")).statusCode).toBe(403);
});

test("a visitor's estimate for a country and postal code equals the checkout total to the cent", async () => {
  const { filter, plugs } = await twoParts();
  const items = [
    { productId: filter.id, qty: 2 },
    { productId: plugs.id, qty: 4 },
  ];
  const estimate = (
    await call(undefined, "POST", "/api/cart/quote", {
      items,
      estimate: { country: "US", postalCode: "78701" },
      shippingMethodId: expressId,
    })
  ).json();
  // Lines 25.98 + 35.96 = 61.94; Express for 0.94 kg 19.95; TX 6.25 %: 1.62 + 2.25 + 1.25 (shipping).
  expect(estimate).toMatchObject({
    destination: { country: "US", region: "TX", postalCode: "78701" },
    subtotal: 61.94,
    shippingMethodId: expressId,
    shipping: 19.95,
    tax: 5.12,
    taxRate: 6.25,
    taxName: "Texas sales tax",
    total: 87.01,
    deliveryProblem: null,
  });
  expect(estimate.lines.map((l: { tax: number }) => l.tax)).toEqual([1.62, 2.25]);
  expect(estimate.shippingOptions).toEqual([
    // No transit days set: no dated window (docs/shipping.md "Delivery estimates").
    {
      id: standardId,
      name: "Standard",
      estimate: "3-5 business days",
      price: 9.95,
      delivery: null,
    },
    { id: expressId, name: "Express", estimate: "1-2 business days", price: 19.95, delivery: null },
  ]);

  // The visitor signs up, saves the address, and checks out what they were shown.
  const me = await signUp(t.app);
  await call(me, "POST", "/api/cart/merge", { items });
  const address = (await call(me, "POST", "/api/user/addresses", texas)).json();
  const quote = await expressQuote(me, address.id);
  expect(quote.total).toBe(estimate.total);
  const placed = await call(me, "POST", "/api/checkout", {
    addressId: address.id,
    shippingMethodId: expressId,
    expectedTotal: estimate.total,
  });
  expect(placed.statusCode).toBe(201);
  const order = placed.json().order;
  expect(order).toMatchObject({
    subtotal: 61.94,
    shipping: 19.95,
    shippingMethod: "Express",
    tax: 5.12,
    taxName: "Texas sales tax",
    taxRate: 6.25,
    total: 87.01,
    Address: "Jane Doe, 100 Congress Ave, Austin, TX 78701, United States",
    phonrNo: "5125550100",
  });
  expect(order.items.map((l: { tax: number }) => l.tax)).toEqual([1.62, 2.25]);
  // The order keeps its figures and its address when the book and the rates change.
  await call(me, "DELETE", `/api/user/addresses/${address.id}`);
  const again = (await call(me, "GET", `/api/orders/${order._id}`)).json();
  expect(again).toMatchObject({ shipping: 19.95, tax: 5.12, total: 87.01 });
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
  expect(row).toMatchObject({ shippingTaxCents: 125, shipTo: { city: "Austin", region: "TX" } });
  // The payment is for the whole total.
  const intent = await call(me, "POST", "/api/create-payment-intent", { orderId: order._id });
  expect(intent.json().amount).toBe(87.01);
});

test("a total the customer was not shown places nothing and answers the new figures", async () => {
  const { filter } = await twoParts();
  const me = await signUp(t.app);
  await call(me, "PUT", `/api/cart/items/${filter.id}`, { qty: 1 });
  const address = (await call(me, "POST", "/api/user/addresses", texas)).json();
  // Shown the lines only (12.99), before shipping and tax were added.
  const res = await call(me, "POST", "/api/checkout", {
    addressId: address.id,
    shippingMethodId: standardId,
    expectedTotal: 12.99,
  });
  expect(res.statusCode).toBe(409);
  // 12.99 + 9.95 + 0.81 (0.811875) + 0.62 (0.621875) = 24.37
  expect(res.json().fields).toEqual({
    subtotal: "12.99",
    shipping: "9.95",
    tax: "1.43",
    total: "24.37",
  });
  expect((await call(me, "GET", "/api/cart")).json().lines).toHaveLength(1);
  const [stock] = await t.database.db.select().from(products).where(eq(products.id, filter.id));
  expect(stock!.availableQuantity).toBe(100);
});

test("an address the store does not ship to is refused at checkout with the reason", async () => {
  const { filter } = await twoParts();
  const me = await signUp(t.app);
  await call(me, "PUT", `/api/cart/items/${filter.id}`, { qty: 1 });
  const berlin = (
    await call(me, "POST", "/api/user/addresses", {
      ...texas,
      region: "",
      city: "Berlin",
      postalCode: "10117",
      country: "DE",
    })
  ).json();
  const quote = (await call(me, "POST", "/api/cart/quote", { addressId: berlin.id })).json();
  expect(quote).toMatchObject({
    deliveryProblem: "We do not ship to Germany",
    shippingOptions: [],
    shipping: 0,
  });
  const res = await call(me, "POST", "/api/checkout", {
    addressId: berlin.id,
    expectedTotal: quote.total,
  });
  expect(res.statusCode).toBe(422);
  expect(res.json()).toMatchObject({
    error: "not_shippable",
    message: "We do not ship to Germany",
  });
});

test("a method that does not serve the order, or someone else's address, is refused", async () => {
  const heavy = await insertProduct(t.database.db, {
    priceCents: 10000,
    minimumOrder: 1,
    weightGrams: 25_000,
  });
  const me = await signUp(t.app);
  await call(me, "PUT", `/api/cart/items/${heavy.id}`, { qty: 1 });
  const address = (await call(me, "POST", "/api/user/addresses", texas)).json();
  const quote = await expressQuote(me, address.id);
  // Express stops at 20 kg: the quote falls back to Standard, the checkout refuses Express.
  expect(quote.shippingMethodId).toBe(standardId);
  const res = await call(me, "POST", "/api/checkout", {
    addressId: address.id,
    shippingMethodId: expressId,
    expectedTotal: quote.total,
  });
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toBe(
    "The shipping method you chose does not serve this address (any more); choose another",
  );
  const other = await signUp(t.app);
  const stolen = await call(other, "POST", "/api/cart/quote", { addressId: address.id });
  expect(stolen.statusCode).toBe(404);
  const anonymous = await call(undefined, "POST", "/api/cart/quote", { addressId: address.id });
  expect(anonymous.statusCode).toBe(401);
});

test("the spec's one-product order: charged by the default address, refused without one", async () => {
  const { filter } = await twoParts();
  const order = { productId: filter.id, orderQty: 2, phonrNo: "5550100", Address: "1 Dock Road" };
  const plain = await signUp(t.app);
  // Nowhere to charge shipping and tax for: refused, nothing reserved.
  const refused = await call(plain, "POST", "/api/orders", order);
  expect(refused.statusCode).toBe(422);
  expect(refused.json()).toMatchObject({
    error: "destination_required",
    message: orderMessages.destinationRequired,
  });
  const [stock] = await t.database.db.select().from(products).where(eq(products.id, filter.id));
  expect(stock!.availableQuantity).toBe(100);

  const withBook = await signUp(t.app);
  await call(withBook, "POST", "/api/user/addresses", texas);
  const res = await call(withBook, "POST", "/api/orders", order);
  expect(res.statusCode).toBe(201);
  // Standard (the cheapest), 9.95; tax 1.62 + 0.62.
  expect(res.json().order).toMatchObject({
    Address: "1 Dock Road",
    shippingMethod: "Standard",
    shipping: 9.95,
    tax: 2.24,
    total: 38.17,
  });
});

test("checkout without an address id: charged for the default address, keeping the typed Address and phone", async () => {
  const { plugs } = await twoParts();
  const me = await signUp(t.app);
  await call(me, "PUT", `/api/cart/items/${plugs.id}`, { qty: 1 });
  // Charged by the default address; the order keeps the Address and phone typed.
  await call(me, "POST", "/api/user/addresses", texas);
  const missing = await call(me, "POST", "/api/checkout", { expectedTotal: 8.99 });
  expect(missing.statusCode).toBe(400);
  expect(missing.json().fields).toEqual({
    Address: "Address is Required",
    phonrNo: "Phone is Required",
  });
  // 8.99 + Standard 9.95 + 0.56 (0.561875) + 0.62 (0.621875) = 20.12
  const res = await call(me, "POST", "/api/checkout", {
    Address: "14 Garage Lane, Leeds",
    phonrNo: "5550100",
    expectedTotal: 20.12,
  });
  expect(res.statusCode).toBe(201);
  expect(res.json().order).toMatchObject({
    Address: "14 Garage Lane, Leeds",
    phonrNo: "5550100",
    total: 20.12,
    shipping: 9.95,
    tax: 1.18,
    shippingMethod: "Standard",
  });
});
