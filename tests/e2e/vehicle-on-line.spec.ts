import {
  demoAdmin,
  saveAddressThroughApi,
  signInThroughApi,
  signUpThroughApi,
} from "./auth-helpers";
import { expect, test } from "./fixtures";

// The vehicle on the order line (docs/vehicle-on-line.md): a driver picks their car, orders a
// part, sees the car on the order, and a "did not fit" return starts from it.

test("the chosen vehicle is kept on the order line and pre-fills a did-not-fit return", async ({
  page,
  browser,
  baseURL,
}) => {
  await signUpThroughApi(page);
  await saveAddressThroughApi(page);
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
  await expect(dialog.getByTestId("order-dialog-total-to-pay")).toBeVisible();
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

test("two parts added for two cars keep each its own car, through sign-in, checkout and the order", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const golf = "2016 Volkswagen Golf 1.4 TSI";
  const civic = "2016 Honda Civic 1.8 i-VTEC";
  const filter = { partNumber: "PW-FL-1104", name: "Spin-On Engine Oil Filter" };
  const radiator = { partNumber: "PW-CO-5210", name: "All-Aluminium Cooling Radiator" };

  /** As a visitor: picks the car in the selector and adds the part from its card. */
  const addFor = async (
    car: { make: string; model: string; engine: string; label: string },
    part: { partNumber: string; name: string },
  ) => {
    const selector = page.getByTestId("vehicle-selector");
    await expect(selector.getByLabel("Year")).toBeEnabled();
    await selector.getByLabel("Year").selectOption("2016");
    await selector.getByLabel("Make").selectOption({ label: car.make });
    await selector.getByLabel("Model").selectOption({ label: car.model });
    await selector.getByLabel("Engine").selectOption({ label: car.engine });
    await selector.getByRole("button", { name: "Show parts that fit" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      `Parts that fit your ${car.label}`,
    );
    const card = page.getByRole("article").filter({ hasText: part.partNumber });
    await card.getByRole("button", { name: `Add to cart: ${part.name}` }).click();
    await expect(card.getByRole("link", { name: new RegExp(`^In your cart`) })).toBeVisible();
  };

  await page.goto("/allproducts");
  await addFor({ make: "Volkswagen", model: "Golf", engine: "1.4 TSI", label: golf }, filter);
  await addFor({ make: "Honda", model: "Civic", engine: "1.8 i-VTEC", label: civic }, radiator);

  // The visitor's cart names each line's car.
  const lineVehicles = async () => {
    const lines = page.getByTestId("cart-line");
    await expect(lines).toHaveCount(2);
    await expect(
      lines.filter({ hasText: filter.name }).getByTestId("cart-line-vehicle"),
    ).toHaveText(`For: ${golf}`);
    await expect(
      lines.filter({ hasText: radiator.name }).getByTestId("cart-line-vehicle"),
    ).toHaveText(`For: ${civic}`);
  };
  await page.goto("/cart");
  await lineVehicles();

  // Signed up, the cart joins the account's with the cars (the merge at sign-in).
  await signUpThroughApi(page);
  const address = await page.request.post("/api/user/addresses", {
    data: {
      name: "Robin Garage",
      line1: "14 Garage Lane",
      city: "Leeds",
      postalCode: "LS1 4AB",
      country: "GB",
      phone: "+44 113 496 0000",
    },
  });
  expect(address.status(), await address.text()).toBe(201);
  await page.reload();
  await expect(page.getByRole("button", { name: "Check out" })).toBeEnabled();
  await lineVehicles();
  const server = (await (await page.request.get("/api/cart")).json()) as {
    lines: { productName: string; vehicle: string | null }[];
  };
  expect(Object.fromEntries(server.lines.map((l) => [l.productName, l.vehicle]))).toEqual({
    [filter.name]: golf,
    [radiator.name]: civic,
  });

  // Checkout: each line says its car; the chosen car (the Civic, last picked) is for lines
  // without one.
  await page.getByRole("button", { name: "Check out" }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByTestId("order-vehicle")).toHaveText(
    `For your ${civic}: lines added without a vehicle keep this one.`,
  );
  await expect(page.getByTestId("checkout-line-vehicle")).toHaveText([
    `For: ${golf}`,
    `For: ${civic}`,
  ]);
  await page.getByRole("button", { name: "Place order" }).click();

  // The order page shows each line's own car.
  await expect(page).toHaveURL(/\/dashboard\/orders\//);
  const orderLine = (name: string) =>
    page.getByTestId("order-line").filter({ hasText: name }).getByTestId("order-line-vehicle");
  await expect(orderLine(filter.name)).toHaveText(`For: ${golf}`);
  await expect(orderLine(radiator.name)).toHaveText(`For: ${civic}`);
});
