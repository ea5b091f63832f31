import { demoAdmin, productNamed, signInThroughApi, signUpThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

test("a visitor's delivered-cost estimate is what the customer in Texas pays, shipping and tax included", async ({
  page,
}) => {
  const plugs = await productNamed(page, "spark plug");
  const filter = await productNamed(page, "oil filter");

  // A visitor puts two parts in the cart (each at its retail minimum: visitors are retail) and
  // asks what delivery to Austin, TX would cost.
  for (const [q, p] of [
    ["spark plug", plugs],
    ["oil filter", filter],
  ] as const) {
    await page.goto(`/allproducts?q=${encodeURIComponent(q)}`);
    await page.getByRole("button", { name: `Add to cart: ${p.name}` }).click();
    await expect(
      page.getByRole("link", { name: `In your cart (${p.retailMinimum}): ${p.name}` }),
    ).toBeVisible();
  }
  await page.goto("/cart");
  await expect(page.getByTestId("cart-line")).toHaveCount(2);
  await page.getByLabel("Postal code").fill("7870");
  await page.getByRole("button", { name: "Estimate" }).click();
  await expect(
    page.getByText("Enter a United States postal code, like 94103 or 94103-1234"),
  ).toBeVisible();
  await page.getByLabel("Postal code").fill("78701");
  await page.getByRole("button", { name: "Estimate" }).click();
  const estimate = page.getByTestId("delivery-estimate");
  const express = estimate.getByRole("radio", { name: /^Express, 1-2 business days/ });
  await express.check();
  await expect(express).toBeChecked();
  // The totals follow once the quote for Express is in: its price, as its choice says it.
  const expressPrice = /\$[\d,.]+$/.exec((await express.getAttribute("aria-label"))!)![0];
  await expect(page.getByTestId("estimate-shipping")).toHaveText(expressPrice);
  await expect(estimate.getByText("Texas sales tax (6.25 %)")).toBeVisible();
  const lines = plugs.price * plugs.retailMinimum + filter.price * filter.retailMinimum;
  await expect(page.getByTestId("estimate-subtotal")).toHaveText(usd(lines));
  const shipping = (await page.getByTestId("estimate-shipping").textContent())!;
  const tax = (await page.getByTestId("estimate-tax").textContent())!;
  const total = (await page.getByTestId("estimate-total").textContent())!;
  expect(shipping).not.toBe("$0.00");
  expect(tax).not.toBe("$0.00");
  expect(money(total)).toBeCloseTo(lines + money(shipping) + money(tax), 2);

  // They sign up, keep an address in Texas in My Info, and check out with Express.
  const who = await signUpThroughApi(page);
  await page.goto("/dashboard");
  const book = page.getByTestId("address-book");
  await book.getByRole("button", { name: "Add an address" }).click();
  await book.getByLabel("Address line 1").fill("100 Congress Ave");
  await book.getByLabel("City").fill("Austin");
  await book.getByLabel("State").selectOption("TX");
  await book.getByLabel("Postal code").fill("78701");
  await book.getByLabel("Phone").fill("(512) 555-0100");
  await book.getByRole("button", { name: "Add address" }).click();
  const shipTo = `${who.name}, 100 Congress Ave, Austin, TX 78701, United States`;
  await expect(book.getByText(shipTo)).toBeVisible();

  await page.goto("/cart");
  await expect(page.getByTestId("cart-line")).toHaveCount(2);
  await page.getByRole("button", { name: "Check out" }).click();
  await expect(page.getByRole("radio", { name: shipTo })).toBeChecked();
  await page.getByRole("radio", { name: /^Express, 1-2 business days/ }).check();
  await expect(page.getByTestId("checkout-shipping")).toHaveText(shipping);
  await expect(page.getByTestId("checkout-tax")).toHaveText(tax);
  await expect(page.getByTestId("checkout-total")).toHaveText(total);
  await page.getByRole("button", { name: "Place order" }).click();

  // The order shows the same figures, and so does it after paying with the test card.
  await expect(page).toHaveURL(/\/dashboard\/orders\//);
  const orderUrl = page.url();
  await expect(page.getByTestId("order-address")).toHaveText(shipTo);
  await expect(page.getByTestId("order-shipping")).toHaveText(shipping);
  await expect(page.getByTestId("order-tax")).toHaveText(tax);
  await expect(page.getByTestId("order-total")).toHaveText(total);
  await page.getByRole("link", { name: `Pay ${total}` }).click();
  await page.getByLabel("Card number").fill("4242424242424242");
  await page.getByLabel("Expiry (MM / YY)").fill("1230");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: `Pay ${total}` }).click();
  await expect(page.getByText("Congrats! Your payment is completed.")).toBeVisible();
  await page.goto(orderUrl);
  await expect(page.getByText("Thank you: your payment is received.")).toBeVisible();
  await expect(page.getByText("Shipping (Express)")).toBeVisible();
  await expect(page.getByTestId("order-shipping")).toHaveText(shipping);
  await expect(page.getByTestId("order-tax")).toHaveText(tax);
  await expect(page.getByTestId("order-total")).toHaveText(total);
});

