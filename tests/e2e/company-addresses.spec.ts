import { demoAdmin, productNamed, signInThroughApi } from "./auth-helpers";
import { inviteToCompany, joinByEmail } from "./company-invitation";
import { expect, test } from "./fixtures";

/**
 * A company's ship-to addresses (docs/companies.md): the owner adds one on My company;
 * a buyer of the company, with no address of their own, checks out to it (offered with the
 * company's name); the order shows it; the admin's company page lists it too.
 */

test("an owner adds a ship-to address; a buyer checks out to it and the order shows it", async ({
  page,
  browser,
  baseURL,
}) => {
  // Two people joining by email and a checkout: about 40 s here.
  test.setTimeout(120_000);
  const part = await productNamed(page, "timing belt");
  const companyName = `Depot Fleet ${Date.now()}-${process.pid}`;
  const formatted =
    "Goods in, Depot Fleet Ltd, 7 Depot Road, Unit 3, Leeds LS1 4AB, United Kingdom";

  // The admin sets up the company (its pages are trade-prices.spec.ts's subject).
  await signInThroughApi(page, demoAdmin);
  const created = await page.request.post("/api/companies", { data: { name: companyName } });
  expect(created.status()).toBe(201);
  const companyId = ((await created.json()) as { id: string }).id;
  const owner = await joinByEmail(browser, baseURL, companyName);
  const buyer = await joinByEmail(browser, baseURL, companyName);
  try {
    await inviteToCompany(page, companyId, owner.who.email, "owner");
    await inviteToCompany(page, companyId, buyer.who.email, "buyer");
    await owner.accept();
    await buyer.accept();

    // The owner adds the ship-to address on My company; a mistake is said at the field.
    const o = owner.page;
    await o.goto("/dashboard/company");
    const shipTo = o.getByRole("region", { name: "Ship-to addresses" });
    await expect(shipTo).toContainText("No ship-to addresses yet");
    await shipTo.getByRole("button", { name: "Add a ship-to address" }).click();
    await shipTo.getByLabel("Full name").fill("Goods in");
    await shipTo.getByLabel("Company (optional)").fill("Depot Fleet Ltd");
    await shipTo.getByLabel("Address line 1").fill("7 Depot Road");
    await shipTo.getByLabel("Address line 2 (optional)").fill("Unit 3");
    await shipTo.getByLabel("City").fill("Leeds");
    await shipTo.getByLabel("Country").selectOption("GB");
    await shipTo.getByLabel("Postal code").fill("LS1");
    await shipTo.getByLabel("Phone").fill("01134960000");
    await expect(shipTo.getByText("Make this my default address")).toHaveCount(0);
    await shipTo.getByRole("button", { name: "Add ship-to address" }).click();
    await expect(shipTo.getByText(/Enter a United Kingdom postal code/)).toBeVisible();
    await shipTo.getByLabel("Postal code").fill("ls1 4ab");
    await shipTo.getByRole("button", { name: "Add ship-to address" }).click();
    await expect(shipTo.getByTestId("ship-to-addresses")).toContainText(formatted);

    // The buyer sees it on My company without the owner's buttons.
    const b = buyer.page;
    await b.goto("/dashboard/company");
    const theirs = b.getByRole("region", { name: "Ship-to addresses" });
    await expect(theirs.getByTestId("ship-to-addresses")).toContainText(formatted);
    await expect(theirs.getByRole("button", { name: /Edit|Remove|Add/ })).toHaveCount(0);

    // The buyer checks out to it: offered with the company's name, chosen (they have no
    // address of their own), priced for the UK.
    await b.goto(`/products/${part._id}`);
    await b.getByRole("spinbutton", { name: "Quantity" }).fill(String(part.minimumOrder));
    await b.getByRole("button", { name: `Add to cart: ${part.name}` }).click();
    await expect(b.getByTestId("cart-link").first()).toHaveAccessibleName(
      `Cart, ${part.minimumOrder} ${part.minimumOrder === 1 ? "item" : "items"}`,
    );
    await b.goto("/cart");
    await b.getByRole("button", { name: "Check out" }).click();
    const radio = b.getByRole("radio", { name: `${companyName} ship-to ${formatted}` });
    await expect(radio).toBeChecked();
    await expect(b.getByRole("radio", { name: /^UK Tracked/ })).toBeChecked();
    await b.getByRole("button", { name: "Place order" }).click();
    await expect(b).toHaveURL(/\/dashboard\/orders\//);
    await expect(b.getByTestId("order-address")).toContainText(formatted);

    // The admin's company page has the same section, with the owner's actions.
    await page.goto(`/dashboard/companies/${companyId}`);
    const admins = page.getByRole("region", { name: "Ship-to addresses" });
    await expect(admins.getByTestId("ship-to-addresses")).toContainText(formatted);
    await expect(admins.getByRole("button", { name: `Edit ${formatted}` })).toBeVisible();
    await expect(admins.getByRole("button", { name: "Add a ship-to address" })).toBeVisible();
  } finally {
    await owner.context.close();
    await buyer.context.close();
  }
});
