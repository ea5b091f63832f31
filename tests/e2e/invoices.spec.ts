import fs from "node:fs/promises";
import { pdfText } from "../support/pdf-text";
import { productNamed, saveAddressThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

test("a customer pays with the test card, then downloads the order's invoice from My Items", async ({
  page,
}) => {
  await signUpThroughApi(page);
  await saveAddressThroughApi(page);
  const p = await productNamed(page, "wiper blade");
  const product = (await (await page.request.get(`/api/products/${p._id}`)).json()) as {
    partNumber: string;
    price: number;
  };
  await page.goto(`/products/${p._id}`);
  await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(p.minimumOrder));
  await page.getByRole("button", { name: "Place Order" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("order-dialog-total-to-pay")).toBeVisible();
  await dialog.getByRole("button", { name: "Confirm order" }).click();
  await expect(page.getByText("Your Oder has been placed")).toBeVisible();

  // Unpaid: no invoice to download yet.
  await page.goto("/dashboard/myitems");
  const row = page.getByTestId("my-order").filter({ hasText: p.name });
  await expect(row.getByText("Unpaid")).toBeVisible();
  await expect(row.getByRole("link", { name: /Download invoice/ })).toHaveCount(0);

  await row.getByRole("link", { name: "Pay" }).click();
  const pay = page.getByRole("button", { name: /^Pay / });
  await expect(pay).toBeEnabled();
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByLabel("Expiry (MM / YY)").fill("1230");
  await page.getByLabel("CVC").fill("123");
  await pay.click();
  await expect(page.getByText("Congrats! Your payment is completed.")).toBeVisible();

  await page.goto("/dashboard/myitems");
  const paidRow = page.getByTestId("my-order").filter({ hasText: p.name });
  await expect(paidRow.getByText("Paid", { exact: true })).toBeVisible();
  const link = paidRow.getByRole("link", { name: /Download invoice/ });
  await expect(link).toHaveText("Download invoice");
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const number = download.suggestedFilename().replace(/\.pdf$/, "");
  expect(number).toMatch(new RegExp(`^INV-${new Date().getUTCFullYear()}-\\d{6}$`));
  const { text } = await pdfText(await fs.readFile(await download.path()));
  expect(text).toContain(number);
  expect(text).toContain(product.partNumber);
  // The parts and the demo's US Standard shipping ($9.95, free from $250); Oregon has no sales tax.
  const parts = product.price * p.minimumOrder;
  const total = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(
    parts + (parts >= 250 ? 0 : 9.95),
  );
  expect(text).toContain(`Total (USD) ${total}`);

  // The order page names the same invoice.
  await paidRow.getByRole("link", { name: /^Details/ }).click();
  await expect(page.getByTestId("order-invoice")).toContainText(`Invoice ${number}`);
  await expect(
    page.getByTestId("order-invoice").getByRole("link", { name: /Download invoice/ }),
  ).toBeVisible();
});
