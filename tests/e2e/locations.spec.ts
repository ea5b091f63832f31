import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { demoAdmin, signInThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { screenshot } from "./screenshots";

// An admin adds a Chicago warehouse serving Illinois on the Locations page, counts 30 units of a
// part there, transfers 5 back to the Main warehouse, and the stock by location shows the
// numbers, on a desktop and on a phone. The part is made for the test (other tests share the
// demo catalogue's stock), and the location is emptied and left inactive at the end.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };

/** The page has no WCAG 2.2 AA problem axe finds (as accessibility.spec.ts checks others). */
async function expectAccessible(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"])
    .analyze();
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    what,
  ).toEqual([]);
}

test("an admin adds a location, counts a part there and transfers some back to the Main warehouse", async ({
  page,
}) => {
  const id = `${Date.now() % 100000}${process.pid % 100}`;
  const code = `CHI${id}`.slice(0, 12);
  await signInThroughApi(page, demoAdmin);
  const created = await page.request.post("/api/products", {
    data: {
      name: `Brake caliper ${id}`,
      partNumber: `PW-LOC-${id}`,
      category: "Other",
      price: 80,
      minimumOrder: 1,
      availableQuantity: 12,
      warranty: 12,
      shortDescription: "Made for the locations test",
      img: "/images/products/timing-belt-kit.svg",
    },
  });
  expect(created.status()).toBe(201);
  const { product } = (await created.json()) as { product: { _id: string; partNumber: string } };

  // The Locations page, from the dashboard's sidebar: Main warehouse is home.
  await page.setViewportSize(DESKTOP);
  await page.goto("/dashboard");
  await page
    .getByRole("navigation", { name: "Dashboard" })
    .getByRole("link", { name: "Locations", exact: true })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Locations");
  const main = page.getByTestId("location").filter({ hasText: "Main warehouse" });
  await expect(main).toContainText("Home");

  // How orders ship: each part from the nearest location (the store's default, which other
  // tests rely on, so it is saved as it is; allocation.test.ts turns it on and off).
  const shipping = page.getByRole("form", { name: "How orders ship" });
  await expect(
    shipping.getByLabel("Ship an order from one location when one has all of it"),
  ).not.toBeChecked();
  await shipping.getByRole("button", { name: "Save" }).click();
  await expect(
    page.getByText("Each part now ships from the nearest location that has it"),
  ).toBeVisible();

  // Add a location.
  await page.getByRole("button", { name: "Add a location" }).click();
  const add = page.getByRole("form", { name: "Add a location" });
  await add.getByLabel("Code", { exact: true }).fill(code);
  await add.getByLabel("Name", { exact: true }).fill("Chicago warehouse");
  await add.getByLabel("City", { exact: true }).fill("Chicago");
  await add.getByLabel("Region", { exact: true }).fill("IL");
  await add.getByLabel("Country", { exact: true }).fill("US");
  await add.getByLabel("Serves countries", { exact: true }).fill("US");
  await add.getByLabel("Serves regions", { exact: true }).fill("IL");
  await add.getByLabel("Priority", { exact: true }).fill("10");
  await add.getByRole("button", { name: "Save" }).click();
  await expect(add).toBeHidden();
  const chicago = page.getByTestId("location").filter({ hasText: code });
  await expect(chicago).toContainText("Chicago warehouse");
  await expect(chicago).toContainText("Chicago, US");
  await expect(chicago).toContainText("US (IL)");

  // Choose the part for its stock by location.
  await page.getByLabel("Product").fill(product.partNumber);
  await page
    .getByRole("list", { name: "Matching products" })
    .getByRole("link", { name: new RegExp(product.partNumber) })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stock by location");
  await expect(page.getByTestId("total-on-sale")).toHaveText("12");
  const row = (text: string) => page.getByTestId("location-stock").filter({ hasText: text });

  // Count 30 on hand in Chicago, with a reorder level.
  await row(code)
    .getByRole("button", { name: `Count at ${code}` })
    .click();
  const count = page.getByRole("form", { name: `Count at ${code}` });
  await count.getByLabel("On hand").fill("30");
  await count.getByLabel("Reorder level").fill("8");
  await count.getByRole("button", { name: "Save" }).click();
  await expect(count).toBeHidden();
  await expect(page.getByTestId("total-on-sale")).toHaveText("42");
  await expect(row(code).getByTestId("on-sale")).toHaveText("30");
  await expect(row(code).getByTestId("on-hand")).toHaveText("30");
  await expect(row(code).getByTestId("reorder-level")).toHaveText("8");
  await expect(row("Main warehouse").getByTestId("on-sale")).toHaveText("12");

  // Transfer 5 back to the Main warehouse.
  await page.getByRole("button", { name: "Transfer", exact: true }).click();
  const transfer = page.getByRole("form", { name: `Transfer ${product.partNumber}` });
  await transfer
    .getByLabel("From")
    .selectOption({ label: `${code} · Chicago warehouse (30 on sale)` });
  await transfer.getByLabel("To").selectOption({ label: "MAIN · Main warehouse (12 on sale)" });
  await transfer.getByLabel("Units").fill("5");
  await transfer.getByRole("button", { name: "Transfer" }).click();
  await expect(transfer).toBeHidden();
  await expect(row(code).getByTestId("on-sale")).toHaveText("25");
  await expect(row("Main warehouse").getByTestId("on-sale")).toHaveText("17");
  await expect(row("Main warehouse").getByTestId("allocated")).toHaveText("0");
  await expect(page.getByTestId("total-on-sale")).toHaveText("42");
  const history = page.getByRole("table", { name: "Recent transfers" });
  await expect(history.getByRole("row").nth(1)).toContainText(code);
  await expect(history.getByRole("row").nth(1)).toContainText("MAIN");

  // More than is on sale is refused with the contract's words, nothing moved.
  await page.getByRole("button", { name: "Transfer", exact: true }).click();
  await transfer
    .getByLabel("From")
    .selectOption({ label: `${code} · Chicago warehouse (25 on sale)` });
  await transfer.getByLabel("To").selectOption({ label: "MAIN · Main warehouse (17 on sale)" });
  await transfer.getByLabel("Units").fill("26");
  await transfer.getByRole("button", { name: "Transfer" }).click();
  await expect(transfer.getByRole("alert")).toHaveText(
    `Only 25 units are on sale at ${code}: transfer 25 or fewer`,
  );
  await transfer.getByRole("button", { name: "Cancel" }).click();
  await screenshot(page, "locations-stock-desktop");

  // On a phone: each location a card, nothing off-screen.
  await page.setViewportSize(PHONE);
  await expect(row(code).getByTestId("on-sale")).toBeVisible();
  // A card's lines are labelled by their column's header.
  await expect(row(code).getByTestId("on-sale")).toHaveAttribute("data-label", "On sale");
  await expect(row(code).getByTestId("allocated")).toHaveAttribute(
    "data-label",
    "Allocated to orders",
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  await screenshot(page, "locations-stock-phone");
  // The Transfer dialog fits a phone too.
  await page.getByRole("button", { name: "Transfer", exact: true }).click();
  await expect(transfer.getByLabel("Units")).toBeInViewport();
  await screenshot(page, "locations-transfer-phone", { fullPage: false });
  await transfer.getByRole("button", { name: "Cancel" }).click();
  await page.goto("/dashboard/locations");
  await expect(page.getByTestId("location").filter({ hasText: code })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE.width,
  );
  await screenshot(page, "locations-phone");
  await expectAccessible(page, "the Locations page");
  await page.setViewportSize(DESKTOP);
  await screenshot(page, "locations-desktop");

  // Manage All Products leads to the same page from the part's row.
  await page.goto(`/dashboard/manageallproducts?q=${encodeURIComponent(product.partNumber)}`);
  await page.getByRole("link", { name: `Stock by location of Brake caliper ${id}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Stock by location");
  await expect(page.getByTestId("total-on-sale")).toHaveText("42");
  await expect(page.getByRole("table", { name: "Recent transfers" })).toBeVisible();
  await expectAccessible(page, "the stock by location");

  // Emptied back to the Main warehouse and left inactive: the demo store's orders are not sent
  // to it.
  const listed = (await (await page.request.get("/api/locations")).json()) as {
    id: string;
    code: string;
    isHome: boolean;
  }[];
  const mine = listed.find((l) => l.code === code)!;
  const back = await page.request.post("/api/locations/transfers", {
    data: {
      productId: product._id,
      fromLocationId: mine.id,
      toLocationId: listed.find((l) => l.isHome)!.id,
      qty: 25,
    },
  });
  expect(back.status(), await back.text()).toBe(201);
  const off = await page.request.patch(`/api/locations/${mine.id}`, { data: { active: false } });
  expect(off.status()).toBe(200);
});
