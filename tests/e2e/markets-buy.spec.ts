import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import {
  demoAdmin,
  demoCustomer,
  fillLogin,
  payThroughApi,
  productNamed,
  signUpInBrowser,
} from "./auth-helpers";
import { screenshot } from "./screenshots";

/**
 * A buyer chooses a market (docs/pricing.md "The market chosen"): a store of its own with
 * `MARKET_CHOICE=true` (the shared e2e store keeps it off, the default). A visitor picks Europe in
 * the navbar, sees € on All products and on a part's page, signs in as the demo customer, orders
 * the part to Berlin, pays by the test card, and the order page shows € amounts.
 */
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-e2e-markets-"));
  server = await startServerProcess(
    {
      DATA_DIR: dataDir,
      MARKET_CHOICE: "true",
      AUTH_RATE_LIMIT_PER_IP: "10000",
      PAYMENT_CONFIRM_LIMIT_PER_IP: "10000",
      HOLD_NEW_CUSTOMER_SHARE: "1",
    },
    [],
    { compiled: true },
  );
});
test.afterAll(async () => {
  await server?.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const BERLIN = {
  name: "Casey Customer",
  line1: "Unter den Linden 1",
  city: "Berlin",
  postalCode: "10117",
  country: "DE",
  phone: "0305550100",
};

for (const [width, height] of [
  [1366, 768],
  [390, 844],
] as const) {
  test(`a visitor picks Europe, sees €, and the demo customer pays an order in € (${width}×${height})`, async ({
    browser,
  }) => {
    test.slow();
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width, height },
    });
    const page = await context.newPage();
    try {
      await page.goto("/allproducts");
      if (width < 768) await page.getByRole("button", { name: "Open menu" }).click();
      const picker = page.locator('select[aria-label="Market"]:visible');
      await picker.selectOption("EU");
      await page.waitForURL(/market=EU/);
      const firstCard = page.getByRole("article").first();
      await expect(firstCard).toContainText("€");
      await expect(firstCard).not.toContainText("$");
      // A visitor's prices in Europe include VAT at its first country's rate (Austria's 20 %),
      // and the card says so under the price (docs/tax.md "Prices with VAT included").
      await expect(firstCard.getByTestId("card-vat-included")).toHaveText("incl. 20 % VAT");
      // A part's page, in the market chosen.
      const [part] = (await (await page.request.get("/api/products?limit=1")).json()) as {
        _id: string;
        name: string;
        price: number;
        currency: string;
      }[];
      expect(part!.currency).toBe("EUR");
      await page.goto(`/allproducts?q=${encodeURIComponent(part!.name)}`);
      await page.getByRole("link", { name: part!.name }).first().click();
      await expect(page.getByRole("heading", { name: part!.name })).toBeVisible();
      await expect(page.getByText(/€\d/).first()).toBeVisible();
      await expect(page.getByTestId("price-vat-included")).toHaveText("incl. 20 % VAT");

      await page.goto("/login");
      await fillLogin(page, demoCustomer.email, demoCustomer.password);
      if (width < 768) await page.getByRole("button", { name: "Open menu" }).click();
      await expect(page.getByRole("button", { name: "Sign Out" }).first()).toBeVisible();
      // The part's order panel counts in the market's currency from the first number it shows.
      await page.goto(`/products/${part!._id}`);
      await expect(page.getByTestId("order-total")).toHaveText("€0.00");
      await page.getByRole("button", { name: "Increase quantity" }).click();
      await expect(page.getByTestId("order-total")).toHaveText(/^€\d/);
      const placed = await page.request.post("/api/orders", {
        data: {
          productId: part!._id,
          orderQty: 1,
          phonrNo: "0305550100",
          Address: "Unter den Linden 1",
          shipTo: BERLIN,
        },
      });
      expect(placed.status(), await placed.text()).toBe(201);
      const order = (await placed.json()).order as { _id: string; currency: string };
      expect(order.currency).toBe("EUR");
      await payThroughApi(page, order._id);
      await page.goto(`/dashboard/orders/${order._id}`);
      await expect(page.getByText(/€\d/).first()).toBeVisible();
      await expect(page.getByText(/\$\d/)).toHaveCount(0);
      // A consumer in Europe: the VAT the total contains (docs/tax.md "Prices with VAT included").
      await expect(page.getByText(/Includes VAT \(19 %\) €\d/)).toBeVisible();
      await screenshot(page, `markets-order-${width}`, { fullPage: false });
    } finally {
      await context.close();
    }
  });
}

/**
 * A quote in the buyer's market (docs/quotes.md "In the buyer's market"): a new customer who
 * picked Europe asks for a quote from the cart; it is in EUR with the VAT included (a consumer);
 * the admin prices it in EUR (the code beside the price field) and sends it; the buyer reads the
 * total in €.
 */
for (const [width, height] of [
  [1366, 768],
  [390, 844],
] as const) {
  test(`a quote asked in Europe is priced by the admin and read by the buyer in € (${width}×${height})`, async ({
    browser,
  }) => {
    test.slow();
    const viewport = { width, height };
    const context = await browser.newContext({ baseURL: server.url, viewport });
    const adminContext = await browser.newContext({ baseURL: server.url, viewport });
    try {
      const page = await context.newPage();
      await signUpInBrowser(page);
      await page.goto("/allproducts?market=EU");
      const part = await productNamed(page, "brake");
      const qty = Math.max(part.minimumOrder, 2);
      const put = await page.request.put(`/api/cart/items/${part._id}`, { data: { qty } });
      expect(put.status(), await put.text()).toBe(200);
      await page.goto("/cart");
      await page.getByRole("button", { name: "Request a quote" }).click();
      await page.getByLabel("Note for us (optional)").fill("Fleet in Vienna");
      await page.getByRole("button", { name: "Send the request" }).click();
      await expect(page).toHaveURL(/\/dashboard\/quotes\/[0-9a-f-]+$/);
      const quoteUrl = new URL(page.url()).pathname;
      // A consumer in Europe: gross prices at its first country's rate (Austria's 20 %).
      await expect(page.getByTestId("quote-currency")).toHaveText("Prices in EUR, incl. 20 % VAT");
      await expect(page.getByTestId("quote-line").first()).toContainText("€");
      await expect(page.getByTestId("quote-line").first()).not.toContainText("$");
      await screenshot(page, `quote-market-buyer-${width}`);

      const admin = await adminContext.newPage();
      await admin.goto("/login");
      await fillLogin(admin, demoAdmin.email, demoAdmin.password);
      if (width < 768) await admin.getByRole("button", { name: "Open menu" }).click();
      await expect(admin.getByRole("button", { name: "Sign Out" }).first()).toBeVisible();
      await admin.goto(quoteUrl);
      await expect(admin.getByTestId("quote-currency")).toHaveText("Prices in EUR, incl. 20 % VAT");
      await expect(admin.getByTestId("price-currency").first()).toHaveText("EUR");
      await admin.getByLabel(`Unit price for ${part.name}`).fill("12.34");
      await screenshot(admin, `quote-market-admin-${width}`);
      await admin.getByRole("button", { name: "Send the quote" }).click();
      await expect(admin.getByTestId("quote-status")).toHaveText("Sent");
      const total = `€${(12.34 * qty).toFixed(2)}`;
      await expect(admin.getByTestId("quote-total")).toHaveText(total);

      await page.reload();
      await expect(page.getByTestId("quote-status")).toHaveText("Priced: waiting for you");
      await expect(page.getByTestId("quote-total").first()).toHaveText(total);
    } finally {
      await context.close();
      await adminContext.close();
    }
  });
}
