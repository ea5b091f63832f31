import { importWords } from "../../src/contract/imports";
import { partSlug } from "../../src/contract/paths";
import { demoVcdb } from "../../src/server/vehicles/demo-vehicles";
import { acesXml } from "../support/aces";
import { demoAdmin, signInThroughApi } from "./auth-helpers";
import { expect, test } from "./fixtures";

// An admin imports a brand's ACES file on a phone: the check counts it and lists the application
// whose part we do not sell, the import runs as a job, and the part's page lists the vehicles.
// New part numbers only, on Volvos no other test filters by: other tests share the demo catalog.
// Then a PIES file: a new part (no attributes, so no definition is added to the shared catalog)
// and an item without a category; the new part's page shows its name.

test.use({ viewport: { width: 390, height: 844 } });

const created: string[] = [];

test("an admin uploads an ACES file, sees its counts and an unknown part, imports it, and the part's page lists the vehicles", async ({
  page,
}) => {
  const id = `${Date.now()}-${process.pid}`;
  await signInThroughApi(page, demoAdmin);
  const product = async (partNumber: string, name: string) => {
    const res = await page.request.post("/api/products", {
      data: {
        name,
        partNumber,
        category: "Brakes",
        price: 42,
        minimumOrder: 1,
        availableQuantity: 20,
        warranty: 12,
        shortDescription: "Made for the ACES import test",
        img: "/images/products/oil-filter.svg",
      },
    });
    expect(res.status()).toBe(201);
    const productId = ((await res.json()) as { product: { _id: string } }).product._id;
    created.push(productId);
    return productId;
  };
  const padsName = `ACES Brake Pads ${id}`;
  const pads = await product(`ACES-${id}-1`, padsName);
  await product(`ACES-${id}-2`, `ACES Brake Discs ${id}`);
  const { xml, lineOf } = acesXml("E2EB", [
    {
      id: "pads-1",
      baseVehicle: demoVcdb.baseVehicle("Volvo", "XC90", 2016),
      qty: 1,
      part: `ACES-${id}-1`,
    },
    {
      id: "pads-2",
      make: demoVcdb.make("Volvo"),
      model: demoVcdb.model("Volvo", "XC90"),
      years: [2017, 2018],
      qty: 1,
      part: `ACES ${id} 1`,
    },
    {
      id: "discs-1",
      baseVehicle: demoVcdb.baseVehicle("Volvo", "V60", 2015),
      qty: 2,
      part: `ACES-${id}-2`,
      notes: ["with tow bar"],
    },
    {
      id: "unknown-1",
      baseVehicle: demoVcdb.baseVehicle("Volvo", "V60", 2015),
      qty: 1,
      part: `NOPE-${id}`,
    },
  ]);

  await page.goto("/dashboard/imports");
  await page.getByLabel("ACES file", { exact: true }).setInputFiles({
    name: "volvo-brakes.xml",
    mimeType: "application/xml",
    buffer: Buffer.from(xml),
  });
  await page.getByRole("button", { name: "Check file" }).click();
  const record = page.getByTestId("import-record");
  const counts = {
    applications: 4,
    parts: 3,
    vehicles: 4,
    rowsToWrite: 4,
    rowsUnchanged: 0,
    rowsToRemove: 0,
    errorCount: 1,
  };
  await expect(record.getByTestId("import-status")).toHaveText(importWords.status.previewed);
  await expect(record.getByTestId("import-contents")).toHaveText(importWords.contents(counts));
  await expect(record.getByTestId("import-changes")).toHaveText(importWords.changes(counts));
  await expect(record.getByTestId("import-problems")).toHaveText(importWords.errors(1));
  const problem = record.getByTestId("import-error");
  await expect(problem).toHaveCount(1);
  await expect(problem).toContainText("unknown-1");
  await expect(problem).toContainText(String(lineOf("unknown-1")));
  await expect(problem).toContainText(`Part "NOPE-${id}" is not one of our products`);
  // On a phone nothing runs off the side of the page.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );

  await record.getByRole("button", { name: "Import", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: importWords.confirmTitle });
  await expect(dialog).toContainText(importWords.confirmBody("E2EB", counts));
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(record.getByTestId("import-result")).toHaveText(
    importWords.done({ inserted: 4, deleted: 0 }),
  );
  await expect(record.getByTestId("import-status")).toHaveText(importWords.status.done);
  await expect(page.getByTestId("import-row").first()).toContainText("volvo-brakes.xml");

  // The part's page lists the vehicles the file named, the years as one range.
  await page.goto(`/products/${pads}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(padsName);
  const vehicles = page.getByTestId("fits-vehicles");
  await expect(
    vehicles.getByRole("listitem").filter({ hasText: "Volvo XC90" }).first(),
  ).toContainText("2016–2018");
});

test("an admin uploads a PIES file, sees its counts and an item without a category, imports it, and the new part's page shows its name", async ({
  page,
}) => {
  const id = `${Date.now()}-${process.pid}`;
  await signInThroughApi(page, demoAdmin);
  const partNumber = `PIES-${id}-1`;
  const name = `PIES Brake Pads ${id}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<PIES xmlns="http://www.autocare.org">',
    "  <Header><PIESVersion>7.1</PIESVersion></Header>",
    "  <Items>",
    '    <Item MaintenanceType="A">',
    `      <PartNumber>${partNumber}</PartNumber>`,
    "      <BrandAAIAID>E2EP</BrandAAIAID>",
    "      <BrandLabel>E2E Pads</BrandLabel>",
    `      <Descriptions><Description DescriptionCode="DES">${name}</Description><Description DescriptionCode="SHO">Made for the PIES import test</Description></Descriptions>`,
    "      <ManufacturerProductCodes><ProductGroupCode>Brakes</ProductGroupCode></ManufacturerProductCodes>",
    '      <Prices><Pricing PriceType="LST"><CurrencyCode>USD</CurrencyCode><Price>42.50</Price></Pricing></Prices>',
    '      <Packages><Package><Weights UOM="KG"><Weight>1.2</Weight></Weights></Package></Packages>',
    `      <PartInterchangeInfo><PartInterchange BrandLabel="Acme"><PartNumber>AC-${id}</PartNumber></PartInterchange></PartInterchangeInfo>`,
    "      <DigitalAssets><DigitalFileInformation><FileName>fitting.pdf</FileName><AssetType>INS</AssetType><URI>https://example.com/fitting.pdf</URI><AssetDescription>Fitting guide</AssetDescription></DigitalFileInformation></DigitalAssets>",
    "    </Item>",
    '    <Item MaintenanceType="A">',
    `      <PartNumber>PIES-${id}-2</PartNumber>`,
    "      <BrandAAIAID>E2EP</BrandAAIAID>",
    '      <Descriptions><Description DescriptionCode="DES">No category</Description></Descriptions>',
    '      <Prices><Pricing PriceType="LST"><Price>10</Price></Pricing></Prices>',
    "    </Item>",
    "  </Items>",
    "</PIES>",
  ];
  const badLine = lines.findIndex((l) => l.includes(`PIES-${id}-2`));

  await page.goto("/dashboard/imports");
  await page.getByRole("radio", { name: importWords.kinds.pies }).check();
  await page.getByLabel("PIES file", { exact: true }).setInputFiles({
    name: "e2e-pads.xml",
    mimeType: "application/xml",
    buffer: Buffer.from(lines.join("\n")),
  });
  await page.getByRole("button", { name: "Check file" }).click();
  const record = page.getByTestId("import-record");
  const counts = {
    items: 2,
    newParts: 1,
    updatedParts: 0,
    unchangedParts: 0,
    attributeValues: 0,
    newAttributes: 0,
    interchangeNumbers: 1,
    assets: 1,
  };
  await expect(record.getByTestId("import-status")).toHaveText(importWords.status.previewed);
  await expect(record.getByTestId("import-contents")).toHaveText(importWords.piesContents(counts));
  await expect(record.getByTestId("import-changes")).toHaveText(importWords.piesChanges(counts));
  await expect(record.getByTestId("import-problems")).toHaveText(importWords.piesErrors(1));
  const problem = record.getByTestId("import-error");
  await expect(problem).toHaveCount(1);
  await expect(problem).toContainText(`PIES-${id}-2`);
  await expect(problem).toContainText(String(badLine));
  await expect(problem).toContainText("The item has no ProductGroupCode");
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
    true,
  );

  await record.getByRole("button", { name: "Import", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: importWords.confirmTitle });
  await expect(dialog).toContainText(importWords.piesConfirmBody("E2EP", counts));
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(record.getByTestId("import-result")).toHaveText(importWords.piesDone(counts));
  await expect(record.getByTestId("import-status")).toHaveText(importWords.status.done);

  const slug = partSlug(partNumber, name);
  const part = await page.request.get(`/api/parts/${slug}`);
  expect(part.status()).toBe(200);
  created.push(((await part.json()) as { _id: string })._id);
  await page.goto(`/parts/${slug}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
});

test.afterEach(async ({ page }) => {
  // The imported parts leave the shared demo catalogue again (their fitment goes with them).
  for (const id of created.splice(0)) await page.request.delete(`/api/products/${id}`);
});
