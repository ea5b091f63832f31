import { readFileSync } from "node:fs";
import path from "node:path";
import { asc, eq, inArray } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import type { ImportRecord } from "../../contract/imports";
import type { TestAccount } from "../../../tests/support/accounts";
import { storeForTests } from "../../../tests/support/store";
import { tempFolderForTests } from "../../../tests/support/temp-folder";
import { insertProduct } from "../../../tests/support/factories";
import { expectPreviewed, startImportAndWait, uploadImport } from "../../../tests/support/imports";
import { multipart } from "../../../tests/support/multipart";
import {
  attributeDefinitionColumns,
  attributeDefinitions,
  productAttributes,
} from "../catalog/attributes/tables";
import { adminAuditLog } from "../audit/tables";
import { productAssets, productCrossReferences, products } from "../catalog/tables";
import { upsertProductsByPartNumber } from "../catalog/writes";
import { NO_PICTURE_IMAGE } from "./pies-import";

const dataDir = tempFolderForTests("pies-test-");
const { t, call, admin, customer } = storeForTests({
  admin: "pies-admin@example.com",
  customers: { customer: {} },
  env: { IMPORT_MAX_FILE_MIB: "1", IMPORT_MAX_ITEMS: "10", DATA_DIR: dataDir },
});
let pt200: typeof products.$inferSelect;
let foreign: typeof products.$inferSelect;

const good = readFileSync(path.join(import.meta.dirname, "fixtures", "pies-good.xml"), "utf8");
const lineOf = (xml: string, text: string) =>
  xml.split("\n").findIndex((l) => l.includes(text)) + 1;

beforeAll(async () => {
  const db = t.database.db;
  // Sold already as the store's own (no brand code): the file's brand takes it over.
  pt200 = await insertProduct(db, {
    partNumber: "PT-200",
    name: "Old disc",
    category: "Brakes",
    availableQuantity: 7,
    warrantyMonths: 24,
    img: "/images/products/brake-disc-kit.svg",
  });
  // Another brand's part.
  foreign = await insertProduct(db, {
    partNumber: "PT-900",
    name: "Another brand's pads",
    brandCode: "OTHR",
    brand: "Other Brand",
  });
});

const upload = (xml: string, who: TestAccount = admin) =>
  uploadImport(t, "pies", xml, who, "catalog.xml");
const startAndWait = (id: string) => startImportAndWait(t, admin, id);

const productByNumber = async (partNumber: string) =>
  (await t.database.db.select().from(products).where(eq(products.partNumber, partNumber)))[0];

/** Everything the import may write, to compare before and after. */
async function catalogSnapshot() {
  const db = t.database.db;
  return {
    products: await db.select().from(products).orderBy(asc(products.id)),
    refs: await db
      .select()
      .from(productCrossReferences)
      .orderBy(asc(productCrossReferences.productId), asc(productCrossReferences.position)),
    values: await db
      .select()
      .from(productAttributes)
      .orderBy(asc(productAttributes.productId), asc(productAttributes.attributeId)),
    assets: await db
      .select()
      .from(productAssets)
      .orderBy(asc(productAssets.productId), asc(productAssets.position)),
    definitions: await db.select().from(attributeDefinitions).orderBy(asc(attributeDefinitions.id)),
  };
}

test("a PIES upload is checked and compared with the catalog: counts, each item's problem with its line; nothing written", async () => {
  const before = await catalogSnapshot();
  const record = expectPreviewed(await upload(good), {
    kind: "pies",
    brand: "PTST",
    fileName: "catalog.xml",
    items: 4,
  });
  expect(record.pies).toEqual({
    items: 4,
    newParts: 2, // PT-100, PT-300
    updatedParts: 1, // PT-200
    unchangedParts: 0,
    attributeValues: 3,
    newAttributes: 3, // Brakes: Pad Thickness, Friction Material, Disc Diameter
    interchangeNumbers: 3,
    assets: 3,
  });
  expect(record.counts.errorCount).toBe(1);
  expect(record.errors).toEqual([
    {
      appId: "PT-400",
      line: lineOf(good, "<PartNumber>PT-400") - 1,
      kind: "bad_value",
      message: 'Price "abc" is not a price from 0 to 999,999.99',
    },
  ]);
  expect(await catalogSnapshot()).toEqual(before);
});

