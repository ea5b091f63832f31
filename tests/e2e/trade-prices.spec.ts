import {
  demoAdmin,
  E2E_SHIP_TO,
  newCustomer,
  productNamed,
  signInThroughApi,
} from "./auth-helpers";
import { expect, test } from "./fixtures";
import { openMail } from "./mailbox";

const usd = (n: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(n);

test("an admin gives a company its own prices with a break; the invited buyer sees them and checks out at the break price", async ({
  page,
  browser,
  baseURL,
}) => {
  // Two people's whole journey (set-up, email, sign-up, checkout): about 40 s here.
  test.setTimeout(120_000);
  const part = await productNamed(page, "timing belt");
  expect(part.minimumOrder).toBeLessThan(10);
  expect(part.availableQuantity).toBeGreaterThanOrEqual(10);
  const { partNumber } = (await (await page.request.get(`/api/products/${part._id}`)).json()) as {
    partNumber: string;
  };
  // Whole cents below the list price: the company's unit price, and a cheaper one from 10 on.
  const unitPrice = Math.round(part.price * 90) / 100;
  const breakPrice = Math.round(part.price * 80) / 100;
  const stamp = `${Date.now()}-${process.pid}`;
  const listName = `Fleet prices ${stamp}`;
  const companyName = `Ridgeway Fleet ${stamp}`;
  const buyer = newCustomer();

  // The admin makes a price list with the part at its price and a break at 10.
  await signInThroughApi(page, demoAdmin);
  await page.goto("/dashboard/price-lists");
  await page.getByLabel("New price list").fill(listName);
  await page.getByRole("button", { name: "Create price list" }).click();
  await page.getByRole("link", { name: listName }).click();
  await expect(page.getByRole("heading", { name: listName })).toBeVisible();
  await page.getByLabel("Part number").fill(partNumber);
  await page.getByLabel("Unit price").fill(unitPrice.toFixed(2));
  await page.getByLabel("Quantity breaks").fill(`10:${breakPrice.toFixed(2)}`);
  await page.getByRole("button", { name: "Set price" }).click();
  const entry = page.getByTestId("price-list-entry").filter({ hasText: partNumber });
  await expect(entry).toContainText(`10+ ${usd(breakPrice)}`);

  // A company on that list; a buyer invited by email.
  await page.goto("/dashboard/companies");
  await page.getByText("New company").click();
  const form = page.getByRole("form", { name: "New company" });
  await form.getByLabel("Name").fill(companyName);
  // Card terms: the buyer pays by card at the break price (net terms have their own journey).
  await form.getByLabel("Payment terms").selectOption({ label: "Card at checkout" });
  await form.getByLabel("Price list").selectOption({ label: listName });
  await form.getByRole("button", { name: "Create company" }).click();
  await page.getByRole("link", { name: companyName }).click();
  await expect(page.getByRole("heading", { name: companyName })).toBeVisible();
  await page.getByLabel("Email address").fill(buyer.email);
  await page.getByLabel("Role", { exact: true }).selectOption("buyer");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(
    page.getByTestId("company-invitation").filter({ hasText: buyer.email }),
  ).toContainText("Pending");

  // The invited buyer, in a browser of their own.
  const buyerContext = await browser.newContext({ baseURL });
  try {
    const buyerPage = await buyerContext.newPage();
    // The emailed link, opened before they have an account: they create one there and come back.
    await openMail(buyerPage, buyer.email, `You are invited to buy for ${companyName}`);
    const link = await buyerPage
      .locator('a[href*="/company-invitation?token="]')
      .first()
      .getAttribute("href");
    await buyerPage.goto(link!);
    await buyerPage.getByRole("link", { name: "Create an account" }).click();
    await buyerPage.getByLabel("Name").fill(buyer.name);
    await buyerPage.getByLabel("Email", { exact: true }).fill(buyer.email);
    await buyerPage.getByLabel("Password").fill(buyer.password);
    await buyerPage.getByRole("button", { name: "Sign Up" }).click();
    await expect(buyerPage).toHaveURL(/\/company-invitation\?token=/);
    await expect(buyerPage.getByRole("status")).toContainText(`You joined ${companyName} as buyer`);

    // "Your price", the list price struck through, and the breaks table.
    await buyerPage.goto(`/products/${part._id}`);
    const yours = buyerPage.getByTestId("your-price");
    await expect(yours.getByTestId("your-price-amount")).toHaveText(usd(unitPrice));
    await expect(yours.locator("s")).toHaveText(usd(part.price));
    const breaks = yours.getByRole("table", { name: "Quantity prices" });
    await expect(breaks.getByRole("row").filter({ hasText: "10+" })).toContainText(usd(breakPrice));

    // 10 in the cart: the total on the page, in the cart and at checkout is the break price.
    await buyerPage.getByRole("spinbutton", { name: "Quantity" }).fill("10");
    await expect(buyerPage.getByTestId("order-total")).toHaveText(usd(breakPrice * 10));
    await buyerPage.getByRole("button", { name: `Add to cart: ${part.name}` }).click();
    await expect(buyerPage.getByTestId("cart-link").first()).toHaveAccessibleName("Cart, 10 items");
    await buyerPage.goto("/cart");
    await expect(buyerPage.getByTestId("cart-subtotal")).toHaveText(usd(breakPrice * 10));
    await buyerPage.getByRole("button", { name: "Check out" }).click();
    // A delivery address first (docs/shipping.md), in the store's own market (Oregon: a delivery
    // abroad prices in that country's market, markets-buy.spec.ts); the lines are at the break
    // price, and shipping and tax come on top.
    await buyerPage.getByLabel("Address line 1").fill(E2E_SHIP_TO.line1);
    await buyerPage.getByLabel("City").fill(E2E_SHIP_TO.city);
    await buyerPage.getByLabel("Country").selectOption("US");
    await buyerPage.getByLabel("State").selectOption("OR");
    await buyerPage.getByLabel("Postal code").fill(E2E_SHIP_TO.postalCode);
    await buyerPage.getByLabel("Phone").fill(E2E_SHIP_TO.phone);
    await buyerPage.getByRole("button", { name: "Use this address" }).click();
    await expect(buyerPage.getByTestId("checkout-subtotal")).toHaveText(usd(breakPrice * 10));
    await buyerPage.getByRole("button", { name: "Place order" }).click();
    await expect(buyerPage).toHaveURL(/\/dashboard\/orders\//);
    await expect(buyerPage.getByTestId("order-subtotal")).toHaveText(usd(breakPrice * 10));

    // Their dashboard has the company's page: their role, the terms.
    await buyerPage.goto("/dashboard");
    await buyerPage
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: "My company" })
      .click();
    await expect(buyerPage.getByRole("heading", { name: companyName })).toBeVisible();
    await expect(buyerPage.getByTestId("my-company-role")).toHaveText("You are a buyer");
    await expect(buyerPage.getByText("Card at checkout")).toBeVisible();
  } finally {
    await buyerContext.close();
  }

  // On a phone the company's member list is cards, each with its actions on screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const member = page.getByTestId("company-member").filter({ hasText: buyer.email });
  await expect(member).toContainText("Buyer");
  const remove = member.getByRole("button", { name: "Remove" });
  await remove.scrollIntoViewIfNeeded();
  await expect(remove).toBeInViewport({ ratio: 1 });
  const box = (await remove.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});
