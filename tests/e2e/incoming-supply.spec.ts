import AxeBuilder from "@axe-core/playwright";
import { demoAdmin, signInThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";
import { screenshot } from "./screenshots";

// An admin enters a production run of 40 LED headlights (a demo part no other journey counts)
// expected on a date, moves the date, receives 25 of them, and the part's stock on Manage All
// Products went up by 25; the page is looked at on a phone and on a desktop.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 768 };
const PART = { number: "PW-LT-9302", name: "LED Projector Headlight Assembly" };

test("an admin adds a production run, changes its date and receives part of it: the part's stock grows", async ({
  page,
}) => {
  const reference = `RUN-${Date.now() % 1000000}-${process.pid % 100}`;
  await signInThroughApi(page, demoAdmin);
  const found = await page.request.get(`/api/products?q=${PART.number}&limit=1`);
  const [part] = (await found.json()) as { _id: string; availableQuantity: number }[];
  const before = part!.availableQuantity;

  // The page, from the dashboard's sidebar.
  await page.setViewportSize(DESKTOP);
  await page.goto("/dashboard");
  await page
    .getByRole("navigation", { name: "Dashboard" })
    .getByRole("link", { name: "Incoming supply", exact: true })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Incoming supply");
  await expect(page.getByLabel("Status")).toHaveValue("open");

  // A production run of 40, expected on 12 January 2027, at the Main warehouse.
  await page.getByRole("button", { name: "Add supply" }).click();
  const add = page.getByRole("form", { name: "Add supply" });
  await expect(add.getByLabel("Kind")).toHaveValue("production");
  await add.getByLabel("Run or PO number").fill(reference);
  await add.getByLabel("Part", { exact: true }).fill(PART.number);
  await add
    .getByRole("list", { name: "Matching parts" })
    .getByRole("button", { name: new RegExp(PART.number) })
    .click();
  await expect(add.getByTestId("supply-part")).toContainText(PART.name);
  await add.getByLabel("Arrives at").selectOption({ label: "MAIN · Main warehouse" });
  await add.getByLabel("Quantity").fill("40");
  await add.getByLabel("Expected on").fill("2027-01-12");
  await add.getByRole("button", { name: "Add supply" }).click();
  await expect(add).toBeHidden();
  const row = page.getByTestId("supply").filter({ hasText: reference });
  await expect(row).toContainText(PART.number);
  await expect(row.getByTestId("supply-received")).toHaveText("0 of 40 received");
  await expect(row.getByTestId("supply-expected")).toHaveText("12 Jan 2027");

  // It moves to 3 February.
  await row.getByRole("button", { name: `Change date of ${reference}` }).click();
  const change = page.getByRole("form", { name: `Change ${reference}` });
  await change.getByLabel("Expected on").fill("2027-02-03");
  await change.getByRole("button", { name: "Save" }).click();
  await expect(change).toBeHidden();
  await expect(row.getByTestId("supply-expected")).toHaveText("3 Feb 2027");

  // 25 arrive: the dialog offers the 40 still to come.
  await row.getByRole("button", { name: `Receive ${reference}` }).click();
  const receive = page.getByRole("form", { name: `Receive ${reference}` });
  await expect(receive.getByLabel("Units arrived")).toHaveValue("40");
  await receive.getByLabel("Units arrived").fill("25");
  await receive.getByRole("button", { name: "Receive" }).click();
  await expect(receive).toBeHidden();
  await expect(row.getByTestId("supply-received")).toHaveText("25 of 40 received");
  await expect(row).toContainText("Open");
  await screenshot(page, "incoming-supply-desktop");

  // On a phone the list is cards, the actions in reach.
  await page.setViewportSize(PHONE);
  await expect(row.getByRole("button", { name: `Receive ${reference}` })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, "incoming-supply-phone");

  // Loaded afresh (no toast), the page has no WCAG 2.2 AA problem axe finds (as
  // accessibility.spec.ts checks other pages).
  await page.setViewportSize(DESKTOP);
  await page.reload();
  await expect(row.getByTestId("supply-received")).toHaveText("25 of 40 received");
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"])
    .analyze();
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);

  // Manage All Products says 25 more than before.
  await page.goto("/dashboard/manageallproducts");
  await page.getByLabel("Search products").fill(PART.name);
  await page.getByRole("button", { name: "Search" }).click();
  const product = page
    .getByRole("table", { name: "Products" })
    .getByRole("row")
    .filter({ hasText: PART.name });
  await expect(product.getByTestId("stock")).toHaveText(String(before + 25));
});
