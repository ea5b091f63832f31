import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { pdfText } from "../support/pdf-text";
import { demoAdmin, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { receiveAsSent, shipInBrowser } from "./returns-helpers";

// Core charges (docs/core-charges.md): the admin sets a deposit, the customer sees it beside the
// price, pays it as its own line, sends the old part back, and gets the deposit refunded.

const stockOf = async (page: Page, productId: string) =>
  (
    (await (await page.request.get(`/api/products/${productId}`)).json()) as {
      availableQuantity: number;
    }
  ).availableQuantity;

test("an admin sets a core deposit; the customer pays it beside the price and gets it back with a core return", async ({
  page,
  browser,
  baseURL,
}) => {
  // Two browsers and a whole journey: longer than the default on a busy machine.
  test.setTimeout(150_000);
  // The admin adds a remanufactured alternator and gives it a core deposit in the edit dialog.
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  const name = `Remanufactured alternator ${Date.now()}-${process.pid}`;
  const created = await admin.request.post("/api/products", {
    data: {
      name,
      partNumber: `CORE-${Date.now()}-${process.pid}`,
      category: "Electrical",
      price: 150,
      minimumOrder: 1,
      availableQuantity: 10,
      warranty: 12,
      shortDescription: "Remanufactured; send the old unit back for the core deposit",
      img: "/images/products/timing-belt-kit.svg",
    },
  });
  expect(created.status()).toBe(201);
  const productId = ((await created.json()) as { product: { _id: string } }).product._id;
  await admin.goto("/dashboard/manageallproducts");
  await admin.getByLabel("Search products").fill(name);
  await admin.getByRole("button", { name: "Search" }).click();
  const row = admin.getByRole("table", { name: "Products" }).getByRole("row").filter({
    hasText: name,
  });
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = admin.getByRole("dialog", { name: `Edit ${name}` });
  const deposit = edit.getByLabel("Core deposit per unit (remanufactured parts)");
  await deposit.fill("0");
  await edit.getByRole("button", { name: "Save deposit" }).click();
  await expect(edit.getByText("A core deposit is more than 0")).toBeVisible();
  await deposit.fill("45");
  await edit.getByRole("button", { name: "Save deposit" }).click();
  await expect(admin.getByText(`The core deposit of ${name} is saved`)).toBeVisible();
  await edit.getByRole("button", { name: "Cancel" }).click();
  await expect(edit).toBeHidden();

  // The customer sees the deposit beside the price, on the card and in the cart.
  const who = await signUpThroughApi(page);
  await page.goto(`/allproducts?q=${encodeURIComponent(name)}`);
  const card = page.getByRole("article").filter({ hasText: name });
  await expect(card.getByTestId("core-deposit")).toHaveText("$45.00");
  await card.getByRole("button", { name: `Add to cart: ${name}` }).click();
  await expect(page.getByRole("link", { name: `In your cart (1): ${name}` })).toBeVisible();
  await page.goto("/cart");
  await expect(page.getByTestId("cart-core-deposit")).toContainText("$45.00 each");

  // Checkout to Austin, TX: the deposit is its own line in the totals; then the test card pays.
  await page.getByRole("button", { name: "Check out" }).click();
  await expect(page.getByRole("heading", { name: "Where should we deliver?" })).toBeVisible();
  await page.getByLabel("Address line 1").fill("100 Congress Ave");
  await page.getByLabel("City").fill("Austin");
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("State").selectOption("TX");
  await page.getByLabel("Postal code").fill("78701");
  await page.getByLabel("Phone").fill("(512) 555-0100");
  await page.getByRole("button", { name: "Use this address" }).click();
  await expect(page.getByTestId("checkout-subtotal")).toHaveText("$150.00");
  await expect(page.getByTestId("checkout-core-deposits")).toHaveText("$45.00");
  const total = (await page.getByTestId("checkout-total").textContent())!;
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/dashboard\/orders\//);
  const orderUrl = page.url();
  const depositLine = page.getByTestId("order-core-deposit");
  await expect(depositLine).toContainText(`Core deposit: ${name}`);
  await expect(depositLine).toContainText("$45.00");
  await expect(page.getByTestId("order-total")).toHaveText(total);
  await page.getByRole("link", { name: `Pay ${total}` }).click();
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByLabel("Expiry (MM / YY)").fill("1230");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: `Pay ${total}` }).click();
  await expect(page.getByText("Congrats! Your payment is completed.")).toBeVisible();
  expect(await stockOf(page, productId)).toBe(9);

  // The admin ships it.
  await shipInBrowser(admin, who.email);

  // The customer sends the old alternator back: a core return.
  await page.goto(orderUrl);
  await expect(page.getByTestId("order-core-deposit")).toBeVisible();
  await expect(page.getByTestId("core-return-until")).toBeVisible();
  await page.getByRole("button", { name: "Return items" }).click();
  const form = page.getByRole("dialog", { name: "Return items" });
  await form
    .getByLabel("Reason")
    .selectOption({ label: "Core return: the old part, for its deposit" });
  await expect(form.getByText("deposit $45.00 each")).toBeVisible();
  await expect(form.getByLabel(`Quantity to return: ${name}`)).toHaveValue("1");
  await form.getByRole("button", { name: "Ask to return" }).click();
  await expect(form).toHaveCount(0);
  const myReturn = page.getByTestId("order-return");
  await expect(myReturn).toContainText(`1 × Core of ${name}`);
  await expect(myReturn).toContainText("$45.00");

  // The admin approves and receives it: the deposit is refunded, the stock does not move.
  await admin
    .getByRole("navigation", { name: "Dashboard" })
    .getByRole("link", { name: "Returns", exact: true })
    .click();
  const returnRow = admin.getByTestId("admin-return").filter({ hasText: who.email });
  await returnRow.getByRole("button", { name: "Approve" }).click();
  await expect(returnRow.getByTestId("return-status")).toHaveText("Approved: send the parts back");
  await receiveAsSent(admin, returnRow);
  await expect(returnRow.getByTestId("return-status")).toHaveText("Refunded");
  await adminContext.close();
  expect(await stockOf(page, productId)).toBe(9);

  await page.goto(orderUrl);
  await expect(page.getByTestId("order-return").getByTestId("return-status")).toHaveText(
    "Refunded",
  );
  const note = page.getByTestId("credit-note");
  await expect(note).toContainText("-$45.00");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    note.getByRole("link", { name: /^Credit note CN-/ }).click(),
  ]);
  const { text } = await pdfText(await fs.readFile(await download.path()));
  // Long descriptions are shortened in the PDF's column.
  expect(text).toContain("Core deposit: Remanufactured alternator");
  expect(text).toContain("Core deposit refunded: the old part came back");
  expect(text).toContain("Total (USD) -$45.00");
});
