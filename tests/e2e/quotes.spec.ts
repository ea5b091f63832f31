import { demoAdmin, productNamed, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { openMail } from "./mailbox";

/**
 * Quotes (docs/quotes.md): a customer asks for a quote from the cart; the admin finds it, prices
 * it and sends it; the customer opens the emailed link, accepts, pays with the test card, and the
 * order shows the quoted price.
 */
test("a quote requested from the cart, priced and sent by the admin, accepted and paid", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const buyer = await signUpThroughApi(page);
  const part = await productNamed(page, "brake");
  const qty = Math.max(part.minimumOrder, 2);
  const put = await page.request.put(`/api/cart/items/${part._id}`, { data: { qty } });
  expect(put.status()).toBe(200);

  // The buyer asks from the cart page, with a note.
  await page.goto("/cart");
  await page.getByRole("button", { name: "Request a quote" }).click();
  await page.getByLabel("Note for us (optional)").fill("Monthly fleet order");
  await page.getByRole("button", { name: "Send the request" }).click();
  await expect(page).toHaveURL(/\/dashboard\/quotes\/[0-9a-f-]+$/);
  const reference = page.url().split("/").pop()!.slice(0, 8).toUpperCase();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Quote ${reference}`);
  await expect(page.getByTestId("quote-status")).toHaveText("Requested");

  // The admin finds it by the buyer's email, prices it below the list price and sends it.
  const adminContext = await browser.newContext({ baseURL });
  try {
    const admin = await adminContext.newPage();
    await signInThroughApi(admin, demoAdmin);
    await admin.goto("/dashboard");
    await admin
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: "Quotes" })
      .click();
    await admin.getByLabel("Search quotes").fill(buyer.email);
    await admin.getByRole("button", { name: "Search" }).click();
    const row = admin.getByTestId("quote-row").filter({ hasText: buyer.email });
    await expect(row).toHaveCount(1);
    await expect(row.getByText("To price")).toBeVisible();
    await row.getByRole("link", { name: `Quote ${reference}` }).click();
    await expect(admin.getByText("Monthly fleet order")).toBeVisible();
    await admin.getByLabel(`Unit price for ${part.name}`).fill("7.77");
    await admin.getByRole("button", { name: "Send the quote" }).click();
    await expect(admin.getByTestId("quote-status")).toHaveText("Sent");
    await expect(admin.getByTestId("quote-total")).toHaveText(`$${(7.77 * qty).toFixed(2)}`);
  } finally {
    await adminContext.close();
  }

  // The buyer opens the emailed quote, accepts it and pays with the test card.
  await openMail(page, buyer.email, `Your quote ${reference} is ready`);
  const link = await page.locator('a[href*="/dashboard/quotes/"]').first().getAttribute("href");
  await page.goto(link!);
  await expect(page.getByTestId("quote-status")).toHaveText("Priced: waiting for you");
  await page.getByLabel("Phone").fill("07700900123");
  await page.getByLabel("Delivery address").fill("3 Depot Street");
  await page.getByRole("button", { name: "Accept and order" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payment\//);
  const orderId = page.url().split("/").pop()!;
  const pay = page.getByRole("button", { name: /^Pay / });
  await expect(pay).toBeEnabled();
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByLabel("Expiry (MM / YY)").fill("1230");
  await page.getByLabel("CVC").fill("123");
  await pay.click();
  await expect(page.getByText("Congrats! Your payment is completed.")).toBeVisible();

  // The order is at the quoted price.
  await page.goto(`/dashboard/orders/${orderId}`);
  await expect(page.getByText("$7.77").first()).toBeVisible();
  await page.goto(link!);
  await expect(page.getByTestId("quote-status")).toHaveText("Accepted");
});
