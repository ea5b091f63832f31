import type { Browser, Page } from "@playwright/test";
import { demoAdmin, productNamed, saveAddressThroughApi, signInThroughApi } from "./auth-helpers";
import { inviteToCompany, joinByEmail } from "./company-invitation";
import { expect, test } from "./fixtures";
import { screenshot } from "./screenshots";

/**
 * Trade controls on screen and words that match the money (issue 48 items 2 and 3): an owner
 * sets a buyer's spending limit on a phone, the buyer's order over it waits, the owner approves
 * it and, the company being on Net 30, it reads "On account · invoice … due …", never "Paid";
 * a quote accepted by such a company goes on account and the buyer chooses whether its parts
 * leave the cart. The approval window itself (three business days, a moved clock) is
 * src/server/approvals/window.test.ts's subject: this server runs on the real clock.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };
/** The page at both sizes, when SCREENSHOT_DIR names a folder (screenshots.ts). */
async function shoot(page: Page, name: string) {
  if (!process.env.SCREENSHOT_DIR) return;
  const size = page.viewportSize();
  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await screenshot(page, `${name}-${label}`);
  }
  if (size) await page.setViewportSize(size);
}

async function netThirtyCompany(page: Page, browser: Browser, baseURL?: string) {
  const companyName = `Net Fleet ${Date.now()}-${process.pid}-${Math.random().toString(36).slice(2, 6)}`;
  await signInThroughApi(page, demoAdmin);
  const created = await page.request.post("/api/companies", {
    data: { name: companyName, paymentTerms: "net30" },
  });
  expect(created.status()).toBe(201);
  const companyId = ((await created.json()) as { id: string }).id;
  const owner = await joinByEmail(browser, baseURL, companyName);
  const buyer = await joinByEmail(browser, baseURL, companyName);
  await inviteToCompany(page, companyId, owner.who.email, "owner");
  await inviteToCompany(page, companyId, buyer.who.email, "buyer");
  await owner.accept();
  await buyer.accept();
  return { companyId, owner, buyer };
}

test("an owner sets a buyer's limit on a phone; the order over it is approved and reads On account", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const part = await productNamed(page, "timing belt");
  const { owner, buyer } = await netThirtyCompany(page, browser, baseURL);
  try {
    // The owner, on a phone, sets the buyer's per-order limit on My company.
    const o = owner.page;
    await o.setViewportSize(PHONE);
    await o.goto("/dashboard/company");
    await o.getByRole("button", { name: `Set limits of ${buyer.who.email}` }).click();
    const dialog = o.getByRole("dialog");
    await dialog.getByLabel("Per-order limit").fill("1");
    await shoot(o, "member-limits-dialog");
    await dialog.getByRole("button", { name: "Save limits" }).click();
    await expect(
      o
        .locator("[data-sonner-toast]")
        .filter({ hasText: `Spending limits of ${buyer.who.email} saved` }),
    ).toBeVisible();
    const member = o.getByTestId("company-member").filter({ hasText: buyer.who.email });
    await expect(member).toContainText("$1.00");
    await expect(member).toContainText("No limit");
    await shoot(o, "members");

    // The buyer checks out over it; checkout says how a Net 30 company pays.
    const b = buyer.page;
    expect(
      (
        await b.request.put(`/api/cart/items/${part._id}`, { data: { qty: part.minimumOrder } })
      ).status(),
    ).toBe(200);
    await b.goto("/cart");
    await b.getByRole("button", { name: "Check out" }).click();
    await b.getByLabel("Address line 1").fill("7 Depot Road");
    await b.getByLabel("City").fill("Leeds");
    await b.getByLabel("Country").selectOption("GB");
    await b.getByLabel("Postal code").fill("LS1 4AB");
    await b.getByLabel("Phone").fill("01134960000");
    await b.getByRole("button", { name: "Use this address" }).click();
    await expect(b.getByTestId("checkout-pays-how")).toContainText(
      "On account: invoice due in 30 days",
    );
    await expect(b.getByText("then you pay by card")).toHaveCount(0);
    await shoot(b, "checkout-net30");
    await b.getByRole("button", { name: "Place order" }).click();
    await expect(b).toHaveURL(/\/dashboard\/orders\//);
    await expect(b.getByText("Awaiting approval", { exact: true })).toBeVisible();
    const orderId = b.url().split("/").pop()!;

    // The owner approves it on the phone.
    await o.goto(`/dashboard/approvals?order=${orderId}`);
    const waiting = o.getByTestId("approval-row").filter({ hasText: buyer.who.email });
    await waiting.getByRole("button", { name: /^Approve order/ }).click();
    await o.getByRole("dialog").getByRole("button", { name: "Approve", exact: true }).click();
    await expect(o.getByTestId("approval-row")).toHaveCount(0);

    // On account, with its invoice and due date: on its page, in My Items, and for the admin.
    await b.goto(`/dashboard/orders/${orderId}`);
    await expect(b.getByTestId("order-status")).toHaveText("On account");
    await expect(b.getByTestId("order-payment")).toHaveText(
      /^On account · invoice INV-\d{4}-\d{6} due \d{1,2} [A-Z][a-z]{2} \d{4}$/,
    );
    await expect(b.getByText("your payment is received")).toHaveCount(0);
    await shoot(b, "order-on-account");
    await b.goto("/dashboard/myitems");
    const row = b.getByTestId("my-order").filter({ hasText: part.name });
    await expect(row.getByTestId("order-status")).toHaveText("On account");
    await expect(row.getByTestId("order-payment")).toContainText("On account · invoice INV-");
    await shoot(b, "my-items-on-account");
    await page.goto("/dashboard/manageallorders");
    const adminRow = page.getByRole("row").filter({ hasText: buyer.who.email }).first();
    await expect(adminRow.getByTestId("order-status")).toHaveText("On account");
    await shoot(page, "manage-orders-on-account");
  } finally {
    await owner.context.close();
    await buyer.context.close();
  }
});

