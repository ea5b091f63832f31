import { demoAdmin, signInThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// An admin imports a catalogue file: the check lists the bad row with its line, nothing is
// written until the file is fixed, then the import runs with a progress bar and the new product
// is in the shop, fitting the vehicle its fitment cell names. New part numbers only: other tests
// share the demo catalog.

const header =
  "part_number,name,description,category,price,stock,minimum_order,warranty_months,image_url,cross_references,fitment";

test("an admin checks a CSV with a bad row, fixes it, imports it and finds the product", async ({
  page,
}) => {
  const id = `${Date.now()}-${process.pid}`;
  const name = `Imported Brake Hose ${id}`;
  const good = `CSV-${id}-1,"${name}","Braided, for the front axle",Brakes,24.50,30,1,24,/images/products/oil-filter.svg,OE:Toyota:90947-${id},2014-2018;Skoda;Octavia;;Front;2`;
  const bad = `CSV-${id}-2,Imported Clamp ${id},Hose clamp,Brakes,cheap,30,1,12,/images/products/oil-filter.svg,,2016;Skoda;Octavio`;
  const fixed = bad.replace(",cheap,", ",3.10,").replace("Octavio", "Octavia");
  const file = (rows: string[]) => ({
    name: "products.csv",
    mimeType: "text/csv",
    buffer: Buffer.from([header, ...rows].join("\n") + "\n"),
  });

  await signInThroughApi(page, demoAdmin);
  await page.goto("/dashboard/manageallproducts");
  const chooser = page.getByLabel("CSV file");

  await chooser.setInputFiles(file([good, bad]));
  await page.getByRole("button", { name: "Check file" }).click();
  const errors = page.getByTestId("csv-error");
  await expect(errors).toHaveCount(2);
  await expect(errors.first()).toHaveText(/^3\s*price\s*Enter a number$/);
  await expect(errors.nth(1)).toHaveText(
    /^3\s*fitment\s*We do not list a 2016 Skoda Octavio \(check the make, the model and the years\)$/,
  );
  await expect(page.getByRole("button", { name: /^Import/ })).toHaveCount(0);

  await chooser.setInputFiles(file([good, fixed]));
  await page.getByRole("button", { name: "Check file" }).click();
  await expect(page.getByTestId("csv-preview")).toContainText("2 rows: 2 new products, 0 updates");
  await page.getByRole("button", { name: "Import 2 products" }).click();
  await expect(page.getByTestId("csv-import-status")).toHaveText(
    "Imported: 2 new products, 0 updates",
  );
  await expect(page.getByRole("progressbar", { name: "Import progress" })).toHaveAttribute(
    "value",
    "2",
  );

  await page.goto(`/allproducts?q=${encodeURIComponent(name)}`);
  await expect(page.getByRole("article").filter({ hasText: name })).toHaveCount(1);

  // The imported fitment is in the selector's results: a 2016 Skoda Octavia driver sees the part.
  await page.goto("/allproducts");
  const selector = page.getByTestId("vehicle-selector");
  await selector.getByLabel("Year").selectOption("2016");
  await selector.getByLabel("Make").selectOption({ label: "Skoda" });
  await selector.getByLabel("Model").selectOption({ label: "Octavia" });
  await selector.getByRole("button", { name: "Show parts that fit" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Parts that fit your 2016 Skoda Octavia",
  );
  await page.getByRole("searchbox", { name: "Search parts" }).fill(name);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const card = page.getByRole("article").filter({ hasText: name });
  await expect(card.getByTestId("fit")).toContainText("Fits your 2016 Skoda Octavia");
  await expect(card.getByTestId("fit")).toContainText("Front");
});

test.afterEach(async ({ page }) => {
  // The imported parts leave the shared demo catalogue again (other tests count its products).
  const found = await page.request.get("/api/products?q=CSV-&limit=100");
  for (const p of (await found.json()) as { _id: string; partNumber: string }[]) {
    if (p.partNumber.startsWith("CSV-")) await page.request.delete(`/api/products/${p._id}`);
  }
});
