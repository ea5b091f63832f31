import { demoAdmin, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { GARAGE_GROUP_ID } from "../../src/contract/customer-groups";
import { expect, test } from "./fixtures";
import type { Browser, Page } from "@playwright/test";
import { screenshot } from "./screenshots";

// Issue 54, items 1–3 follow-ups (docs/pricing.md "Group prices on cards and lists", "Quantities
// by group"): the admin sets a part's retail minimum and pack size on the product form; a garage
// customer sees the group price on the part's card with the list price struck through and is
// refused a quantity that is not a pack multiple; a retail customer orders one.

/** A customer without a company in a new browser, placed in Garage by the admin's API. */
async function garageCustomer(browser: Browser, baseURL: string | undefined, admin: Page) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const who = await signUpThroughApi(page);
  const me = (await (await page.request.get("/api/user")).json()) as { _id: string };
  const put = await admin.request.put(`/api/users/${me._id}/customer-group`, {
    data: { customerGroupId: GARAGE_GROUP_ID },
  });
  expect(put.status()).toBe(200);
  return { context, page, who };
}

test("the admin sets packs of 10 and a retail minimum of 1; a garage sees its price on the card and is held to packs; a retail customer orders one", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  const id = `${Date.now()}${process.pid}`.slice(-9);
  const name = `Glow plug ${id}`;
  const partNumber = `PW-PQ-${id}`;

  // The admin: a part the trade buys from 10, on the product form in packs of 10, and 20 % off
  // it for Garage.
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  const created = await admin.request.post("/api/products", {
    data: {
      name,
      partNumber,
      category: "Ignition",
      price: 10,
      minimumOrder: 10,
      availableQuantity: 500,
      warranty: 12,
      shortDescription: "Sold to the trade by the pack",
      img: "/images/products/iridium-spark-plugs.svg",
    },
  });
  expect(created.status()).toBe(201);
  const productId = ((await created.json()) as { product: { _id: string } }).product._id;
  await admin.goto("/dashboard/manageallproducts");
  await admin.getByLabel("Search products").fill(name);
  await admin.getByRole("button", { name: "Search" }).click();
  await admin
    .getByRole("table", { name: "Products" })
    .getByRole("row")
    .filter({ hasText: name })
    .getByRole("button", { name: `Edit ${name}` })
    .click();
  const edit = admin.getByRole("dialog", { name: `Edit ${name}` });
  await expect(edit.getByLabel("Retail minimum")).toHaveValue("1");
  await edit.getByLabel("Pack size").fill("0");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByText("Must be at least 1")).toBeVisible();
  // A pack the minimum of 10 is not a whole number of: refused beside the minimum.
  await edit.getByLabel("Pack size").fill("4");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(
    edit.getByText("The minimum order must be a multiple of the pack size (4)"),
  ).toBeVisible();
  if (process.env.SCREENSHOT_DIR) {
    for (const [w, h] of [
      [1366, 768],
      [390, 844],
    ] as const) {
      await admin.setViewportSize({ width: w, height: h });
      await edit.getByLabel("Minimum order").scrollIntoViewIfNeeded();
      await screenshot(admin, `pack-minimum-${w}`, { fullPage: false });
    }
    await admin.setViewportSize({ width: 1280, height: 720 });
  }
  await edit.getByLabel("Pack size").fill("10");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(admin.getByText(`${name} is updated`)).toBeVisible();
  const rule = await admin.request.post(`/api/customer-groups/${GARAGE_GROUP_ID}/rules`, {
    data: { percent: 20, scope: "part", partNumber },
  });
  expect(rule.status()).toBe(201);

  // A garage customer: the group price on the card, the list price struck through beside it,
  // the trade minimum and the pack.
  const garage = await garageCustomer(browser, baseURL, admin);
  try {
    await garage.page.goto(`/allproducts?q=${encodeURIComponent(partNumber)}`);
    const card = garage.page.getByRole("article").filter({ hasText: name });
    await expect(card.getByTestId("card-your-price").locator("strong")).toHaveText("$8.00");
    await expect(card.getByLabel("List price $10.00")).toBeVisible();
    await expect(card.getByTestId("card-price-note")).toHaveText(
      "Garage price: 20 % off this part",
    );
    await expect(card.getByTestId("card-pack-size")).toHaveText("10");
    // 15 is not a pack multiple: the product page says so, and the cart refuses to check out.
    await garage.page.goto(`/products/${productId}`);
    await expect(garage.page.getByText("min 10 · packs of 10 · 500 in stock")).toBeVisible();
    await garage.page.getByRole("spinbutton", { name: "Quantity" }).fill("15");
    await expect(
      garage.page.getByRole("status").filter({ hasText: "Order this part in packs of 10" }),
    ).toBeVisible();
    garage.page.once("dialog", (d) => {
      expect(d.message()).toBe("Order this part in packs of 10");
      void d.accept();
    });
    await garage.page.getByRole("button", { name: "Place Order" }).click();
    await expect(garage.page.getByRole("dialog")).toHaveCount(0);
    await garage.page.getByRole("button", { name: `Add to cart: ${name}` }).click();
    await garage.page.goto("/cart");
    await expect(garage.page.getByTestId("cart-line").filter({ hasText: name })).toContainText(
      "Order this part in packs of 10",
    );
  } finally {
    await garage.context.close();
  }

  // A retail customer: the list price on the card, a minimum of 1, and an order of one.
  await signUpThroughApi(page);
  await page.goto(`/allproducts?q=${encodeURIComponent(partNumber)}`);
  const card = page.getByRole("article").filter({ hasText: name });
  await expect(card.getByText("$10.00")).toBeVisible();
  await expect(card.getByTestId("card-your-price")).toHaveCount(0);
  await expect(card.getByTestId("card-pack-size")).toHaveCount(0);
  await page.goto(`/products/${productId}`);
  await expect(page.getByText("min 1 · 500 in stock")).toBeVisible();
  await page.getByRole("spinbutton", { name: "Quantity" }).fill("1");
  await page.getByRole("button", { name: "Place Order" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Address line 1").fill("100 Congress Ave");
  await dialog.getByLabel("City").fill("Austin");
  await dialog.getByLabel("Country").selectOption("US");
  await dialog.getByLabel("State").selectOption("TX");
  await dialog.getByLabel("Postal code").fill("78701");
  await dialog.getByLabel("Phone", { exact: true }).first().fill("5125550100");
  await dialog.getByRole("button", { name: "Use this address" }).click();
  await expect(dialog.getByTestId("order-dialog-total-to-pay")).toBeVisible();
  await dialog.getByRole("button", { name: "Confirm order" }).click();
  await expect(page.getByText("Your Oder has been placed")).toBeVisible();

  const removed = await admin.request.delete(
    `/api/customer-groups/${GARAGE_GROUP_ID}/rules/${((await rule.json()) as { id: string }).id}`,
  );
  expect(removed.status()).toBe(204);
  await adminContext.close();
});
