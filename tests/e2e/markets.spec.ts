import { demoAdmin, signInThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { screenshot } from "./screenshots";

// Markets (docs/pricing.md "Markets and currencies"): the admin creates a market on its screen
// (a country of another market is refused beside the field), then changes Europe's exchange
// rate and rounding; the list follows. Buyers choose a market (MARKET_CHOICE, on by default: the
// screen says so).

const shots = process.env.SCREENSHOT_DIR;

test("an admin creates a market and changes Europe's exchange rate on the Markets screen", async ({
  page,
}) => {
  test.slow();
  await signInThroughApi(page, demoAdmin);
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Markets" }).first().click();
  await expect(page.getByRole("heading", { name: "Markets", level: 1 })).toBeVisible();
  await expect(page.getByText("Buyers choose theirs in the navbar")).toBeVisible();
  const europe = page.getByTestId("market-row").filter({ hasText: "Europe" });
  await expect(europe).toContainText("1 USD = 0.92 EUR");
  await expect(europe).toContainText("VAT included");
  await expect(europe).toContainText("$19.99 → €18.39");

  const form = page.getByRole("form", { name: "New market" });
  await form.getByLabel("Code").fill("nordic");
  await form.getByLabel("Name").fill("Nordics");
  await form.getByLabel("Countries").fill("SE DK DE");
  await form.getByLabel("Exchange rate (EUR for 1 USD)").fill("0.91");
  await form.getByLabel("Rounding").selectOption("end99");
  await form.getByRole("button", { name: "Create market" }).click();
  await expect(form.getByText("Germany (DE) belongs to the market Europe already")).toBeVisible();
  await form.getByLabel("Countries").fill("SE DK");
  await form.getByRole("button", { name: "Create market" }).click();
  await expect(page.getByText("Created Nordics: 1 USD = 0.91 EUR")).toBeVisible();
  const nordics = page.getByTestId("market-row").filter({ hasText: "Nordics" });
  await expect(nordics).toContainText("Ending in .99");
  await expect(nordics).toContainText("DK SE");

  await europe.getByRole("button", { name: "Edit Europe" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit the market Europe" });
  await dialog.getByLabel("Exchange rate (EUR for 1 USD)").fill("0.93");
  await dialog.getByLabel("Rounding").selectOption("end95");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(europe).toContainText("1 USD = 0.93 EUR");
  await expect(europe).toContainText("Ending in .95");
  // A $19.99 part: 18.5907 euros, to the nearest .95.
  await expect(europe).toContainText("$19.99 → €18.95");
  // As everyone else reads them.
  const listed = (await (await page.request.get("/api/markets")).json()) as { code: string }[];
  expect(listed.map((m) => m.code)).toEqual(["US", "EU", "NORDIC", "GB"]);

  if (shots) {
    for (const [w, h] of [
      [1366, 768],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await screenshot(page, `markets-admin-${w}`);
      await europe.getByRole("button", { name: "Edit Europe" }).click();
      await screenshot(page, `markets-edit-${w}`, { fullPage: false });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(dialog).toBeHidden();
    }
  }
});