test("the import writes parts, brand, attributes, cross references, package and assets; stock and warranty stay; audited; the same file again changes nothing", async () => {
  const first = (await upload(good)).json<ImportRecord>();
  const done = await startAndWait(first.id);
  expect(done).toMatchObject({
    status: "done",
    failure: null,
    result: { inserted: 3, deleted: 0 },
    progress: { done: 4, total: 4 },
  });
  const db = t.database.db;
  const pads = (await productByNumber("PT-100"))!;
  expect(pads).toMatchObject({
    name: "Ceramic Brake Pad Set",
    shortDescription: "Front pads, low dust",
    category: "Brakes",
    priceCents: 4999,
    minimumOrder: 2,
    availableQuantity: 0,
    warrantyMonths: 0,
    weightGrams: 1134,
    lengthMm: 178,
    widthMm: 114,
    heightMm: 51,
    img: "https://cdn.example.com/pt-100.jpg",
    brandCode: "PTST",
    brand: "Pies Test Brakes",
    creatorEmail: admin.email,
  });
  expect(
    await db
      .select({
        kind: productCrossReferences.kind,
        brand: productCrossReferences.brand,
        number: productCrossReferences.number,
      })
      .from(productCrossReferences)
      .where(eq(productCrossReferences.productId, pads.id))
      .orderBy(asc(productCrossReferences.position)),
  ).toEqual([
    { kind: "competitor", brand: "Acme Parts", number: "AC-5521" },
    { kind: "competitor", brand: "Acme Parts", number: "AC 5521-B" },
    { kind: "OE", brand: "Toyota OE", number: "04465-02220" },
  ]);
  expect(
    await db
      .select({ kind: productAssets.kind, title: productAssets.title, url: productAssets.url })
      .from(productAssets)
      .where(eq(productAssets.productId, pads.id))
      .orderBy(asc(productAssets.position)),
  ).toEqual([
    { kind: "image", title: "Pad set, front view", url: "https://cdn.example.com/pt-100.jpg" },
    {
      kind: "document",
      title: "pt-100-install.pdf",
      url: "https://cdn.example.com/pt-100-install.pdf",
    },
  ]);
  // New definitions: a number with its unit when numeric with a UOM, else text.
  const defs = await db
    .select(attributeDefinitionColumns)
    .from(attributeDefinitions)
    .where(eq(attributeDefinitions.category, "Brakes"))
    .orderBy(asc(attributeDefinitions.position));
  expect(defs.map(({ name, kind, unit }) => ({ name, kind, unit }))).toEqual([
    { name: "Pad Thickness", kind: "number", unit: "MM" },
    { name: "Friction Material", kind: "text", unit: null },
    { name: "Disc Diameter", kind: "number", unit: "MM" },
  ]);
  const values = await db
    .select()
    .from(productAttributes)
    .where(inArray(productAttributes.productId, [pads.id, pt200.id]));
  const nameOf = new Map(defs.map((d) => [d.id, d.name]));
  expect(
    values.map((v) => `${nameOf.get(v.attributeId)}=${v.numberValue ?? v.textValue}`).sort(),
  ).toEqual(["Disc Diameter=280", "Friction Material=Ceramic", "Pad Thickness=17.5"]);
  // The part sold already: the file's data and brand, its stock, warranty and picture kept.
  expect(await productByNumber("PT-200")).toMatchObject({
    id: pt200.id,
    name: "Vented Brake Disc",
    shortDescription: "Cooler stops, every time",
    priceCents: 8950,
    availableQuantity: 7,
    warrantyMonths: 24,
    minimumOrder: pt200.minimumOrder,
    img: "/images/products/brake-disc-kit.svg",
    brandCode: "PTST",
    weightGrams: 6200,
  });
  // Its first picture is its main one.
  expect(await productByNumber("PT-300")).toMatchObject({
    category: "Filters",
    img: "https://cdn.example.com/pt-300.png",
  });
  expect(await productByNumber("PT-400")).toBeUndefined();
  const [entry] = await db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, first.id));
  expect(entry).toMatchObject({ action: "catalog.import-pies", actorEmail: admin.email });
  expect(entry!.summary).toBe(
    "Imported PIES file catalog.xml (brand PTST): 4 items, 2 new parts, 1 updated, 0 unchanged, 3 attribute values, 3 new attributes, 3 interchange numbers, 3 assets, 1 skipped",
  );
  // The part page shows the new part at once.
  const page = await t.app.inject({ url: `/api/products/${pads.id}` });
  expect(page.statusCode).toBe(200);
  expect(page.json()).toMatchObject({ name: "Ceramic Brake Pad Set" });

  // The same file again: every good item unchanged, nothing written.
  const snapshot = await catalogSnapshot();
  const again = (await upload(good)).json<ImportRecord>();
  expect(again.pies).toMatchObject({
    newParts: 0,
    updatedParts: 0,
    unchangedParts: 3,
    newAttributes: 0,
  });
  const second = await startAndWait(again.id);
  expect(second.result).toEqual({ inserted: 0, deleted: 0 });
  expect(await catalogSnapshot()).toEqual(snapshot);
});

