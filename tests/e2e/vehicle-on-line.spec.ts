import { demoAdmin, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// The vehicle on the order line (docs/vehicle-on-line.md): a driver picks their car, orders a
// part, sees the car on the order, and a "did not fit" return starts from it.

test("the chosen vehicle is kept on the order line and pre-fills a did-not-fit return", async ({
  page,
  browser,
  baseURL,
}) => {
  await signUpThroughApi(page);
  const label = "2016 Volkswagen Golf 1.4 TSI";

  // The driver picks their car in the catalog's vehicle selector.
  await page.goto("/allproducts");
  const selector = page.getByTestId("vehicle-selector");
  await expect(selector.getByLabel("Year")).toBeEnabled();
  await selector.getByLabel("Year").selectOption("2016");
  await selector.getByLabel("Make").selectOption({ label: "Volkswagen" });
  await selector.getByLabel("Model").selectOption({ label: "Golf" });
  await selector.getByLabel("Engine").selectOption({ label: "1.4 TSI" });
  await selector.getByRole("button", { name: "Show parts that fit" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Parts that fit your ${label}`);

  // They open a part that fits and order it; the dialog says which car the order is for.
  const productName = "Ventilated Brake Disc & Caliper Kit";
  await page
    .getByRole("article")
    .filter({ hasText: "PW-BK-3001" })
    .getByRole("link", { name: productName, exact: true })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(productName);
  const productId = page.url().split("/products/")[1]!;
  const product = (await (await page.request.get(`/api/products/${productId}`)).json()) as {
    minimumOrder: number;
  };
  await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(product.minimumOrder));
  await page.getByRole("button", { name: "Place Order" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("order-vehicle")).toHaveText(
    `For your ${label}: the order keeps this vehicle on each line.`,
  );
  await dialog.getByLabel("Address").fill("12 Garage Lane, Leeds");
  await dialog.getByLabel("Phone").fill("07700900123");
  await dialog.getByRole("button", { name: "Confirm order" }).click();
  await expect(dialog).toHaveCount(0);

  // The order page shows the car under the part.
  await page.goto("/dashboard/myitems");
  await page
    .getByTestId("my-order")
    .filter({ hasText: productName })
    .getByRole("link", { name: /^Details/ })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/orders\//);
  const orderId = page.url().split("/dashboard/orders/")[1]!;
  const line = page.getByTestId("order-line").filter({ hasText: productName });
  await expect(line.getByTestId("order-line-vehicle")).toHaveText(`For: ${label}`);

  // Paid (through the API, as the payment page does) and shipped by the admin.
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
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  // The admin's order page shows the car too.
  await admin.goto(`/dashboard/orders/${orderId}`);
  await expect(
    admin
      .getByTestId("order-line")
      .filter({ hasText: productName })
      .getByTestId("order-line-vehicle"),
  ).toHaveText(`For: ${label}`);
  const shipped = await admin.request.patch(`/api/orders/${orderId}/status`, {
    data: { status: "shipped" },
  });
  expect(shipped.status()).toBe(200);
  await adminContext.close();

  // "Did not fit": the return form starts from the line's vehicle, and the customer may edit it.
  await page.reload();
  await page.getByRole("button", { name: "Return items" }).click();
  const form = page.getByRole("dialog", { name: "Return items" });
  await expect(form.getByText(`For: ${label}`)).toBeVisible();
  await form.getByLabel("Reason").selectOption({ label: "Did not fit my vehicle" });
  await expect(form.getByLabel("Vehicle")).toHaveValue(label);
  await form.getByRole("button", { name: "Ask to return" }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByTestId("order-return")).toContainText(`(${label})`);
});