test("an admin imports a city's rate by postal code: a Seattle address pays it, the rest of Washington the state's", async ({
  page,
}) => {
  // Seattle's ZIP codes (no other test delivers to Washington).
  const csv = [
    "country,region,postal_code,name,rate,applies_to_shipping",
    "US,WA,98101-98199,Seattle sales tax,10.35 %,true",
    "US,WA,981*,Seattle sales tax,ten,true",
  ];
  const file = (rows: string[]) => ({
    name: "tax-rates.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(rows.join("\n") + "\n"),
  });
  await signInThroughApi(page, demoAdmin);
  await page.goto("/dashboard/tax");
  const rows = page.getByTestId("tax-rate");
  await expect(rows.filter({ hasText: "Washington sales tax" })).toHaveCount(1);

  // A file with a bad line changes nothing and names the line.
  await page.getByLabel("Import a CSV").setInputFiles(file(csv));
  await page.getByRole("button", { name: "Import rates" }).click();
  await expect(page.getByRole("alert")).toHaveText("Line 3: rate: Enter a rate in percent");
  await expect(rows.filter({ hasText: "Seattle sales tax" })).toHaveCount(0);

  await page.getByLabel("Import a CSV").setInputFiles(file(csv.slice(0, 2)));
  await page.getByRole("button", { name: "Import rates" }).click();
  await expect(page.getByText(/^Imported tax rates: [01] added, [01] replaced$/)).toBeVisible();
  const seattle = rows.filter({ hasText: "Seattle sales tax" });
  await expect(seattle).toHaveCount(1);
  await expect(seattle).toContainText("United States, WA, 98101-98199");
  await expect(seattle).toContainText("10.35 %");

  // A visitor's estimate: the city's rate in Seattle, the state's in Spokane.
  await page.context().clearCookies();
  const plugs = await productNamed(page, "spark plug");
  await page.goto("/allproducts?q=spark%20plug");
  await page.getByRole("button", { name: `Add to cart: ${plugs.name}` }).click();
  await page.goto("/cart");
  await expect(page.getByTestId("cart-line")).toHaveCount(1);
  const estimate = page.getByTestId("delivery-estimate");
  for (const [zip, words] of [
    ["98104", "Seattle sales tax (10.35 %)"],
    ["99201", "Washington sales tax (6.5 %)"],
  ] as const) {
    await page.getByLabel("Postal code").fill(zip);
    await page.getByRole("button", { name: "Estimate" }).click();
    await expect(estimate.getByText(words)).toBeVisible();
    const shipping = money((await page.getByTestId("estimate-shipping").textContent())!);
    const tax = money((await page.getByTestId("estimate-tax").textContent())!);
    const rate = words.includes("10.35") ? 0.1035 : 0.065;
    // Both rates tax shipping too; the estimate rounds once, to the cent.
    expect(tax).toBeCloseTo((plugs.price * plugs.retailMinimum + shipping) * rate, 1);
  }
});

const usd = (n: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(n);
const money = (text: string) => Number(text.replace(/[^0-9.]/g, ""));