test("a new part without a picture, category or price; another brand's part is refused and left as it is; a part listed twice", async () => {
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    "<PIES>",
    "<Header><PIESVersion>7.2</PIESVersion></Header>",
    "<Items>",
    '<Item><PartNumber>PT-900</PartNumber><BrandAAIAID>PTST</BrandAAIAID><Descriptions><Description DescriptionCode="DES">Taken over</Description></Descriptions></Item>',
    '<Item><PartNumber>PT-600</PartNumber><BrandAAIAID>PTST</BrandAAIAID><Descriptions><Description DescriptionCode="DES">Wiper Blade 600 mm</Description></Descriptions><ManufacturerProductCodes><ProductGroupCode>Wipers</ProductGroupCode></ManufacturerProductCodes><Prices><Pricing PriceType="LST"><Price>12</Price></Pricing></Prices></Item>',
    '<Item><PartNumber>PT-601</PartNumber><BrandAAIAID>PTST</BrandAAIAID><Descriptions><Description DescriptionCode="DES">No category</Description></Descriptions><Prices><Pricing PriceType="LST"><Price>12</Price></Pricing></Prices></Item>',
    '<Item><PartNumber>PT-602</PartNumber><BrandAAIAID>PTST</BrandAAIAID><Descriptions><Description DescriptionCode="DES">No price</Description></Descriptions><ManufacturerProductCodes><ProductGroupCode>Wipers</ProductGroupCode></ManufacturerProductCodes></Item>',
    "<Item><PartNumber>pt 600</PartNumber><BrandAAIAID>PTST</BrandAAIAID></Item>",
    "</Items>",
    "</PIES>",
  ].join("\n");
  const record = (await upload(xml)).json<ImportRecord>();
  expect(record.pies).toMatchObject({ items: 5, newParts: 1, updatedParts: 0 });
  expect(record.errors.map((e) => [e.appId, e.line, e.kind, e.message])).toEqual([
    [
      "PT-900",
      5,
      "other_brand",
      'Part "PT-900" belongs to brand OTHR, not PTST: it is not changed',
    ],
    [
      "PT-601",
      7,
      "unknown_category",
      "The item has no ProductGroupCode: a new part needs one of our categories (Brakes, Filters, Engine, Ignition, Suspension, Steering, Electrical, Lighting, Cooling, Fuel, Clutch, Wipers, Other)",
    ],
    [
      "PT-602",
      8,
      "no_price",
      "The item has no list price (Pricing PriceType LST): a new part needs one",
    ],
    [
      "pt 600",
      9,
      "duplicate_part",
      'Part "pt 600" is listed twice in the file: the first is imported',
    ],
  ]);
  await startAndWait(record.id);
  expect(await productByNumber("PT-900")).toEqual(foreign);
  expect(await productByNumber("PT-600")).toMatchObject({
    name: "Wiper Blade 600 mm",
    shortDescription: "Wiper Blade 600 mm",
    img: NO_PICTURE_IMAGE,
    minimumOrder: 1,
    availableQuantity: 0,
    brand: null,
    brandCode: "PTST",
  });
});

