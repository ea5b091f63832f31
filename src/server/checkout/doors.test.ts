import fc from "fast-check";
import { beforeAll, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { createCompany, createPriceList, joinCompany } from "../../../tests/support/trade";
import { storeForTests } from "../../../tests/support/store";
import { orderMessages } from "../../contract/orders";

// Issue 48: one price for one order, whatever the door. The same part in the same quantity to the
// same place, for a customer or a company's buyer, costs the same to the cent through the product
// page's total and its order (a saved address, one given whole, the default address), the cart's
// checkout and an accepted quote priced at the buyer's own price.

let productId: string;
let companyId: string;

type Method = "GET" | "POST" | "PUT" | "DELETE";
async function call(who: TestAccount, method: Method, url: string, payload?: object) {
  const res = await t.app.inject({ method, url, payload, headers: { cookie: who.cookie } });
  return { status: res.statusCode, body: res.statusCode === 204 ? null : res.json() };
}
async function ok(who: TestAccount, method: Method, url: string, payload?: object) {
  const res = await call(who, method, url, payload);
  if (res.status >= 300)
    throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const places = [
  // Sales tax on parts and shipping.
  { city: "Austin", region: "TX", postalCode: "78701", country: "US", phone: "5125550100" },
  // Sales tax on parts only.
  { city: "San Francisco", region: "CA", postalCode: "94103", country: "US", phone: "4155550100" },
  // VAT, weight-band shipping.
  { city: "Berlin", region: "", postalCode: "10115", country: "DE", phone: "+49 30 1234567" },
  // A flat rate, no tax rate.
  { city: "London", region: "", postalCode: "SW1A 1AA", country: "GB", phone: "+44 20 7946 0000" },
];
const spec = { phonrNo: "5550100", Address: "typed by the customer" };

const { t, admin } = storeForTests({ admin: "doors-admin@example.com" });
beforeAll(async () => {
  const zones = [
    {
      name: "United States",
      countries: ["US"],
      methods: [
        { name: "Standard", estimate: "3-5 days", kind: "free_over", price: 9.95, freeOver: 250 },
        {
          name: "Express",
          estimate: "1-2 days",
          kind: "weight",
          bands: [{ upToGrams: 5000, price: 19.95 }],
        },
      ],
    },
    {
      name: "Europe",
      countries: ["DE", "FR"],
      methods: [
        {
          name: "EU Standard",
          estimate: "4-7 days",
          kind: "weight",
          bands: [
            { upToGrams: 1000, price: 14.95 },
            { upToGrams: 10000, price: 29.95 },
          ],
        },
      ],
    },
    {
      name: "United Kingdom",
      countries: ["GB"],
      methods: [{ name: "UK Tracked", estimate: "2-3 days", kind: "flat", price: 12.95 }],
    },
  ];
  for (const zone of zones) await ok(admin, "POST", "/api/shipping-zones", zone);
  for (const rate of [
    { country: "US", region: "TX", name: "Texas sales tax", rate: 6.25 },
    { country: "US", region: "CA", name: "CA sales tax", rate: 7.25, appliesToShipping: false },
    { country: "DE", name: "VAT", rate: 19 },
  ]) {
    await ok(admin, "POST", "/api/tax-rates", rate);
  }
  const part = await insertProduct(t.database.db, {
    priceCents: 1399,
    minimumOrder: 1,
    weightGrams: 300,
    availableQuantity: 10_000,
  });
  productId = part.id;
  // The company's buyers pay their own price for the part.
  const list = await createPriceList(t.app, admin, [{ productId, unitPrice: 11.5 }]);
  companyId = (await createCompany(t.app, admin, { priceListId: list.id })).id;
});

/** Places through one door, checks the order's total, and deletes it (its stock comes back). */
async function placed(who: TestAccount, door: Promise<{ order: { _id: string; total: number } }>) {
  const { order } = await door;
  await ok(who, "DELETE", `/api/orders/${order._id}`);
  return order.total;
}

test("the same part to the same place costs the same through every door (issue 48)", async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...places),
      // Up to 9 kg: the heaviest the European band carries is 10 kg.
      fc.integer({ min: 1, max: 30 }),
      fc.boolean(),
      async (place, qty, companyBuyer) => {
        n += 1;
        const who: TestAccount = companyBuyer
          ? await joinCompany(t.app, admin, companyId, "buyer")
          : await signUp(t.app, { email: `doors-${n}-${Date.now()}@example.com` });
        const address = { name: "Doors Driver", line1: `${n} Door Street`, ...place };
        const line = { productId, orderQty: qty };
        // Given whole, before the customer has any saved address (so it cannot be the default).
        const viaShipTo = await placed(
          who,
          ok(who, "POST", "/api/orders", { ...line, ...spec, shipTo: address }),
        );
        // The first address saved is the default.
        const { id: addressId } = await ok(who, "POST", "/api/user/addresses", address);
        const shown = await ok(who, "POST", "/api/orders/total", { ...line, addressId });
        const { total } = shown;

        const totals = {
          dialog: await placed(
            who,
            ok(who, "POST", "/api/orders", { ...line, ...spec, addressId, expectedTotal: total }),
          ),
          shipTo: viaShipTo,
          defaultAddress: await placed(who, ok(who, "POST", "/api/orders", { ...line, ...spec })),
          checkout: await placed(
            who,
            (async () => {
              await ok(who, "PUT", `/api/cart/items/${productId}`, { qty });
              const quote = await ok(who, "POST", "/api/cart/quote", { addressId });
              return ok(who, "POST", "/api/checkout", { addressId, expectedTotal: quote.total });
            })(),
          ),
          quote: await placed(
            who,
            (async () => {
              await ok(who, "PUT", `/api/cart/items/${productId}`, { qty });
              const { id } = await ok(who, "POST", "/api/quotes", { note: "Same part" });
              await ok(admin, "POST", `/api/quotes/${id}/send`, {
                lines: [{ productId, unitPrice: shown.subtotal / qty }],
                expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
              });
              const quoted = await ok(who, "POST", `/api/quotes/${id}/total`, { addressId });
              return ok(who, "POST", `/api/quotes/${id}/accept`, {
                addressId,
                expectedTotal: quoted.total,
              });
            })(),
          ),
        };
        expect(totals).toEqual({
          dialog: total,
          shipTo: total,
          defaultAddress: total,
          checkout: total,
          quote: total,
        });
        // And it is charged: the total is more than the parts wherever a charge applies.
        expect(total).toBeGreaterThan(shown.subtotal);
      },
    ),
    { numRuns: 8 },
  );
});