test("a quote accepted by a Net 30 company goes on account; the buyer takes its parts out of the cart", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const part = await productNamed(page, "brake");
  const { owner, buyer } = await netThirtyCompany(page, browser, baseURL);
  try {
    const b = buyer.page;
    expect(
      (
        await b.request.put(`/api/cart/items/${part._id}`, { data: { qty: part.minimumOrder } })
      ).status(),
    ).toBe(200);
    await b.goto("/cart");
    await b.getByRole("button", { name: "Request a quote" }).click();
    await b.getByRole("button", { name: "Send the request" }).click();
    await expect(b).toHaveURL(/\/dashboard\/quotes\/[0-9a-f-]+$/);
    const quoteId = b.url().split("/").pop()!;
    const sent = await page.request.post(`/api/quotes/${quoteId}/send`, {
      data: {
        lines: [{ productId: part._id, unitPrice: 6.5 }],
        expiresAt: new Date(Date.now() + 7 * 24 * 3600_000).toISOString(),
      },
    });
    expect(sent.status()).toBe(200);

    await saveAddressThroughApi(b);
    await b.reload();
    await expect(b.getByTestId("quote-total-to-pay")).toBeVisible();
    await b.getByRole("button", { name: "Accept and order" }).click();
    await expect(
      b.locator("[data-sonner-toast]").filter({ hasText: "Charged to your company's account" }),
    ).toBeVisible();
    await expect(b.getByText("pay it now")).toHaveCount(0);
    const choice = b.getByRole("dialog");
    await expect(choice).toContainText("Take the quoted parts out of your cart?");
    await shoot(b, "quote-cart-choice");
    await choice.getByRole("button", { name: "Remove from cart" }).click();
    await expect(b).toHaveURL(/\/dashboard\/orders\//);
    await expect(b.getByTestId("order-status")).toHaveText("On account");
    const cart = (await (await b.request.get("/api/cart")).json()) as {
      lines: { productId: string }[];
    };
    expect(cart.lines.map((l) => l.productId)).not.toContain(part._id);
  } finally {
    await owner.context.close();
    await buyer.context.close();
  }
});
