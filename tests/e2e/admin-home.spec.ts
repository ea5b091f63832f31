import type { Page } from "@playwright/test";
import { demoAdmin, demoCustomer, signInThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

/** A product with one left, made through the API in the admin's session; answers its part number. */
async function emptyProduct(page: Page, name: string): Promise<string> {
  const partNumber = `HOME-${Date.now()}-${process.pid}`;
  const res = await page.request.post("/api/products", {
    data: {
      name,
      partNumber,
      category: "Engine",
      price: 20,
      minimumOrder: 1,
      availableQuantity: 1,
      warranty: 12,
      shortDescription: "Made for the admin home test",
      img: "/images/products/timing-belt-kit.svg",
    },
  });
  expect(res.status()).toBe(201);
  return partNumber;
}

for (const size of ["desktop", "phone"] as const) {
  test(`an admin's dashboard opens on Today, and a reorder level set there takes the product off the low-stock list (${size})`, async ({
    page,
  }) => {
    await signInThroughApi(page, demoAdmin);
    if (size === "phone") await page.setViewportSize(PHONE);
    // One left, and a name that sorts first among those with one: early in the list.
    const name = `000 Admin home part ${size} ${Date.now()}`;
    const partNumber = await emptyProduct(page, name);

    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { name: "Today", level: 2 })).toBeVisible();
    // The spec's My Info form is still the dashboard's index, below.
    await expect(page.getByLabel("Education")).toBeVisible();
    for (const label of [
      "Paid orders to ship",
      "Reviews to moderate",
      "Quotes to price",
      "Returns to handle",
      "Orders awaiting approval",
      "Payments to refund",
    ]) {
      await expect(page.getByRole("region", { name: label })).toBeVisible();
    }
    const row = page.getByTestId("low-stock-product").filter({ hasText: partNumber });
    await expect(row).toContainText("1 in stock · reorder at 2");
    await expect(row.getByRole("link", { name })).toHaveAttribute("href", /\/products\//);

    // Reorder at 1: one left is not below it.
    await row.getByLabel(`Reorder level of ${partNumber}`).fill("1");
    await row.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText(`Reorder level of ${partNumber} saved`)).toBeVisible();
    await expect(row).toHaveCount(0);

    // Each count links to where it is handled.
    await page
      .getByRole("region", { name: "Paid orders to ship" })
      .getByRole("link")
      .first()
      .click();
    await expect(page).toHaveURL(/\/dashboard\/manageallorders\?status=paid$/);
  });
}

test("an admin sets the daily low-stock email's hour on Today, on a phone; a wrong hour is refused beside it", async ({
  page,
}) => {
  await signInThroughApi(page, demoAdmin);
  await page.setViewportSize(PHONE);
  const before = await (await page.request.get("/api/admin-home/low-stock-email")).json();
  await page.goto("/dashboard");
  const form = page.getByRole("form", { name: "Low-stock email" });
  const box = form.getByRole("checkbox", {
    name: "Email every admin the low-stock list once a day",
  });
  const hour = form.getByLabel("From this hour of the day (UTC, 0 to 23)");
  await expect(hour).toHaveValue(String(before.hourUtc));

  await hour.fill("24");
  await form.getByRole("button", { name: "Save email settings" }).click();
  await expect(form.getByText("The hour is a whole number from 0 to 23")).toBeVisible();

  // Off, from 06:00: the demo's store stays without the email (its admins' mailbox is shared).
  await box.uncheck();
  await hour.fill("6");
  await form.getByRole("button", { name: "Save email settings" }).click();
  await expect(page.getByText("Low-stock email saved: it is off")).toBeVisible();
  await page.reload();
  await expect(hour).toHaveValue("6");
  await expect(box).not.toBeChecked();
  await expect(form.getByText("Not saved yet: these are the store's defaults.")).toHaveCount(0);

  // The settings in force before are saved back.
  const back = await page.request.put("/api/admin-home/low-stock-email", {
    data: { enabled: before.enabled, hourUtc: before.hourUtc },
  });
  expect(back.status()).toBe(200);
});

test("a customer's dashboard has no Today", async ({ page }) => {
  await signInThroughApi(page, demoCustomer);
  await page.goto("/dashboard");
  await expect(page.getByLabel("Education")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Today" })).toHaveCount(0);
});
