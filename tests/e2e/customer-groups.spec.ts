import { demoAdmin, productNamed, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { GARAGE_GROUP_ID, RETAIL_GROUP_ID } from "../../src/contract/customer-groups";
import { joinByEmail, inviteToCompany } from "./company-invitation";
import { expect, test } from "./fixtures";

// Issue 54, items 1–3 (docs/pricing.md "Customer groups and price rules"): a garage's buyer sees
// the group's price with its words; a retail customer buys a single oil filter, which the trade
// buys by the 50.

test("an admin gives the garage group 20 % off a part; a garage's buyer sees the group price with its words", async ({
  page,
  browser,
  baseURL,
}) => {
  test.slow();
  const id = `${Date.now()}${process.pid}`.slice(-9);
  const partNumber = `PW-CG-${id}`;
  const companyName = `Hillside Garage ${id}`;
  await signInThroughApi(page, demoAdmin);
  const created = await page.request.post("/api/products", {
    data: {
      name: `Brake caliper ${id}`,
      partNumber,
      category: "Brakes",
      price: 80,
      minimumOrder: 1,
      availableQuantity: 40,
      warranty: 12,
      shortDescription: "Made for the customer groups test",
      img: "/images/products/timing-belt-kit.svg",
    },
  });
  expect(created.status()).toBe(201);
  const { product } = (await created.json()) as { product: { _id: string } };

  // The rule, on the admin's screen.
  await page.goto("/dashboard/customer-groups");
  await expect(page.getByRole("heading", { name: "Customer groups" })).toBeVisible();
  await page.getByRole("button", { name: "Price rules of Garage" }).click();
  const form = page.getByRole("form", { name: "New price rule" });
  await form.getByLabel("Percent off").fill("20");
  await form.getByLabel("Applies to").selectOption("part");
  await form.getByLabel("Part number").fill(partNumber.toLowerCase());
  await form.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByTestId("price-rule-row").filter({ hasText: partNumber })).toContainText(
    `20 % off ${partNumber}`,
  );

  // A company put in the garage group on its screen; a buyer invited by email.
  await page.goto("/dashboard/companies");
  await page.getByText("New company").click();
  const newCompany = page.getByRole("form", { name: "New company" });
  await newCompany.getByLabel("Name").fill(companyName);
  await newCompany.getByLabel("Payment terms").selectOption({ label: "Card at checkout" });
  await newCompany.getByLabel("Customer group").selectOption({ label: "Garage" });
  await newCompany.getByRole("button", { name: "Create company" }).click();
  await page.getByRole("link", { name: companyName }).click();
  await expect(page.getByRole("heading", { name: companyName })).toBeVisible();
  await expect(page.getByText(/Details: .* · Garage/)).toBeVisible();
  const companyId = page.url().split("/").pop()!;
  const buyer = await joinByEmail(browser, baseURL, companyName);
  try {
    await inviteToCompany(page, companyId, buyer.who.email, "buyer");
    await buyer.accept();
    await buyer.page.goto(`/products/${product._id}`);
    const yours = buyer.page.getByTestId("your-price");
    await expect(yours.getByTestId("your-price-amount")).toHaveText("$64.00");
    await expect(yours.getByLabel("List price $80.00")).toBeVisible();
    await expect(yours.getByTestId("your-price-note")).toHaveText(
      "Garage price: 20 % off this part",
    );
    // The order panel's total is the same price.
    await buyer.page.getByRole("spinbutton", { name: "Quantity" }).fill("2");
    await expect(buyer.page.getByTestId("order-total")).toHaveText("$128.00");
  } finally {
    await buyer.context.close();
  }

  // Anyone else pays the list price: a retail customer sees no group price.
  await page.context().clearCookies();
  await signUpThroughApi(page);
  await page.goto(`/products/${product._id}`);
  await expect(page.getByRole("spinbutton", { name: "Quantity" })).toBeVisible();
  await expect(page.getByTestId("your-price")).toHaveCount(0);
});

test("a retail customer buys one oil filter, which the trade buys by the 50", async ({ page }) => {
  test.slow();
  const filter = await productNamed(page, "oil filter");
  expect(filter.minimumOrder).toBeGreaterThan(1);
  await signUpThroughApi(page);
  await page.goto(`/products/${filter._id}`);
  const count = (n: number) => n.toLocaleString("en-US");
  await expect(page.getByText(`min 1 · ${count(filter.availableQuantity)} in stock`)).toBeVisible();
  await page.getByRole("spinbutton", { name: "Quantity" }).fill("1");
  await expect(page.getByRole("status").filter({ hasText: "minimum" })).toHaveCount(0);
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
  await page.goto("/dashboard/myitems");
  await expect(page.getByTestId("my-order").filter({ hasText: filter.name })).toBeVisible();
});

test("an admin edits Garage's rule and places a customer without a company in Garage on All Users; the customer sees the edited group price", async ({
  page,
  browser,
}) => {
  test.slow();
  const id = `${Date.now()}${process.pid}`.slice(-9);
  const partNumber = `PW-OG-${id}`;
  await signInThroughApi(page, demoAdmin);
  const created = await page.request.post("/api/products", {
    data: {
      name: `Wiper blade ${id}`,
      partNumber,
      category: "Wipers",
      price: 20,
      minimumOrder: 1,
      availableQuantity: 40,
      warranty: 12,
      shortDescription: "Made for the own group test",
      img: "/images/products/timing-belt-kit.svg",
    },
  });
  expect(created.status()).toBe(201);
  const { product } = (await created.json()) as { product: { _id: string } };
  const rule = await page.request.post(`/api/customer-groups/${GARAGE_GROUP_ID}/rules`, {
    data: { percent: 10, scope: "part", partNumber },
  });
  expect(rule.status()).toBe(201);

  // The rule edited on the screen: the adding form in a dialog, filled with the rule.
  await page.goto("/dashboard/customer-groups");
  await page.getByRole("button", { name: "Price rules of Garage" }).click();
  await page.getByRole("button", { name: `Edit the rule 10 % off ${partNumber}` }).click();
  const dialog = page.getByRole("form", { name: `Edit the rule 10 % off ${partNumber}` });
  await expect(dialog.getByLabel("Part number")).toHaveValue(partNumber);
  await dialog.getByLabel("Percent off").fill("25");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("price-rule-row").filter({ hasText: partNumber })).toContainText(
    `25 % off ${partNumber}`,
  );

  // A customer without a company, placed in Garage on All Users.
  const context = await browser.newContext();
  const customer = await context.newPage();
  try {
    const who = await signUpThroughApi(customer);
    await page.goto("/dashboard/allusers");
    await page.getByRole("searchbox").fill(who.email);
    await page.getByRole("searchbox").press("Enter");
    await expect(page.getByTestId("user-row")).toHaveCount(1);
    const choice = page.getByLabel(`Customer group of ${who.name}`);
    await expect(choice).toHaveValue(RETAIL_GROUP_ID);
    await choice.selectOption({ label: "Garage" });
    await expect(page.getByText(`${who.name} is now in Garage`)).toBeVisible();

    await customer.goto(`/products/${product._id}`);
    const yours = customer.getByTestId("your-price");
    await expect(yours.getByTestId("your-price-amount")).toHaveText("$15.00");
    await expect(yours.getByTestId("your-price-note")).toHaveText(
      "Garage price: 25 % off this part",
    );
  } finally {
    await context.close();
  }
});
