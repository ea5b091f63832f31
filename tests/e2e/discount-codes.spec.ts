import {
  E2E_SHIP_TO,
  demoAdmin,
  productNamed,
  signInThroughApi,
  signUpThroughApi,
} from "./auth-helpers";
import { expect, test } from "./fixtures";
import { screenshot } from "./screenshots";

// Discount codes (docs/pricing.md "Discount codes"): the admin creates a code on its screen; a
// customer applies it in the cart (a wrong one is refused with its words), sees its line, checks
// out, pays with the test card, and the order shows the discount. A code for one customer group,
// made on the screen; a driver orders one oil filter from its page with it.

const shots = process.env.SCREENSHOT_DIR;

test("an admin creates a discount code; a customer applies it, checks out, pays, and the order shows the discount", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  const stamp = `${Date.now()}${process.pid}`.slice(-10);
  const code = `SPRING${stamp}`;
  const name = `Cabin air filter ${stamp}`;

  // The admin: a $21.00 part (through the API), then the code on the Discount codes screen.
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  const created = await admin.request.post("/api/products", {
    data: {
      name,
      partNumber: `DC-${stamp}`,
      category: "Filters",
      price: 21,
      minimumOrder: 1,
      availableQuantity: 100,
      warranty: 12,
      shortDescription: "A cabin air filter",
      img: "/images/products/oil-filter.svg",
    },
  });
  expect(created.status()).toBe(201);
  const productId = ((await created.json()) as { product: { _id: string } }).product._id;
  await admin.goto("/dashboard");
  await admin.getByRole("link", { name: "Discount codes" }).first().click();
  await expect(admin.getByRole("heading", { name: "Discount codes", level: 1 })).toBeVisible();
  const form = admin.getByRole("form", { name: "New discount code" });
  await form.getByLabel("Code").fill(code);
  await form.getByLabel("Percent off").fill("10");
  await form.getByLabel("For").selectOption("category");
  await form.getByLabel("Category").selectOption("Filters");
  await form.getByRole("button", { name: "Create code" }).click();
  await expect(admin.getByText(`Created ${code}: 10 % off filters`)).toBeVisible();
  await admin.getByLabel("Search discount codes").fill(code);
  await admin.getByRole("button", { name: "Search" }).click();
  await expect(admin.getByTestId("discount-code-row").filter({ hasText: code })).toContainText(
    "10 % off filters",
  );
  if (shots) {
    for (const [w, h] of [
      [1366, 768],
      [390, 844],
    ] as const) {
      await admin.setViewportSize({ width: w, height: h });
      await screenshot(admin, `discount-codes-admin-${w}`);
    }
  }
  await adminContext.close();

  // The customer: two filters in the cart, a wrong code, then the right one in lower case.
  await signUpThroughApi(page);
  const put = await page.request.put(`/api/cart/items/${productId}`, { data: { qty: 2 } });
  expect(put.status()).toBe(200);
  await page.goto("/cart");
  await expect(page.getByTestId("cart-subtotal")).toHaveText("$42.00");
  const field = page.getByRole("textbox", { name: "Discount code" });
  await field.fill("NOT-A-CODE");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "This code is unknown or has ended" }),
  ).toBeVisible();
  await field.fill(code.toLowerCase());
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText(`Discount (${code})`)).toBeVisible();
  await expect(page.getByTestId("cart-discount")).toHaveText("−$4.20");
  await expect(page.getByTestId("discount-applied")).toContainText("10 % off filters");
  if (shots) {
    for (const [w, h] of [
      [1366, 768],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await screenshot(page, `discount-codes-cart-${w}`);
    }
    await page.setViewportSize({ width: 1366, height: 768 });
  }

  // Checkout to Oregon (no sales tax; $9.95 shipping): the discount line, then the order.
  await page.getByRole("button", { name: "Check out" }).click();
  await page.getByLabel("Address line 1").fill(E2E_SHIP_TO.line1);
  await page.getByLabel("City").fill(E2E_SHIP_TO.city);
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("State").selectOption("OR");
  await page.getByLabel("Postal code").fill(E2E_SHIP_TO.postalCode);
  await page.getByLabel("Phone").fill(E2E_SHIP_TO.phone);
  await page.getByRole("button", { name: "Use this address" }).click();
  await expect(page.getByTestId("checkout-subtotal")).toHaveText("$42.00");
  await expect(page.getByTestId("checkout-discount")).toHaveText("−$4.20");
  const total = (await page.getByTestId("checkout-total").textContent())!;
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/dashboard\/orders\//);
  await expect(page.getByTestId("order-discount")).toHaveText("−$4.20");
  await expect(page.getByText(`Discount (${code})`)).toBeVisible();

  // Paid with the test card 4242 4242 4242 4242: the order still shows its discount.
  await page.getByRole("link", { name: `Pay ${total}` }).click();
  const pay = page.getByRole("button", { name: `Pay ${total}` });
  await expect(pay).toBeEnabled();
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByLabel("Expiry (MM / YY)").fill("1230");
  await page.getByLabel("CVC").fill("123");
  await pay.click();
  await expect(page.getByText("Congrats! Your payment is completed.")).toBeVisible();
  await page.getByRole("link", { name: "View your order" }).click();
  await expect(page.getByText("Thank you: your payment is received.")).toBeVisible();
  await expect(page.getByTestId("order-discount")).toHaveText("−$4.20");
  if (shots) {
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "discount-codes-order-390");
  }
});

