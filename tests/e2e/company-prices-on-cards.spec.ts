import { demoAdmin, productNamed, signInThroughApi } from "./auth-helpers";
import { joinByEmail } from "./company-invitation";
import { expect, test } from "./fixtures";

/**
 * A company buyer's own prices on product cards (docs/pricing.md): the search
 * results on All products show "Your price" with the list price struck through, and the
 * quantity break; a visitor sees the list price alone on the same page.
 */

const usd = (n: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(n);

test("a company buyer sees their price on the cards of All products; a visitor sees the list price", async ({
  page,
  browser,
  baseURL,
}) => {
  // An invitation by email and a few pages: about 20 s here.
  test.setTimeout(90_000);
  const part = await productNamed(page, "spark plug");
  const other = await productNamed(page, "oil filter");
  expect(part.minimumOrder).toBeLessThan(50);
  const { partNumber } = (await (await page.request.get(`/api/products/${part._id}`)).json()) as {
    partNumber: string;
  };
  const unitPrice = Math.round(part.price * 85) / 100;
  const breakPrice = Math.round(part.price * 75) / 100;
  const stamp = `${Date.now()}-${process.pid}`;
  const companyName = `Cardview Fleet ${stamp}`;

  // The admin's set-up through the API (its pages are trade-prices.spec.ts's subject).
  await signInThroughApi(page, demoAdmin);
  const list = await page.request.post("/api/price-lists", {
    data: { name: `Card prices ${stamp}` },
  });
  expect(list.status()).toBe(201);
  const listId = ((await list.json()) as { id: string }).id;
  const entry = await page.request.put(`/api/price-lists/${listId}/entries/${part._id}`, {
    data: { unitPrice, breaks: [{ minQty: 50, unitPrice: breakPrice }] },
  });
  expect(entry.status()).toBe(200);
  const company = await page.request.post("/api/companies", {
    data: { name: companyName, priceListId: listId },
  });
  expect(company.status()).toBe(201);
  const companyId = ((await company.json()) as { id: string }).id;

  const buyer = await joinByEmail(browser, baseURL, companyName);
  try {
    const invited = await page.request.post(`/api/companies/${companyId}/invitations`, {
      data: { email: buyer.who.email, role: "buyer" },
    });
    expect(invited.status()).toBe(201);
    await buyer.accept();

    // The search results: the part's card says "Your price", the list price struck through.
    const b = buyer.page;
    await b.goto(`/allproducts?q=${encodeURIComponent(partNumber)}`);
    const card = b.getByRole("article").filter({ hasText: part.name }).first();
    await expect(card.getByText("Your price", { exact: true })).toBeVisible();
    const yours = card.getByTestId("card-your-price");
    await expect(yours.locator("strong")).toHaveText(usd(unitPrice));
    await expect(yours.locator("s")).toHaveText(usd(part.price));
    await expect(yours.locator("s")).toHaveAccessibleName(`List price ${usd(part.price)}`);
    await expect(card.getByTestId("card-your-lowest-price")).toHaveText(`${usd(breakPrice)} each`);
    await expect(card.getByText("From 50")).toBeVisible();

    // A part the company's list does not name: the list price alone.
    await b.goto(`/allproducts?q=${encodeURIComponent(other.name)}`);
    const plain = b.getByRole("article").filter({ hasText: other.name }).first();
    await expect(plain.getByText(usd(other.price), { exact: true })).toBeVisible();
    await expect(plain.getByTestId("card-your-price")).toHaveCount(0);
  } finally {
    await buyer.context.close();
  }

  // A visitor, in a browser of their own, on the same results: the list price, nothing struck.
  const visitorContext = await browser.newContext({ baseURL });
  try {
    const v = await visitorContext.newPage();
    await v.goto(`/allproducts?q=${encodeURIComponent(partNumber)}`);
    const card = v.getByRole("article").filter({ hasText: part.name }).first();
    await expect(card.getByText(usd(part.price), { exact: true })).toBeVisible();
    await expect(card.getByTestId("card-your-price")).toHaveCount(0);
    await expect(card.getByText("Your price")).toHaveCount(0);
  } finally {
    await visitorContext.close();
  }
});
