import type { Page } from "@playwright/test";
import { vehicleInUseMessage, type VehicleNames } from "../../src/contract/vehicles";
import { demoAdmin, signInThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// An admin adds a vehicle the store did not know (make Tesla, model "Model 3", the 2019 model
// year with its engine) on the Vehicles page; a product CSV whose fitment cell names it is then
// accepted, and the public vehicle selector offers it. Everything made here is removed again
// (other tests share the demo catalogue and its vehicles).

const PHONE = { width: 390, height: 844 };
const ENGINE = `Dual Motor AWD ${process.pid}`;
const header =
  "part_number,name,description,category,price,stock,minimum_order,warranty_months,image_url,cross_references,fitment";

test("an admin adds Tesla Model 3 2019 with an engine; a product CSV fits it; shoppers can pick it", async ({
  page,
  browser,
  baseURL,
}) => {
  // Four screens, two people and a phone: more than a minute on a busy shared machine.
  test.setTimeout(120_000);
  const id = `${Date.now()}-${process.pid}`;
  const partName = `Tesla Cabin Filter ${id}`;
  await signInThroughApi(page, demoAdmin);
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Vehicles", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vehicles");

  const addMake = page.getByRole("form", { name: "Add a make" });
  await addMake.getByLabel("Make", { exact: true }).fill("Tesla");
  await addMake.getByRole("button", { name: "Add make" }).click();
  await expect(page.getByText("Make Tesla added")).toBeVisible();

  const addModel = page.getByRole("form", { name: "Add a model" });
  await addModel.getByLabel("Make", { exact: true }).selectOption({ label: "Tesla" });
  await addModel.getByLabel("Model", { exact: true }).fill("Model 3");
  await addModel.getByRole("button", { name: "Add model" }).click();
  await expect(page.getByText("Model Tesla Model 3 added")).toBeVisible();

  const addEngine = page.getByRole("form", { name: "Add an engine" });
  await addEngine.getByLabel("Engine", { exact: true }).fill(ENGINE);
  await addEngine.getByLabel("Fuel (optional)").fill("Electric");
  await addEngine.getByRole("button", { name: "Add engine" }).click();
  await expect(page.getByText(`Engine ${ENGINE} added`)).toBeVisible();

  const addYears = page.getByRole("form", { name: "Add years of a model" });
  await addYears.getByLabel("Make", { exact: true }).selectOption({ label: "Tesla" });
  await addYears.getByLabel("Model", { exact: true }).selectOption({ label: "Model 3" });
  await addYears.getByLabel("From year").fill("2019");
  await addYears.getByLabel("To year").fill("2019");
  // The demo has many engines: the list is narrowed by what is typed.
  await addYears.getByLabel("Find an engine").fill(ENGINE);
  await addYears.getByLabel(ENGINE).check();
  await addYears.getByRole("button", { name: "Add years" }).click();
  await expect(page.getByText("1 year of the Model 3 added")).toBeVisible();

  // The table, filtered by the new make, lists it with its engine.
  await page.getByLabel("Make", { exact: true }).first().selectOption({ label: "Tesla" });
  await expect(page).toHaveURL(/[?&]make=\d+/);
  const row = page.getByTestId("vehicle-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("rowheader")).toHaveText("2019 Tesla Model 3");
  await expect(row).toContainText(ENGINE);

  // A product CSV with a fitment cell for the new vehicle is accepted.
  await page.goto("/dashboard/manageallproducts");
  const csvRow = `VDB-${id},"${partName}",Pollen filter,Filters,19.90,12,1,12,/images/products/oil-filter.svg,,2019;Tesla;Model 3;${ENGINE}`;
  await page.getByLabel("CSV file", { exact: true }).setInputFiles({
    name: "products.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`${header}\n${csvRow}\n`),
  });
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByTestId("csv-preview")).toContainText("1 row: 1 new product, 0 updates");
  await expect(page.getByTestId("csv-error")).toHaveCount(0);
  await page.getByRole("button", { name: "Import 1 product" }).click();
  await expect(page.getByTestId("csv-import-status")).toHaveText(
    "Imported: 1 new product, 0 updates",
  );

  // A shopper (no session) picks the 2019 Tesla Model 3 in the selector and sees the part.
  const shopperContext = await browser.newContext({ baseURL });
  try {
    const shopper = await shopperContext.newPage();
    await shopper.goto("/allproducts");
    const selector = shopper.getByTestId("vehicle-selector");
    await selector.getByLabel("Year").selectOption("2019");
    await selector.getByLabel("Make").selectOption({ label: "Tesla" });
    await selector.getByLabel("Model").selectOption({ label: "Model 3" });
    await selector.getByRole("button", { name: "Show parts that fit" }).click();
    await expect(shopper.getByRole("heading", { level: 1 })).toHaveText(
      "Parts that fit your 2019 Tesla Model 3",
    );
    const card = shopper.getByRole("article").filter({ hasText: partName });
    await expect(card.getByTestId("fit")).toContainText("Fits your 2019 Tesla Model 3");
  } finally {
    await shopperContext.close();
  }

  // On a phone, the row is a card with its actions on screen; removing the vehicle while the
  // product's fitment names it is refused in the dialog, with the count.
  await page.setViewportSize(PHONE);
  await page.goto("/dashboard/vehicles");
  await page.getByLabel("Make", { exact: true }).first().selectOption({ label: "Tesla" });
  const remove = row.getByRole("button", { name: "Remove 2019 Tesla Model 3" });
  await remove.scrollIntoViewIfNeeded();
  await expect(remove).toBeInViewport({ ratio: 1 });
  const box = (await remove.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  await remove.click();
  const dialog = page.getByRole("dialog", { name: "Remove the 2019 Tesla Model 3?" });
  await dialog.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    vehicleInUseMessage("This vehicle", { fitmentRows: 1, garageVehicles: 0, orderLines: 0 }),
  );
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toHaveCount(1);
});

/** Removes what the test made: its products (so their fitment goes), then the make and engine. */
async function cleanUp(page: Page) {
  const found = await page.request.get("/api/products?q=VDB-&limit=100");
  for (const p of (await found.json()) as { _id: string; partNumber: string }[]) {
    if (p.partNumber.startsWith("VDB-")) await page.request.delete(`/api/products/${p._id}`);
  }
  const names = (await (await page.request.get("/api/vehicles/names")).json()) as VehicleNames;
  const tesla = names.makes.find((m) => m.name === "Tesla");
  if (tesla) await page.request.delete(`/api/vehicles/makes/${tesla.id}`);
  const engine = names.engines.find((e) => e.name === ENGINE);
  if (engine) await page.request.delete(`/api/vehicles/engines/${engine.id}`);
}

test.afterEach(async ({ page }) => {
  await cleanUp(page);
});
