import { demoAdmin, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// Public quantity breaks (docs/pricing.md): the admin gives a product breaks for
// everyone, a visitor sees them on the product's card, a customer sees the table on the product
// page and orders 10 at the break price.

test("an admin sets a public quantity break; a visitor sees it and a customer orders 10 at the break price", async ({
  page,
  browser,
  baseURL,
}) => {
  // Three browsers and a checkout: longer than the default on a busy machine.
  test.setTimeout(120_000);
  const stamp = `${Date.now()}-${process.pid}`;
  // Words no other journey searches for: the product stays in the shared store afterwards.
  const name = `Heater hose set ${stamp}`;

  // The admin adds a $20.00 part and gives it breaks in the edit dialog.
  const adminContext = await browser.newContext({ baseURL });
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  const created = await admin.request.post("/api/products", {
    data: {
      name,
      partNumber: `PB-${stamp}`,
      category: "Other",
      price: 20,
      minimumOrder: 1,
      availableQuantity: 100,
      warranty: 12,
      shortDescription: "Heater hoses with clamps",
      img: "/images/products/timing-belt-kit.svg",
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
  const breaks = edit.getByLabel("Quantity breaks for everyone (QTY:PRICE|QTY:PRICE)");
  // A break that is not cheaper than the price is refused by the server, with its reason.
  await breaks.fill("10:25.00");
  await edit.getByRole("button", { name: "Save breaks" }).click();
  await expect(edit.getByRole("alert")).toHaveText(
    "A quantity break must be cheaper than the price",
  );
  await breaks.fill("10:18.00|50:16.50");
  await edit.getByRole("button", { name: "Save breaks" }).click();
  await expect(admin.getByText(`The quantity breaks of ${name} are saved`)).toBeVisible();
  await adminContext.close();

  // A visitor (no account) sees the deepest break on the product's card (the product page
  // itself asks to sign in: SPEC), and the product answer carries the breaks.
  const visitorContext = await browser.newContext({ baseURL });
  try {
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/allproducts?q=${encodeURIComponent(name)}`);
    const card = visitor.getByRole("article").filter({ hasText: name });
    await expect(card.getByText("From 50")).toBeVisible();
    await expect(card.getByTestId("card-lowest-break")).toHaveText("$16.50 each");
    const answer = await visitor.request.get(`/api/products/${productId}`);
    expect(((await answer.json()) as { breaks: unknown }).breaks).toEqual([
      { minQty: 10, unitPrice: 18 },
      { minQty: 50, unitPrice: 16.5 },
    ]);
  } finally {
    await visitorContext.close();
  }

  // A customer sees "Buy more, pay less" with the table on the product page and orders 10: the
  // page's total, the cart, checkout and the order at $18.00 each.
  await signUpThroughApi(page);
  await page.goto(`/products/${productId}`);
  await expect(page.getByRole("heading", { name: "Buy more, pay less" })).toBeVisible();
  const table = page.getByTestId("public-breaks").getByRole("table", { name: "Quantity prices" });
  await expect(table.getByRole("row").filter({ hasText: "1+" })).toContainText("$20.00");
  await expect(table.getByRole("row").filter({ hasText: "10+" })).toContainText("$18.00");
  await expect(table.getByRole("row").filter({ hasText: "50+" })).toContainText("$16.50");
  await page.getByRole("spinbutton", { name: "Quantity" }).fill("10");
  await expect(page.getByTestId("order-total")).toHaveText("$180.00");
  await page.getByRole("button", { name: `Add to cart: ${name}` }).click();
  await expect(page.getByTestId("cart-link").first()).toHaveAccessibleName("Cart, 10 items");
  await page.goto("/cart");
  await expect(page.getByTestId("cart-subtotal")).toHaveText("$180.00");
  await page.getByRole("button", { name: "Check out" }).click();
  await page.getByLabel("Address line 1").fill("100 Congress Ave");
  await page.getByLabel("City").fill("Austin");
  await page.getByLabel("Country").selectOption("US");
  await page.getByLabel("State").selectOption("TX");
  await page.getByLabel("Postal code").fill("78701");
  await page.getByLabel("Phone").fill("(512) 555-0100");
  await page.getByRole("button", { name: "Use this address" }).click();
  await expect(page.getByTestId("checkout-subtotal")).toHaveText("$180.00");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/dashboard\/orders\//);
  const line = page.getByTestId("order-line").filter({ hasText: name });
  await expect(line.getByRole("cell").nth(1)).toHaveText("$18.00");
  await expect(line.getByRole("cell").nth(2)).toHaveText("$180.00");
  await expect(page.getByTestId("order-subtotal")).toHaveText("$180.00");
});
