import type { Page } from "@playwright/test";
import { E2E_SHIP_TO, productNamed, saveAddressThroughApi, signUpThroughApi } from "./auth-helpers";
import { signUpTradeBuyer } from "./company-invitation";
import { expect, test } from "./fixtures";

/**
 * Sets the quantity by typing, then places the order through the modal, to the customer's
 * default address (`saveAddressThroughApi`) once its total is shown.
 */
async function order(page: Page, quantity: number) {
  await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(quantity));
  await page.getByRole("button", { name: "Place Order" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("order-dialog-total-to-pay")).toBeVisible();
  await dialog.getByRole("button", { name: "Confirm order" }).click();
}

test("a driver without a saved address orders one part from its page and pays shipping and tax (issue 48)", async ({
  page,
}) => {
  const who = await signUpThroughApi(page);
  // A part whose minimum order is under the $250 from which Standard shipping is free.
  const p = await productNamed(page, "wiper");
  expect(p.minimumOrder * p.price).toBeLessThan(250);
  await page.goto(`/products/${p._id}`);
  await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(p.minimumOrder));
  await page.getByRole("button", { name: "Place Order" }).click();
  const dialog = page.getByRole("dialog");
  // No address yet: the dialog asks where it goes (and keeps it in the address book).
  await expect(dialog.getByRole("heading", { name: "Where should we deliver?" })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Confirm order" })).toBeDisabled();
  await dialog.getByLabel("Address line 1").fill("100 Congress Ave");
  await dialog.getByLabel("City").fill("Austin");
  await dialog.getByLabel("Country").selectOption("US");
  await dialog.getByLabel("State").selectOption("TX");
  await dialog.getByLabel("Postal code").fill("78701");
  await dialog.getByLabel("Phone", { exact: true }).first().fill("5125550100");
  await dialog.getByRole("button", { name: "Use this address" }).click();
  const shipTo = `${who.name}, 100 Congress Ave, Austin, TX 78701, United States`;
  await expect(dialog.getByRole("radio", { name: shipTo })).toBeChecked();
  // The spec's fields show where it goes; the charges are the server's for that address.
  await expect(dialog.getByLabel("Address", { exact: true })).toHaveValue(shipTo);
  const lines = dialog.getByTestId("order-dialog-total");
  await expect(lines).toContainText("Shipping (Standard)");
  await expect(lines).toContainText("$9.95");
  const parts = p.minimumOrder * p.price;
  const tax = Math.round(parts * 6.25) / 100 + Math.round(9.95 * 6.25) / 100;
  await expect(dialog.getByTestId("order-dialog-total-to-pay")).toHaveText(
    `$${(parts + 9.95 + tax).toFixed(2)}`,
  );
  const toPay = (await dialog.getByTestId("order-dialog-total-to-pay").textContent())!;
  await dialog.getByRole("button", { name: "Confirm order" }).click();
  await expect(page.getByText("Your Oder has been placed")).toBeVisible();
  // The order charges what the dialog said.
  await page.goto("/dashboard/myitems");
  await expect(page.getByTestId("my-order").filter({ hasText: p.name })).toContainText(toPay);
});