test("an order the store cannot charge is refused, saying what to add, and nothing is written", async () => {
  const who = await signUp(t.app, { email: `doors-nowhere-${Date.now()}@example.com` });
  const line = { productId, orderQty: 1 };
  const before = (await ok(who, "GET", `/api/products/${productId}`)).availableQuantity;
  for (const [url, body] of [
    ["/api/orders", { ...line, ...spec }],
    ["/api/orders/total", line],
  ] as const) {
    const res = await call(who, "POST", url, body);
    expect(res).toMatchObject({
      status: 422,
      body: { error: "destination_required", message: orderMessages.destinationRequired },
    });
  }
  await ok(who, "PUT", `/api/cart/items/${productId}`, { qty: 1 });
  const checkout = await call(who, "POST", "/api/checkout", { ...spec, expectedTotal: 13.99 });
  expect(checkout.body.message).toBe(orderMessages.destinationRequired);
  expect(await ok(who, "GET", "/api/orders")).toEqual([]);
  expect((await ok(who, "GET", `/api/products/${productId}`)).availableQuantity).toBe(before);
  // Both kinds of destination at once: which one was meant is not guessed.
  const both = await call(who, "POST", "/api/orders", {
    ...line,
    ...spec,
    addressId: "00000000-0000-4000-8000-000000000000",
    shipTo: {
      name: "A",
      line1: "1 Road",
      city: "Austin",
      region: "TX",
      postalCode: "78701",
      country: "US",
      phone: "5125550100",
    },
  });
  expect(both.status).toBe(400);
  expect(JSON.stringify(both.body)).toContain(orderMessages.oneDestination);
});
