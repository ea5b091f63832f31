import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startServerProcess, type ServerProcess } from "../support/server-process";
import { productNamed } from "./auth-helpers";
import { screenshot } from "./screenshots";

/**
 * A consumer in Europe before and after a delivery address (docs/tax.md "Prices with VAT
 * included", docs/pricing.md "The market chosen"), on a store of its own with
 * `MARKET_CHOICE=true`: before an address the checkout says the delivery country's VAT decides
 * their prices (the card said Austria's 20 %), with Berlin it shows Germany's 19 %; then, with no
 * market cookie, their German default address chooses Europe, and the part's page reaches them
 * in € with no store-currency offer in its HTML. Their new address starts in Europe ("Choose a
 * country", not the United States), at checkout and in My Info; a second one in their default
 * address's Germany.
 */
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "store-e2e-markets-checkout-"));
  server = await startServerProcess(
    {
      DATA_DIR: dataDir,
      MARKET_CHOICE: "true",
      AUTH_RATE_LIMIT_PER_IP: "10000",
    },
    [],
    { compiled: true },
  );
});
test.afterAll(async () => {
  await server?.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const DISC = "/parts/pw-bk-3001-ventilated-brake-disc-caliper-kit";
const DISC_NAME = "Ventilated Brake Disc & Caliper Kit";
const BERLIN = {
  name: "Kim Kunde",
  line1: "Unter den Linden 1",
  city: "Berlin",
  postalCode: "10117",
  country: "DE",
  phone: "0305550100",
  isDefault: true,
};

for (const [width, height] of [
  [1366, 768],
  [390, 844],
] as const) {
  test(`a consumer in Europe: the checkout's words before an address, Germany's VAT with one, the part page by their address (${width}×${height})`, async ({
    browser,
  }) => {
    test.slow();
    const context = await browser.newContext({ baseURL: server.url, viewport: { width, height } });
    const headers = { origin: server.url };
    const page = await context.newPage();
    try {
      const email = `eu-${width}-${Date.now()}@example.com`;
      const signedUp = await context.request.post("/api/auth/sign-up/email", {
        data: { name: "Kim Kunde", email, password: "correct horse battery" },
        headers,
      });
      expect(signedUp.status(), await signedUp.text()).toBe(200);
      await context.addCookies([{ name: "market", value: "EU", url: server.url }]);
      const disc = await productNamed(page, DISC_NAME);
      const put = await context.request.put(`/api/cart/items/${disc._id}`, {
        data: { qty: 1 },
        headers,
      });
      expect(put.status(), await put.text()).toBe(200);

      // No address yet: Europe's prices at Austria's 20 %, and the checkout says the delivery
      // country's VAT decides them (nothing is added).
      await page.goto("/cart");
      await expect(page.getByTestId("cart-line-vat-included").first()).toHaveText(
        " (incl. 20 % VAT)",
      );
      // The cart's estimate starts in Europe too: it asks for a country, not the United States.
      const estimateCountry = page
        .getByRole("region", { name: "Estimate shipping and tax" })
        .getByLabel("Country");
      await expect(estimateCountry).toHaveValue("");
      await expect(estimateCountry.locator("option:checked")).toHaveText("Choose a country");
      await page.goto("/checkout");
      await expect(page.getByTestId("checkout-waiting-words")).toHaveText(
        "Add a delivery address to see shipping and your prices with its country's VAT.",
      );
      await expect(page.getByTestId("checkout-prices-words")).toContainText(
        "Prices include VAT; shipping is added here.",
      );
      await page.getByTestId("checkout-waiting-words").scrollIntoViewIfNeeded();
      await screenshot(page, `market-hot-checkout-no-address-${width}`, { fullPage: false });

      // Their first address starts in Europe, not the United States: Europe has several
      // countries and the store's own (US) is not among them, so the form asks for one
      // (docs/shipping.md "A new address's country").
      const country = page.getByLabel("Country");
      await expect(page.getByRole("heading", { name: "Where should we deliver?" })).toBeVisible();
      await expect(country).toHaveValue("");
      await expect(country.locator("option:checked")).toHaveText("Choose a country");
      await expect(page.getByLabel("State")).toHaveCount(0);
      await country.scrollIntoViewIfNeeded();
      await screenshot(page, `address-country-checkout-new-address-${width}`, { fullPage: false });
      await country.selectOption("DE");
      await expect(page.getByText("Like 10115")).toBeVisible();

      // My Info's address book adds one the same way.
      await page.goto("/dashboard");
      const book = page.getByTestId("address-book");
      await book.getByRole("button", { name: "Add an address" }).click();
      await expect(book.getByLabel("Country")).toHaveValue("");
      await expect(book.getByLabel("Country").locator("option:checked")).toHaveText(
        "Choose a country",
      );
      await book.getByLabel("Country").scrollIntoViewIfNeeded();
      await screenshot(page, `address-country-my-info-new-address-${width}`, { fullPage: false });

      // Berlin: Germany's 19 %.
      const saved = await context.request.post("/api/user/addresses", { data: BERLIN, headers });
      expect(saved.status(), await saved.text()).toBe(201);
      await page.goto("/checkout");
      await expect(page.getByTestId("checkout-tax-included")).toContainText(
        /Includes VAT \(19 %\) €\d/,
      );
      await page.getByTestId("checkout-tax-included").scrollIntoViewIfNeeded();
      await screenshot(page, `market-hot-checkout-berlin-${width}`, { fullPage: false });

      // Another new address starts in their default address's country, Germany.
      await page.getByRole("button", { name: "Deliver to a new address" }).click();
      await expect(page.getByLabel("Country")).toHaveValue("DE");
      await expect(page.getByLabel("Country").locator("option:checked")).toHaveText("Germany");
      await page.getByLabel("Country").scrollIntoViewIfNeeded();
      await screenshot(page, `address-country-checkout-second-address-${width}`, {
        fullPage: false,
      });

      // No cookie now: the German default address chooses Europe. The part's page is not the
      // default market's (no store-currency offer in its HTML); the app shows it in €.
      await context.clearCookies({ name: "market" });
      const html = await (await context.request.get(DISC)).text();
      expect(html).not.toContain('"priceCurrency":"USD"');
      await page.goto(DISC);
      await expect(page.getByTestId("price-vat-included")).toHaveText("incl. 19 % VAT");
      await expect(page.getByText(/€\d/).first()).toBeVisible();
      await expect(page.getByText(/\$\d/)).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
}