test("a minimum order that is not a whole number of the part's packs is refused for that item: the part is left as it is", async () => {
  const packed = await insertProduct(t.database.db, {
    partNumber: "PT-700",
    name: "Spark plug",
    category: "Ignition",
    brandCode: "PTST",
    minimumOrder: 10,
    packSize: 10,
  });
  const item = (number: string, moq: number) =>
    `<Item><PartNumber>${number}</PartNumber><BrandAAIAID>PTST</BrandAAIAID><MinimumOrderQuantity>${moq}</MinimumOrderQuantity></Item>`;
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    "<PIES>",
    "<Header><PIESVersion>7.2</PIESVersion></Header>",
    "<Items>",
    item("PT-700", 15),
    "</Items>",
    "</PIES>",
  ].join("\n");
  const record = (await upload(xml)).json<ImportRecord>();
  expect(record.errors.map((e) => [e.appId, e.kind, e.message])).toEqual([
    ["PT-700", "bad_value", "The minimum order must be a multiple of the pack size (10)"],
  ]);
  await startAndWait(record.id);
  expect(await productByNumber("PT-700")).toEqual(packed);
  // Twenty is two packs: taken.
  const whole = (await upload(xml.replace(">15<", ">20<"))).json<ImportRecord>();
  expect(whole.errors).toEqual([]);
  await startAndWait(whole.id);
  expect(await productByNumber("PT-700")).toMatchObject({ minimumOrder: 20, packSize: 10 });
});

test("the product CSV's writes leave the brand as it is and still replace cross references", async () => {
  const db = t.database.db;
  const pads = (await productByNumber("PT-100"))!;
  await db.transaction(async (tx) => {
    await upsertProductsByPartNumber(
      tx,
      [
        {
          partNumber: "PT-100",
          name: "Renamed by CSV",
          shortDescription: "From the CSV",
          category: "Brakes",
          price: 50,
          availableQuantity: 3,
          minimumOrder: 1,
          warranty: 6,
          img: pads.img,
          crossReferences: [{ kind: "OE", brand: "Toyota", number: "04465-02220" }],
        },
      ],
      "csv@example.com",
    );
  });
  expect(await productByNumber("PT-100")).toMatchObject({
    name: "Renamed by CSV",
    availableQuantity: 3,
    warrantyMonths: 6,
    brandCode: "PTST",
    brand: "Pies Test Brakes",
    weightGrams: 1134,
    lengthMm: 178,
  });
  expect(
    await db
      .select({ number: productCrossReferences.number })
      .from(productCrossReferences)
      .where(eq(productCrossReferences.productId, pads.id)),
  ).toEqual([{ number: "04465-02220" }]);
});

test("refusals: no file, a file that is not PIES, too many items (400); a customer (403); signed out (401)", async () => {
  const empty = multipart({
    data: Buffer.from("x"),
    filename: "x.txt",
    type: "text/plain",
    field: "other",
  });
  const noFile = await t.app.inject({
    method: "POST",
    url: "/api/imports/pies",
    payload: empty.payload,
    headers: { ...empty.headers, cookie: admin.cookie },
  });
  expect(noFile.statusCode).toBe(400);
  expect(noFile.json().message).toBe('Choose a PIES file (field "file")');
  const aces = await upload('<ACES version="4.2"><Header/></ACES>');
  expect(aces.statusCode).toBe(400);
  expect(aces.json()).toEqual({
    error: "validation",
    message: "This is not a PIES file: its root element is ACES, not PIES",
  });
  const many = `<PIES><Header><PIESVersion>7.1</PIESVersion></Header><Items>${"<Item><PartNumber>X</PartNumber></Item>".repeat(11)}</Items></PIES>`;
  expect((await upload(many)).json().message).toBe(
    "The file has more than 10 items, the most one import takes: split it",
  );
  expect((await upload(good, customer)).statusCode).toBe(403);
  const anonymous = multipart({
    data: Buffer.from(good),
    filename: "a.xml",
    type: "application/xml",
    field: "file",
  });
  const signedOut = await t.app.inject({
    method: "POST",
    url: "/api/imports/pies",
    payload: anonymous.payload,
    headers: anonymous.headers,
  });
  expect(signedOut.statusCode).toBe(401);
  // The list shows both kinds' records.
  const list = await call(admin, "GET", "/api/imports");
  expect(list.json<ImportRecord[]>().every((r) => r.kind === "pies" && r.pies !== null)).toBe(true);
});
