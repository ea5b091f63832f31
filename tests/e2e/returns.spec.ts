import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { pdfText } from "../support/pdf-text";
import { orderAndPay, partOfItsOwn } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { loadedWidth, solidPng } from "./images";
import { receiveAsSent, shipInBrowser } from "./returns-helpers";

const stockOf = async (page: Page, productId: string) =>
  (
    (await (await page.request.get(`/api/products/${productId}`)).json()) as {
      availableQuantity: number;
    }
  ).availableQuantity;

test("a customer returns a part that did not fit with a photo; the admin sees the photo, approves and receives it; the customer gets a credit note and the stock is back", async ({
  page,
  customer,
  adminPage: admin,
  request,
}) => {
  test.setTimeout(120_000);
  // The customer orders and pays (through the API, as the browser would) a part of the test's
  // own: "the stock is back" compares stock that only this order and its return move.
  const part = await partOfItsOwn(admin, { name: "Fuel pump relay", minimumOrder: 2 });
  const product = await orderAndPay(page, encodeURIComponent(part.name));
  expect(product._id).toBe(part._id);

  // The admin ships it, in a browser of their own.
  await shipInBrowser(admin, customer.email);

  const stockBefore = await stockOf(page, product._id);

  // The customer opens the order and asks to return 2 of the parts.
  await page.goto("/dashboard/myitems");
  await page
    .getByTestId("my-order")
    .filter({ hasText: product.name })
    .getByRole("link", { name: /^Details/ })
    .click();
  await page.getByRole("button", { name: "Return items" }).click();
  const form = page.getByRole("dialog", { name: "Return items" });
  await form.getByLabel(`Quantity to return: ${product.name}`).fill("2");
  await form.getByLabel("Reason").selectOption({ label: "Did not fit my vehicle" });
  // The vehicle is required for "did not fit".
  await form.getByRole("button", { name: "Ask to return" }).click();
  await expect(form.getByText("Name the vehicle the part did not fit")).toBeVisible();
  await form.getByLabel("Vehicle").fill("2014 Ford Focus 1.0 EcoBoost");
  await form.getByLabel("Note (optional)").fill("The connector is different.");
  await form.getByLabel("Photos (optional)").setInputFiles({
    name: "connector.png",
    mimeType: "image/png",
    buffer: solidPng(12, [200, 30, 30]),
  });
  await form.getByRole("button", { name: "Ask to return" }).click();
  await expect(form).toHaveCount(0);
  const myReturn = page.getByTestId("order-return");
  await expect(myReturn).toHaveCount(1);
  // The customer sees the photo as a thumbnail.
  const myPhoto = myReturn.getByRole("img", { name: "Photo 1 of the return" });
  await expect(myPhoto).toBeVisible();
  expect(await loadedWidth(myPhoto)).toBe(12);
  await expect(myReturn.getByTestId("return-status")).toHaveText("Requested");
  await expect(myReturn).toContainText(`2 × ${product.name}`);
  const orderUrl = page.url();

  // The admin approves, then marks it received.
  await admin
    .getByRole("navigation", { name: "Dashboard" })
    .getByRole("link", { name: "Returns", exact: true })
    .click();
  await expect(admin.getByRole("heading", { name: "Returns", exact: true })).toBeVisible();
  const returnRow = admin.getByTestId("admin-return").filter({ hasText: customer.email });
  await expect(returnRow).toHaveCount(1);
  await expect(returnRow).toContainText("2014 Ford Focus 1.0 EcoBoost");
  // The admin sees the customer's photo; its link opens the full photo.
  const photo = returnRow.getByRole("img", { name: "Photo 1 of the return" });
  await expect(photo).toBeVisible();
  expect(await loadedWidth(photo)).toBe(12);
  const href = await returnRow
    .getByRole("link", { name: "Photo 1 of the return" })
    .getAttribute("href");
  const full = await admin.request.get(href!);
  expect(full.status()).toBe(200);
  expect(full.headers()["content-type"]).toBe("image/png");
  expect(full.headers()["content-disposition"]).toBe("inline");
  // Private: a visitor without a session is not shown it.
  expect((await request.get(href!)).status()).toBe(401);
  await returnRow.getByRole("button", { name: "Approve" }).click();
  await expect(returnRow.getByTestId("return-status")).toHaveText("Approved: send the parts back");
  await receiveAsSent(admin, returnRow);
  await expect(returnRow.getByTestId("return-status")).toHaveText("Refunded");
  // The fitment report names the vehicle.
  await expect(admin.getByTestId("fitment-row").filter({ hasText: product.name })).toContainText(
    "2014 Ford Focus 1.0 EcoBoost",
  );

  // The stock is back.
  expect(await stockOf(page, product._id)).toBe(stockBefore + 2);

  // The customer sees it refunded and downloads the credit note.
  await page.goto(orderUrl);
  await expect(page.getByTestId("order-return").getByTestId("return-status")).toHaveText(
    "Refunded",
  );
  const link = page.getByTestId("credit-note").getByRole("link", { name: /^Credit note CN-/ });
  await expect(link).toBeVisible();
  const number = (await link.textContent())!.replace("Credit note ", "");
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const { text } = await pdfText(await fs.readFile(await download.path()));
  expect(text).toContain("Credit note");
  expect(text).toContain(number);
});
