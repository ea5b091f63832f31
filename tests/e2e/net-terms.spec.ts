import { demoAdmin, productNamed, signInThroughApi } from "./auth-helpers";
import { joinByEmail } from "./company-invitation";
import { expect, test } from "./fixtures";

/**
 * Net terms (docs/terms.md): a buyer of a net-30 company checks out without a card and is
 * told the order is charged to the company's account with its invoice and due date; the admin
 * finds the invoice on the Invoices page, records the bank transfer, and it shows paid. The buyer,
 * an owner, follows the invoice on their company's page; the admin reverses the payment (recorded
 * by mistake) and it is open again.
 */

test("a net-30 buyer checks out without a card; the admin records the bank payment and the invoice is paid", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const part = await productNamed(page, "timing belt");
  const companyName = `Terms Fleet ${Date.now()}-${process.pid}`;

  await signInThroughApi(page, demoAdmin);
  const created = await page.request.post("/api/companies", {
    data: { name: companyName, paymentTerms: "net30", creditLimit: 100000 },
  });
  expect(created.status()).toBe(201);
  const companyId = ((await created.json()) as { id: string }).id;
  const buyer = await joinByEmail(browser, baseURL, companyName);
  try {
    const invited = await page.request.post(`/api/companies/${companyId}/invitations`, {
      data: { email: buyer.who.email, role: "owner" },
    });
    expect(invited.status()).toBe(201);
    await buyer.accept();

    // The buyer checks out: no card page; the order is charged to the company's account.
    const b = buyer.page;
    await b.goto(`/products/${part._id}`);
    await b.getByRole("spinbutton", { name: "Quantity" }).fill(String(part.minimumOrder));
    await b.getByRole("button", { name: `Add to cart: ${part.name}` }).click();
    await expect(b.getByTestId("cart-link").first()).toHaveAccessibleName(
      `Cart, ${part.minimumOrder} ${part.minimumOrder === 1 ? "item" : "items"}`,
    );
    await b.goto("/cart");
    await b.getByRole("button", { name: "Check out" }).click();
    await b.getByLabel("Address line 1").fill("7 Depot Road");
    await b.getByLabel("City").fill("Leeds");
    await b.getByLabel("Country").selectOption("GB");
    await b.getByLabel("Postal code").fill("LS1 4AB");
    await b.getByLabel("Phone").fill("01134960000");
    await b.getByRole("button", { name: "Use this address" }).click();
    await expect(b.getByRole("radio", { name: /^UK Tracked/ })).toBeChecked();
    await b.getByRole("button", { name: "Place order" }).click();
    await expect(b).toHaveURL(/\/dashboard\/orders\//);
    const toast = b
      .locator("[data-sonner-toast]")
      .filter({ hasText: "Charged to your company's account: invoice INV-" });
    await expect(toast).toBeVisible();
    const invoiceLine = b.getByTestId("order-invoice");
    await expect(invoiceLine).toContainText(
      /Charged to your company's account: invoice INV-\d{4}-\d{6} due /,
    );
    const number = /INV-\d{4}-\d{6}/.exec((await invoiceLine.textContent()) ?? "")![0];
    await expect(b.getByRole("link", { name: /^Pay / })).toHaveCount(0);

    // As an owner, they find it among the company's invoices on account, read only.
    await b.goto("/dashboard/company");
    await expect(b.getByRole("heading", { name: "Invoices on account" })).toBeVisible();
    const owed = b.getByTestId("invoice-row").filter({ hasText: number });
    await expect(owed.getByTestId("invoice-status")).toContainText("Open");
    await expect(b.getByRole("button", { name: /^Record payment/ })).toHaveCount(0);

    // The admin sees it open, records the bank transfer, and it is paid.
    await page.goto("/dashboard/invoices");
    const row = page.getByTestId("invoice-row").filter({ hasText: number });
    await expect(row).toContainText(companyName);
    await expect(row.getByTestId("invoice-status")).toContainText("Open");
    await row.getByRole("button", { name: `Record payment: ${number}` }).click();
    const dialog = page.getByRole("dialog", { name: `Record payment: ${number}` });
    await dialog.getByLabel("Bank reference").fill(`BACS ${number}`);
    await dialog.getByRole("button", { name: "Record payment" }).click();
    await expect(
      page.locator("[data-sonner-toast]").filter({ hasText: `${number} is paid in full` }),
    ).toBeVisible();
    await expect(page.getByTestId("invoice-row").filter({ hasText: number })).toHaveCount(0);
    await page.getByRole("tab", { name: "Paid" }).click();
    const paid = page.getByTestId("invoice-row").filter({ hasText: number });
    await expect(paid.getByTestId("invoice-status")).toContainText("Paid");

    // The owner sees it paid too.
    await b.goto("/dashboard/company?status=paid");
    const settled = b.getByTestId("invoice-row").filter({ hasText: number });
    await expect(settled.getByTestId("invoice-status")).toContainText("Paid");

    // The bank transfer was meant for another invoice: the admin reverses it, with the reason.
    await paid.getByRole("button", { name: `Payments: ${number}` }).click();
    const payments = page.getByRole("dialog", { name: `Payments: ${number}` });
    await payments.getByRole("button", { name: `Reverse payment BACS ${number}` }).click();
    await payments.getByLabel("Why is it reversed?").fill("Meant for another invoice");
    await payments.getByRole("button", { name: "Reverse payment", exact: true }).click();
    await expect(
      page.locator("[data-sonner-toast]").filter({ hasText: `Payment BACS ${number} reversed` }),
    ).toBeVisible();
    await expect(payments.getByTestId("invoice-payment")).toContainText("Reversed");
    await expect(payments.getByTestId("invoice-payment")).toContainText(
      "Meant for another invoice",
    );
    // It is owed again, for the owner too.
    await b.goto("/dashboard/company");
    const owedAgain = b.getByTestId("invoice-row").filter({ hasText: number });
    await expect(owedAgain.getByTestId("invoice-status")).toContainText("Open");
  } finally {
    await buyer.context.close();
  }
});