test("the quantity selector floors at 0 and the two alerts block the order modal", async ({
  page,
}) => {
  // A garage's buyer: the part's trade minimum holds (a retail customer's minimum is one part).
  await signUpTradeBuyer(page);
  const p = await productNamed(page, "radiator");
  await page.goto(`/products/${p._id}`);
  const qty = page.getByRole("spinbutton", { name: "Quantity" });
  await expect(qty).toHaveValue("0");
  await page.getByRole("button", { name: "Decrease quantity" }).click();
  await expect(qty).toHaveValue("0");
  await page.getByRole("button", { name: "Increase quantity" }).click();
  await page.getByRole("button", { name: "Increase quantity" }).click();
  await expect(qty).toHaveValue("2");
  await page.getByRole("button", { name: "Decrease quantity" }).click();
  await expect(qty).toHaveValue("1");

  const alerts: string[] = [];
  page.on("dialog", (d) => {
    alerts.push(d.message());
    void d.accept();
  });
  const count = (n: number) => n.toLocaleString("en-US");
  // The limits are there before any alert, and said beside the number as it changes.
  await expect(
    page.getByText(`min ${count(p.minimumOrder)} · ${count(p.availableQuantity)} in stock`),
  ).toBeVisible();
  await qty.fill(String(p.minimumOrder - 1));
  await expect(page.getByRole("status").filter({ hasText: "minimum" })).toHaveText(
    `The minimum order is ${count(p.minimumOrder)}`,
  );
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect.poll(() => alerts).toEqual([`please order at least ${p.minimumOrder}`]);
  await qty.fill(String(p.availableQuantity + 1));
  await expect(page.getByRole("status").filter({ hasText: "in stock" })).toHaveText(
    `Only ${count(p.availableQuantity)} in stock`,
  );
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect
    .poll(() => alerts)
    .toEqual([
      `please order at least ${p.minimumOrder}`,
      `please order less then ${p.availableQuantity}`,
    ]);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("the total is quantity × price at every quantity, with the limits said beside it", async ({
  page,
}) => {
  // A garage's buyer: the part's trade minimum holds (a retail customer's minimum is one part).
  await signUpTradeBuyer(page);
  const p = await productNamed(page, "radiator");
  expect(p.minimumOrder).toBeGreaterThan(1); // so that 1 is below the minimum
  await page.goto(`/products/${p._id}`);
  const qty = page.getByRole("spinbutton", { name: "Quantity" });
  const total = page.getByTestId("order-total");
  const money = (n: number) =>
    new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(n);
  const count = (n: number) => n.toLocaleString("en-US");
  const warning = page.getByRole("status").filter({ hasText: /minimum|in stock/ });

  await expect(qty).toHaveValue("0");
  await expect(total).toHaveText("$0.00");
  await expect(warning).toHaveCount(0);

  await page.getByRole("button", { name: "Increase quantity" }).click();
  await expect(total).toHaveText(money(p.price));
  await expect(warning).toHaveText(`The minimum order is ${count(p.minimumOrder)}`);

  await qty.fill(String(p.minimumOrder));
  await expect(total).toHaveText(money(p.minimumOrder * p.price));
  await expect(warning).toHaveCount(0);

  // More than the stock: still the spec's total, with the stock said beside it.
  const tooMany = p.availableQuantity + 1;
  await qty.fill(String(tooMany));
  await expect(total).toHaveText(money(tooMany * p.price));
  await expect(warning).toHaveText(`Only ${count(p.availableQuantity)} in stock`);
});

test("order, see the duplicate message, pay with 4242…, and My Items shows it paid", async ({
  page,
}) => {
  await signUpThroughApi(page);
  await saveAddressThroughApi(page);
  const p = await productNamed(page, "alternator");
  await page.goto(`/products/${p._id}`);
  await order(page, p.minimumOrder);
  await expect(page.getByText("Your Oder has been placed")).toBeVisible();
  // The duplicate rule is said before anything is filled in, and again as the order's result.
  await expect(page.getByTestId("already-ordered")).toContainText(
    "You have already ordered this product",
  );
  await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(p.minimumOrder));
  await page.getByRole("button", { name: "Place Order" }).click();
  await expect(
    page
      .locator("[data-sonner-toast]")
      .filter({ hasText: "You have already ordered this product" }),
  ).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.goto("/dashboard/myitems");
  const row = page.getByTestId("my-order").filter({ hasText: p.name });
  await expect(row.getByText("Unpaid")).toBeVisible();
  await expect(row.getByRole("button", { name: "Delete" })).toBeVisible();
  await row.getByRole("link", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\//);

  // A declined card first: a red error, and the order stays unpaid.
  const pay = page.getByRole("button", { name: /^Pay / });
  await expect(pay).toBeEnabled();
  await page.getByLabel("Card number").fill("4000000000000002");
  await page.getByLabel("Expiry (MM / YY)").fill("1230");
  await page.getByLabel("CVC").fill("123");
  await pay.click();
  const error = page.getByRole("alert").filter({ hasText: "Your card was declined." });
  await expect(error).toBeVisible();
  await expect(error).toHaveClass(/text-error/);

  await page.getByLabel("Card number").fill("4242424242424242");
  await pay.click();
  await expect(page.getByText("Congrats! Your payment is completed.")).toBeVisible();
  const transaction = await page.locator(".alert-success .font-mono").textContent();
  expect(transaction).toMatch(/^pi_test_/);
  await expect(pay).toBeDisabled();

  await page.goto("/dashboard/myitems");
  const paidRow = page.getByTestId("my-order").filter({ hasText: p.name });
  await expect(paidRow.getByText("Paid", { exact: true })).toBeVisible();
  await expect(paidRow.getByText(transaction!)).toBeVisible();
  await expect(paidRow.getByRole("button", { name: "Delete" })).toHaveCount(0);
});

test("insufficient funds shows the card error in red and leaves the order unpaid", async ({
  page,
}) => {
  await signUpThroughApi(page);
  await saveAddressThroughApi(page);
  const p = await productNamed(page, "spark");
  await page.goto(`/products/${p._id}`);
  await order(page, p.minimumOrder);
  await expect(page.getByText("Your Oder has been placed")).toBeVisible();
  await page.goto("/dashboard/myitems");
  await page.getByRole("link", { name: "Pay" }).click();
  await page.getByLabel("Card number").fill("4000 0000 0000 9995");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByText("Your card has insufficient funds.")).toHaveClass(/text-error/);
  await page.goto("/dashboard/myitems");
  await expect(page.getByTestId("my-order").getByText("Unpaid")).toBeVisible();
});

test("deleting an unpaid order after confirming removes it and restores the stock", async ({
  page,
}) => {
  await signUpThroughApi(page);
  await saveAddressThroughApi(page);
  const p = await productNamed(page, "wiper");
  await page.goto(`/products/${p._id}`);
  await order(page, p.minimumOrder);
  await expect(page.getByText("Your Oder has been placed")).toBeVisible();
  const afterOrder = (await productNamed(page, "wiper")).availableQuantity;

  await page.goto("/dashboard/myitems");
  const row = page.getByTestId("my-order").filter({ hasText: p.name });
  await row.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this order?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toBeVisible();

  await row.getByRole("button", { name: "Delete" }).click();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("my-order").filter({ hasText: p.name })).toHaveCount(0);
  expect((await productNamed(page, "wiper")).availableQuantity).toBe(afterOrder + p.minimumOrder);
});

test("a duplicate found only on confirming is said inside the dialog, keeping where it goes", async ({
  page,
}) => {
  await signUpThroughApi(page);
  await saveAddressThroughApi(page);
  const p = await productNamed(page, "spark plug");
  await page.goto(`/products/${p._id}`);
  await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(p.minimumOrder));
  await page.getByRole("button", { name: "Place Order" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("order-dialog-total-to-pay")).toBeVisible();
  // Meanwhile another tab orders the same part.
  const elsewhere = await page.request.post("/api/orders", {
    data: {
      productId: p._id,
      orderQty: p.minimumOrder,
      phonrNo: "07700900123",
      Address: "Depot",
      shipTo: E2E_SHIP_TO,
    },
  });
  expect(elsewhere.status()).toBe(201);
  await dialog.getByRole("button", { name: "Confirm order" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("You have already ordered this product");
  await expect(dialog.getByLabel("Address", { exact: true })).toHaveValue(
    /12 Garage Lane, Portland, OR 97201/,
  );
});