test("an admin makes a code for retail customers on the screen; a driver orders one oil filter from its page with it", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  const stamp = `${Date.now()}${process.pid}`.slice(-10);
  const code = `DRIVER${stamp}`;
  const filter = await productNamed(page, "oil filter");
  const money = (n: number) => `$${n.toFixed(2)}`;

  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  await admin.goto("/dashboard/discount-codes");
  const form = admin.getByRole("form", { name: "New discount code" });
  await form.getByLabel("Code").fill(code);
  await form.getByLabel("Percent off").fill("10");
  await expect(form.getByLabel("Customer group")).toHaveValue("");
  await form.getByLabel("Customer group").selectOption({ label: "Retail" });
  await form.getByRole("button", { name: "Create code" }).click();
  await expect(admin.getByText(`Created ${code}: 10 % off everything`)).toBeVisible();
  await admin.getByLabel("Search discount codes").fill(code);
  await admin.getByRole("button", { name: "Search" }).click();
  await expect(admin.getByTestId("discount-code-row").filter({ hasText: code })).toContainText(
    "10 % off everythingFor Retail only",
  );
  if (shots) {
    for (const [w, h] of [
      [1366, 768],
      [390, 844],
    ] as const) {
      await admin.setViewportSize({ width: w, height: h });
      await screenshot(admin, `discount-codes-group-${w}`);
    }
  }
  await adminContext.close();

  // The driver: one filter, the order dialog, a wrong code, then the right one.
  await signUpThroughApi(page);
  await page.goto(`/products/${filter._id}`);
  await page.getByRole("spinbutton", { name: "Quantity" }).fill("1");
  await page.getByRole("button", { name: "Place Order" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Address line 1").fill(E2E_SHIP_TO.line1);
  await dialog.getByLabel("City").fill(E2E_SHIP_TO.city);
  await dialog.getByLabel("Country").selectOption("US");
  await dialog.getByLabel("State").selectOption("OR");
  await dialog.getByLabel("Postal code").fill(E2E_SHIP_TO.postalCode);
  await dialog.getByLabel("Phone", { exact: true }).first().fill(E2E_SHIP_TO.phone);
  await dialog.getByRole("button", { name: "Use this address" }).click();
  await expect(dialog.getByTestId("order-dialog-total-to-pay")).toBeVisible();
  const codeField = dialog.getByRole("textbox", { name: "Discount code" });
  await codeField.fill("NOT-A-CODE");
  await dialog.getByRole("button", { name: "Apply" }).click();
  await expect(dialog.getByText("This code is unknown or has ended")).toBeVisible();
  await codeField.fill(code.toLowerCase());
  await dialog.getByRole("button", { name: "Apply" }).click();
  await expect(dialog.getByTestId("order-discount-applied")).toContainText(`Code ${code} applied`);
  const off = Math.round(filter.price * 10) / 100;
  await expect(dialog.getByText(`Discount (${code})`)).toBeVisible();
  await expect(dialog.getByTestId("order-dialog-total-discount")).toHaveText(`−${money(off)}`);
  if (shots) {
    for (const [w, h] of [
      [1366, 768],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await screenshot(page, `discount-codes-order-dialog-${w}`, { fullPage: false });
    }
    await page.setViewportSize({ width: 1366, height: 768 });
  }
  await dialog.getByRole("button", { name: "Confirm order" }).click();
  await expect(page.getByText("Your Oder has been placed")).toBeVisible();

  // The order keeps the code: its page shows the line.
  const orders = (await (await page.request.get("/api/orders")).json()) as { _id: string }[];
  expect(orders).toHaveLength(1);
  await page.goto(`/dashboard/orders/${orders[0]!._id}`);
  await expect(page.getByTestId("order-discount")).toHaveText(`−${money(off)}`);
  await expect(page.getByText(`Discount (${code})`)).toBeVisible();
});
