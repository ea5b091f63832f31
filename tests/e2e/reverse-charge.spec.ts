import fs from "node:fs/promises";
import { pdfText } from "../support/pdf-text";
import { demoAdmin, productNamed, signInThroughApi } from "./auth-helpers";
import { joinByEmail } from "./company-invitation";
import { expect, test } from "./fixtures";

/**
 * EU reverse charge (docs/tax.md): the admin records a company's German VAT number on
 * its page (a malformed one is refused with the expected form); its buyer checks out to Germany
 * (the demo store sells from the US, STORE_COUNTRY's default) and sees 0 % VAT with the legal
 * note, on the checkout, the order page and the invoice PDF with the VAT number.
 */
const NOTE =
  "Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC)";

test("admin records a company's VAT number; its buyer checks out to Germany at 0 % with the reverse-charge note, on the invoice too", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const part = await productNamed(page, "brake pad");
  const companyName = `Autohaus ${Date.now()}-${process.pid}`;

  await signInThroughApi(page, demoAdmin);
  const created = await page.request.post("/api/companies", { data: { name: companyName } });
  expect(created.status()).toBe(201);
  const companyId = ((await created.json()) as { id: string }).id;

  // The admin records the VAT number on the company's page.
  await page.goto(`/dashboard/companies/${companyId}`);
  const form = page.getByRole("form", { name: "Company tax status" });
  await form.getByLabel("VAT number / tax id").fill("DE 12345");
  await form.getByRole("button", { name: "Save tax status" }).click();
  await expect(
    form.getByText("Not a valid German VAT number: DE and 9 digits, like DE123456789"),
  ).toBeVisible();
  await form.getByLabel("VAT number / tax id").fill("DE 129 273 398");
  await form.getByRole("button", { name: "Save tax status" }).click();
  // Format checked at once, then confirmed by VIES (the stand-in answers valid): either way
  // reverse-charged.
  await expect(page.getByTestId("company-tax-summary")).toContainText(
    "EU VAT number DE129273398 (DE), ",
  );
  await expect(page.getByTestId("company-tax-summary")).toContainText("reverse-charged (0 %)");

  // A buyer joins by the emailed invitation.
  const buyer = await joinByEmail(browser, baseURL, companyName);
  const { who, context, page: b } = buyer;
  const invited = await page.request.post(`/api/companies/${companyId}/invitations`, {
    data: { email: who.email, role: "buyer" },
  });
  expect(invited.status()).toBe(201);
  try {
    await buyer.accept();

    // The buyer checks out to Berlin: 0 % with the note.
    await b.goto(`/products/${part._id}`);
    await b.getByRole("spinbutton", { name: "Quantity" }).fill(String(part.minimumOrder));
    await b.getByRole("button", { name: `Add to cart: ${part.name}` }).click();
    await expect(b.getByTestId("cart-link").first()).toHaveAccessibleName(/^Cart, \d+ item/);
    await b.goto("/cart");
    await b.getByRole("button", { name: "Check out" }).click();
    await b.getByLabel("Address line 1").fill("Unter den Linden 1");
    await b.getByLabel("City").fill("Berlin");
    await b.getByLabel("Country").selectOption("DE");
    await b.getByLabel("Postal code").fill("10117");
    await b.getByLabel("Phone").fill("+49 30 1234567");
    await b.getByRole("button", { name: "Use this address" }).click();
    await expect(b.getByText("VAT reverse charge (0 %)")).toBeVisible();
    // Delivered to Germany: priced in its market, Europe (EUR), net for a company's buyer.
    await expect(b.getByTestId("checkout-tax")).toHaveText("€0.00");
    await expect(b.getByTestId("checkout-tax-note")).toHaveText(NOTE);
    const total = (await b.getByTestId("checkout-total").textContent())!;
    await b.getByRole("button", { name: "Place order" }).click();

    await expect(b).toHaveURL(/\/dashboard\/orders\//);
    const orderUrl = b.url();
    await expect(b.getByTestId("order-tax")).toHaveText("€0.00");
    await expect(b.getByTestId("order-total")).toHaveText(total);
    await expect(b.getByTestId("order-tax-note")).toContainText(NOTE);
    await expect(b.getByTestId("order-tax-note")).toContainText("Buyer's tax id: DE129273398");

    // Paid with the test card: the invoice says it too.
    await b.getByRole("link", { name: `Pay ${total}` }).click();
    await b.getByLabel("Card number").fill("4242424242424242");
    await b.getByLabel("Expiry (MM / YY)").fill("1230");
    await b.getByLabel("CVC").fill("123");
    await b.getByRole("button", { name: `Pay ${total}` }).click();
    await expect(b.getByText("Congrats! Your payment is completed.")).toBeVisible();
    await b.goto(orderUrl);
    const download = b.getByTestId("order-invoice").getByRole("link", { name: /Download invoice/ });
    const [file] = await Promise.all([b.waitForEvent("download"), download.click()]);
    const text = (await pdfText(await fs.readFile(await file.path()))).text.replace(/\s+/g, " ");
    expect(text).toContain("Tax id: DE129273398");
    expect(text).toContain("VAT reverse charge 0 %");
    expect(text).toContain(NOTE);
    expect(text).toContain(`Total (EUR) ${total}`);
  } finally {
    await context.close();
  }
});
