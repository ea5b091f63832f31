import type { Page } from "@playwright/test";
import { expect } from "./fixtures";
import { newCustomer } from "./session";

export {
  demoAdmin,
  demoCustomer,
  newCustomer,
  signInThroughApi,
  signUpThroughApi,
} from "./session";

/**
 * Where the e2e customers' orders go: the demo store ships to the US (Standard $9.95, free from
 * $250) and has no sales tax in Oregon, so a total is the parts plus shipping.
 */
export const E2E_SHIP_TO = {
  name: "Sam Driver",
  line1: "12 Garage Lane",
  city: "Portland",
  region: "OR",
  postalCode: "97201",
  country: "US",
  phone: "5035550100",
};

/**
 * Saves `E2E_SHIP_TO` in the signed-in customer's address book (the first address is the
 * default): the product page's order dialog then has it chosen. Answers its id.
 */
export async function saveAddressThroughApi(page: Page): Promise<string> {
  const res = await page.request.post("/api/user/addresses", { data: E2E_SHIP_TO });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/**
 * Signs up through the sign-up form and waits until the navbar shows the new user. For tests
 * whose subject is the form; others use signUpThroughApi or the `customer` fixture.
 */
export async function signUpInBrowser(page: Page, who = newCustomer()) {
  await page.goto("/signup");
  await page.getByLabel("Name").fill(who.name);
  await page.getByLabel("Email", { exact: true }).fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByTestId("user-name").first()).toHaveText(who.name);
  return who;
}

/** Fills the login form (the page must already show it). */
export async function fillLogin(page: Page, email: string, password: string) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login", exact: true }).click();
}

export async function signInInBrowser(page: Page, who: { email: string; password: string }) {
  await page.goto("/login");
  await fillLogin(page, who.email, who.password);
  await expect(page.getByRole("button", { name: "Sign Out" }).first()).toBeVisible();
}

export interface ApiProduct {
  _id: string;
  name: string;
  price: number;
  minimumOrder: number;
  /** What a retail customer or a visitor orders at least (docs/pricing.md). */
  retailMinimum: number;
  availableQuantity: number;
}

/**
 * A part of the test's own, made through the API in `admin`'s session (an admin's page), with
 * 40 in stock: no other test orders it, so its stock moves only with the test's own orders (a
 * demo part's stock changes meanwhile with the orders of the journeys running beside it).
 * Answers it as the product list does.
 */
export async function partOfItsOwn(
  admin: Page,
  { name, minimumOrder }: { name: string; minimumOrder: number },
): Promise<ApiProduct> {
  const stamp = `${Date.now()}-${process.pid}`;
  const created = await admin.request.post("/api/products", {
    data: {
      name: `${name} ${stamp}`,
      partNumber: `OWN-${stamp}`,
      category: "Other",
      price: 18,
      minimumOrder,
      availableQuantity: 40,
      warranty: 12,
      shortDescription: "A part of one end-to-end test's own",
      img: "/images/products/timing-belt-kit.svg",
    },
  });
  expect(created.status()).toBe(201);
  const part = await productNamed(admin, `${name} ${stamp}`);
  expect(part.name).toBe(`${name} ${stamp}`);
  return part;
}

/** The first demo product whose name or description matches `q`, from the API. */
export async function productNamed(page: Page, q: string): Promise<ApiProduct> {
  const res = await page.request.get(`/api/products?q=${encodeURIComponent(q)}`);
  const [p] = (await res.json()) as ApiProduct[];
  if (!p) throw new Error(`no demo product matches ${q}`);
  return p;
}

/**
 * As the signed-in customer of `page`, orders the minimum of the first product matching `q` and
 * pays for it with the test card, through the API as the browser would. Answers the product.
 */
export async function orderAndPay(page: Page, q: string) {
  const [product] = (await (await page.request.get(`/api/products?q=${q}`)).json()) as {
    _id: string;
    name: string;
    minimumOrder: number;
  }[];
  const placed = await page.request.post("/api/orders", {
    data: {
      productId: product!._id,
      orderQty: product!.minimumOrder,
      phonrNo: "07700900123",
      Address: "3 Depot Street",
      shipTo: E2E_SHIP_TO,
    },
  });
  expect(placed.status()).toBe(201);
  await payThroughApi(page, (await placed.json()).order._id);
  return product!;
}

/** Pays the order with the test card 4242 as the payment page does, and tells the store. */
export async function payThroughApi(page: Page, orderId: string) {
  const { clientSecret } = await (
    await page.request.post("/api/create-payment-intent", { data: { orderId } })
  ).json();
  const { transactionId } = await (
    await page.request.post("/api/payments/test-card/confirm", {
      data: { clientSecret, number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" },
    })
  ).json();
  expect(
    (await page.request.patch(`/api/orders/${orderId}`, { data: { transactionId } })).ok(),
  ).toBe(true);
}
