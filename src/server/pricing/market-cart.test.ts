import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { signUpVerified, type TestAccount } from "../../../tests/support/accounts";
import { testCheckout } from "../../../tests/support/checkout-service";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import type { Market } from "../../contract/markets";
import { companyAddressInputSchema } from "../../contract/addresses";
import { createCartService, type CartService } from "../cart/service";
import { readPlacement } from "../checkout/read";
import { orders } from "../orders/tables";
import { productPrice } from "./routes";

/**
 * The cart, its quote and its checkout in a market (docs/pricing.md "Markets and currencies"):
 * the parts, the shipping rate and the discount code's amount and minimum all converted by the
 * same rule, so each gives the same figures and the order is kept in EUR at its rate; the default
 * market prices exactly as no market. No route passes a market yet: the services are asked
 * directly, as a door will ask them.
 */
describe("the cart in a market", () => {
  let cart: CartService;
  let europe: Market;
  let unitedStates: Market;
  let buyer: TestAccount & { id: string };
  const germany = { estimate: { country: "DE", postalCode: "10115" } };

  // The services asked directly in a market; the routes, with buyers not choosing one (MARKET_CHOICE
  // off), price in the store's currency whatever the destination (on: market-doors.test.ts).
  const { t, call, admin } = storeForTests({
    admin: "market-cart-admin@example.com",
    shipsToTestAddress: true,
    env: { MARKET_CHOICE: "false" },
  });
  beforeAll(async () => {
    cart = createCartService(t.database.db, { currency: "USD" });
    const markets: Market[] = (await call(admin, "GET", "/api/markets")).json();
    europe = markets.find((m) => m.code === "EU")!;
    unitedStates = markets.find((m) => m.isDefault)!;
    expect(europe).toMatchObject({ currency: "EUR", rate: 0.92, rounding: "cent" });
    expect(unitedStates).toMatchObject({ currency: "USD", rate: 1 });
    const zone = await call(admin, "POST", "/api/shipping-zones", {
      name: "Germany",
      countries: ["DE"],
      methods: [{ name: "Standard", estimate: "3-5 business days", kind: "flat", price: 7.5 }],
    });
    expect(zone.statusCode).toBe(201);
    // $5.00 off with a $50.00 minimum.
    const code = await call(admin, "POST", "/api/discount-codes", {
      code: `EU${process.pid}`,
      kind: "amount",
      amount: 5,
      minSubtotal: 50,
    });
    expect(code.statusCode).toBe(201);
    const brake = await insertProduct(t.database.db, { priceCents: 3000, minimumOrder: 1 });
    const filter = await insertProduct(t.database.db, { priceCents: 1201, minimumOrder: 1 });
    buyer = await signUpVerified(t);
    for (const [id, qty] of [
      [brake.id, 2],
      [filter.id, 1],
    ] as const) {
      expect((await call(buyer, "PUT", `/api/cart/items/${id}`, { qty })).statusCode).toBe(200);
    }
    const applied = await call(buyer, "PUT", "/api/cart/discount-code", {
      code: `EU${process.pid}`,
    });
    expect(applied.statusCode).toBe(200);
  });
  const checkoutService = () => testCheckout(t.database.db, { uncapped: true });
  const shipTo = () => companyAddressInputSchema.parse(TEST_SHIP_TO);

  test("Europe: parts, shipping and the code in EUR, the same on the cart and its quote", async () => {
    const inCart = await cart.get(buyer.id, europe);
    const quote = await cart.quote(germany, buyer.id, europe);
    // $30.00 × 0.92 = €27.60; $12.01 × 0.92 = €11.0492 → €11.05; the code's $5.00 is €4.60.
    expect(inCart).toMatchObject({
      currency: "EUR",
      subtotal: 66.25,
      discount: { amount: 4.6, appliesTo: "€4.60 off everything" },
      discountProblem: null,
      total: 61.65,
    });
    expect(inCart.lines.map((l) => [l.unitPrice, l.lineTotal, l.notice])).toEqual([
      [27.6, 55.2, null],
      [11.05, 11.05, null],
    ]);
    // The shipping rate's $7.50 is €6.90; Germany has no tax rate in this store.
    expect(quote).toMatchObject({
      currency: "EUR",
      subtotal: 66.25,
      discount: { amount: 4.6 },
      shippingOptions: [{ name: "Standard", price: 6.9 }],
      shipping: 6.9,
      tax: 0,
      total: 68.55,
    });
    expect(quote.lines).toEqual(inCart.lines);
  });

  test("the code's minimum is converted too, and its refusal is worded in EUR", async () => {
    const brake = await insertProduct(t.database.db, { priceCents: 3000, minimumOrder: 1 });
    const other = await signUpVerified(t);
    const qty = (n: number) => call(other, "PUT", `/api/cart/items/${brake.id}`, { qty: n });
    expect((await qty(2)).statusCode).toBe(200);
    const applied = await call(other, "PUT", "/api/cart/discount-code", {
      code: `EU${process.pid}`,
    });
    expect(applied.statusCode).toBe(200);
    // One brake left: $30.00 is under the $50.00 minimum, €27.60 under €46.00.
    expect((await qty(1)).statusCode).toBe(200);
    expect(await cart.get(other.id)).toMatchObject({
      discountProblem: "Spend $50.00 or more to use this code",
      total: 30,
    });
    expect(await cart.get(other.id, europe)).toMatchObject({
      discount: null,
      discountProblem: "Spend €46.00 or more to use this code",
      total: 27.6,
    });
  });

  test("the default market prices exactly as no market", async () => {
    expect(await cart.get(buyer.id, unitedStates)).toEqual(await cart.get(buyer.id));
    expect(await cart.quote(germany, buyer.id, unitedStates)).toEqual(
      await cart.quote(germany, buyer.id),
    );
    const answer = (await call(buyer, "POST", "/api/cart/quote", germany)).json();
    expect(answer).toMatchObject({ currency: "USD", subtotal: 72.01, shipping: 7.5, total: 74.51 });
  });

  test("checked out in Europe: the quote's total, the order kept in EUR at its rate", async () => {
    const oregon = { estimate: { country: "US", postalCode: "97301" } };
    const quote = await cart.quote(oregon, buyer.id, europe);
    // The test courier to Oregon is free: €66.25 − €4.60.
    expect(quote).toMatchObject({ currency: "EUR", subtotal: 66.25, shipping: 0, total: 61.65 });
    const checkout = checkoutService();
    const customer = { id: buyer.id, email: buyer.email, name: buyer.name, emailVerified: true };
    const input = {
      phonrNo: "5550100",
      Address: "1 Dock Road",
      shipTo: shipTo(),
      expectedTotal: quote.total,
      discountCode: `EU${process.pid}`,
      poReference: undefined,
      saveToProfile: false,
    };
    const placed = await checkout.checkoutCart(customer, input, undefined, europe);
    expect(placed).toMatchObject({ currency: "EUR", total: 61.65, subtotal: 66.25 });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, placed._id));
    expect(row).toMatchObject({
      currency: "EUR",
      exchangeRate: 0.92,
      totalCents: 6165,
      discountCents: 460,
      shippingCents: 0,
    });
    // What the account holds counts against HOLD_MAX_VALUE in the store's currency: €61.65 at
    // 0.92 is $67.01.
    const read = await readPlacement(
      t.database.db,
      buyer.id,
      { lines: [] },
      {
        trusted: true,
        capNew: false,
        destination: null,
        currency: "USD",
      },
    );
    expect(read.standing.heldCents).toBe(6701);
  });

  test("the product's price, the one-product order's total and the order agree in EUR", async () => {
    const part = await insertProduct(t.database.db, { priceCents: 2586, minimumOrder: 1 });
    const driver = await signUpVerified(t);
    const customer = { id: driver.id, email: driver.email, name: driver.name, emailVerified: true };
    // $25.86 × 0.92 = €23.7912 → €23.79 (docs/pricing.md's example).
    expect(await productPrice(t.database.db, driver.id, "USD", part.id, europe)).toMatchObject({
      currency: "EUR",
      listPrice: 23.79,
      yourPrice: 23.79,
    });
    expect(await productPrice(t.database.db, driver.id, "USD", part.id)).toMatchObject({
      currency: "USD",
      listPrice: 25.86,
      yourPrice: 25.86,
    });
    const checkout = checkoutService();
    const one = { productId: part.id, orderQty: 2, shipTo: shipTo() };
    const total = await checkout.orderTotal(customer, one, europe);
    expect(total).toMatchObject({ subtotal: 47.58, shipping: 0, total: 47.58 });
    const input = { ...one, phonrNo: "5550100", Address: "1 Dock Road", expectedTotal: 47.58 };
    const placed = await checkout.placeOne(customer, input, undefined, europe);
    expect(placed).toMatchObject({ currency: "EUR", total: 47.58 });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, placed._id));
    expect(row).toMatchObject({ currency: "EUR", exchangeRate: 0.92, totalCents: 4758 });
  });
});
