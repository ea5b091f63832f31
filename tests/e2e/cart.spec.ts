import { demoAdmin, newCustomer, productNamed, signInThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

test("a visitor fills a cart, signs up, checks out once, pays, and the admin ships it", async ({
  page,
  browser,
}) => {
  // The longest journey (a cart, sign-up, a delivery address, checkout, payment, the admin's
  // shipping in a second browser): 45-60 s on this shared 2-core machine, over the default 60 s.
  test.setTimeout(120_000);
  const wipers = await productNamed(page, "wiper");
  const bearing = await productNamed(page, "bearing");

  // A visitor adds two parts from the catalog, each at its retail minimum (visitors are retail:
  // docs/pricing.md "Quantities by group"); the navbar counts them.
  await page.goto("/allproducts?q=wiper");
  await page.getByRole("button", { name: `Add to cart: ${wipers.name}` }).click();
  await expect(
    page.getByRole("link", { name: `In your cart (${wipers.retailMinimum}): ${wipers.name}` }),
  ).toBeVisible();
  await page.goto("/allproducts?q=bearing");
  await page.getByRole("button", { name: `Add to cart: ${bearing.name}` }).click();
  const units = wipers.retailMinimum + bearing.retailMinimum;
  await expect(page.getByTestId("cart-link").first()).toHaveAccessibleName(`Cart, ${units} items`);
  await page.goto("/cart");
  await expect(page.getByTestId("cart-line")).toHaveCount(2);
  // A quantity changed on the line; the trade minimum's words are a garage buyer's
  // (ordering.spec.ts), a pack's too (part-quantities.spec.ts).
  const wiperLine = page.getByTestId("cart-line").filter({ hasText: wipers.name });
  await wiperLine.getByLabel("Quantity").fill(String(wipers.minimumOrder));
  await wiperLine.getByLabel("Quantity").press("Enter");
  await expect(page.getByTestId("cart-link").first()).toHaveAccessibleName(
    `Cart, ${wipers.minimumOrder + bearing.retailMinimum} items`,
  );
  await expect(wiperLine.getByTestId("line-problem")).toHaveCount(0);

  // Signing up keeps the cart; My Info keeps a phone and an address (the spec's profile).
  const who = newCustomer();
  await page.goto("/signup");
  await page.getByLabel("Name").fill(who.name);
  await page.getByLabel("Email", { exact: true }).fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByTestId("user-name").first()).toHaveText(who.name);
  await page.goto("/dashboard");
  await page.getByLabel("Phone number").fill("+44 113 496 0000");
  await page.getByLabel("Address").fill("14 Garage Lane, Leeds LS1 4AB");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Your profile is saved")).toBeVisible();

  await page.goto("/cart");
  await expect(page.getByTestId("cart-line")).toHaveCount(2);
  await page.getByRole("button", { name: "Check out" }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  // No saved address yet: checkout asks where to deliver, and keeps it in the address book.
  await expect(page.getByRole("heading", { name: "Where should we deliver?" })).toBeVisible();
  await expect(page.getByLabel("Full name")).toHaveValue(who.name);
  await page.getByLabel("Address line 1").fill("14 Garage Lane");
  await page.getByLabel("City").fill("Leeds");
  await page.getByLabel("Country").selectOption("GB");
  await page.getByLabel("Postal code").fill("ls1 4ab");
  await page.getByLabel("Phone").fill("+44 113 496 0000");
  await page.getByRole("button", { name: "Use this address" }).click();
  const shipTo = `${who.name}, 14 Garage Lane, Leeds LS1 4AB, United Kingdom`;
  await expect(page.getByRole("radio", { name: shipTo })).toBeChecked();
  await expect(page.getByRole("radio", { name: /^UK Tracked/ })).toBeChecked();
  await page.getByLabel("Purchase order reference (optional)").fill("PO-4471");
  // Their address in the United Kingdom makes it their market: GBP at 0.79, with VAT for a
  // consumer, so UK Tracked's $12.95 is £12.28.
  await expect(page.getByTestId("checkout-shipping")).toHaveText("£12.28");
  const total = (await page.getByTestId("checkout-total").textContent())!;
  // Everything the page shows from the click to the order, kept: the emptied cart must not
  // flash "Your cart is empty" while the order's page loads.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { shown: string[] }).shown = seen;
    new MutationObserver(() => seen.push(document.body.innerText)).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  await page.getByRole("button", { name: "Place order" }).click();

  // The confirmation: number, lines, address, total, and the next step.
  await expect(page).toHaveURL(/\/dashboard\/orders\//);
  await expect(page.getByRole("heading", { name: /^Order PW-\d{6,}$/ })).toBeVisible();
  const shown = await page.evaluate(() => (window as unknown as { shown: string[] }).shown);
  expect(shown.filter((text) => text.includes("Your cart is empty"))).toEqual([]);
  await expect(page.getByTestId("order-line")).toHaveCount(2);
  await expect(page.getByTestId("order-address")).toHaveText(shipTo);
  await expect(page.getByText("Purchase order: PO-4471")).toBeVisible();
  await expect(page.getByTestId("order-total")).toHaveText(total);
  await expect(page.getByTestId("cart-link").first()).toHaveAccessibleName("Cart, 0 items");

  // One payment for the whole order: a declined card, then a good one.
  await page.getByRole("link", { name: `Pay ${total}` }).click();
  const pay = page.getByRole("button", { name: `Pay ${total}` });
  await expect(pay).toBeEnabled();
  await page.getByLabel("Card number").fill("4000000000000002");
  await page.getByLabel("Expiry (MM / YY)").fill("1230");
  await page.getByLabel("CVC").fill("123");
  await pay.click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Your card was declined." }),
  ).toBeVisible();
  await page.getByLabel("Card number").fill("4242424242424242");
  await pay.click();
  await expect(page.getByText("Congrats! Your payment is completed.")).toBeVisible();
  await page.getByRole("link", { name: "View your order" }).click();
  await expect(page.getByText("Thank you: your payment is received.")).toBeVisible();

  await page.goto("/dashboard/myitems");
  const rows = page.getByTestId("my-order");
  await expect(rows).toHaveCount(1);
  await expect(rows.getByText("Paid", { exact: true })).toBeVisible();
  await expect(rows.getByText(wipers.name)).toBeVisible();
  await expect(rows.getByText(bearing.name)).toBeVisible();
  await expect(rows.getByText(shipTo)).toBeVisible();

  // The admin opens it, sees where it goes, and ships it.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInThroughApi(admin, demoAdmin);
  await admin.goto("/dashboard/manageallorders");
  await admin.getByLabel("Search orders").fill(who.email);
  await admin.getByRole("button", { name: "Search" }).click();
  const row = admin.getByTestId("admin-order").filter({ hasText: who.email });
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: "Mark shipped" }).click();
  const confirm = admin.getByRole("dialog", { name: "Mark this order shipped?" });
  await expect(confirm.getByTestId("ship-to")).toHaveText(`Ship to: ${shipTo} · +441134960000`);
  await confirm.getByRole("button", { name: "Mark shipped" }).click();
  await expect(row.getByTestId("order-status")).toHaveText("Shipped");
  await row.getByRole("link", { name: new RegExp(wipers.name) }).click();
  await expect(admin.getByText(`${who.name} · ${who.email}`)).toBeVisible();
  await expect(admin.getByText("Purchase order: PO-4471")).toBeVisible();
  await expect(admin.getByRole("heading", { name: "History" })).toBeVisible();
  await expect(admin.getByText(/^Shipped /)).toBeVisible();
  await adminContext.close();
});

test("admins have no cart and cannot order", async ({ page }) => {
  await signInThroughApi(page, demoAdmin);
  const p = await productNamed(page, "wiper");
  await page.goto(`/products/${p._id}`);
  await expect(page.getByRole("heading", { name: p.name })).toBeVisible();
  await expect(page.getByRole("button", { name: "Place Order" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Add to cart/ })).toHaveCount(0);
  await expect(page.getByTestId("cart-link")).toHaveCount(0);
});
