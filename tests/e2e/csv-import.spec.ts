import { demoAdmin, signInInBrowser } from "./auth-helpers";
import { expect, test } from "./fixtures";

// An admin imports a catalogue file: the check lists the bad row with its line, nothing is
// written until the file is fixed, then the import runs with a progress bar and the new product
// is in the shop. New part numbers only: other tests share the demo catalog.

const header =
  "part_number,name,description,category,price,stock,minimum_order,warranty_months,image_url,cross_references";

test("an admin checks a CSV with a bad row, fixes it, imports it and finds the product", async ({
  page,
}) => {
  const id = `${Date.now()}-${process.pid}`;
  const name = `Imported Brake Hose ${id}`;
  const good = `CSV-${id}-1,"${name}","Braided, for the front axle",Brakes,24.50,30,1,24,/images/products/oil-filter.svg,OE:Toyota:90947-${id}`;
  const bad = `CSV-${id}-2,Imported Clamp ${id},Hose clamp,Brakes,cheap,30,1,12,/images/products/oil-filter.svg,`;
  const fixed = bad.replace(",cheap,", ",3.10,");
  const file = (rows: string[]) => ({
    name: "products.csv",
    mimeType: "text/csv",
    buffer: Buffer.from([header, ...rows].join("\n") + "\n"),
  });

  await signInInBrowser(page, demoAdmin);
  await page.goto("/dashboard/manageallproducts");
  const chooser = page.getByLabel("CSV file");

  await chooser.setInputFiles(file([good, bad]));
  await page.getByRole("button", { name: "Check file" }).click();
  const errors = page.getByTestId("csv-error");
  await expect(errors).toHaveCount(1);
  await expect(errors.first()).toHaveText(/^3\s*price\s*Enter a number$/);
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
});
