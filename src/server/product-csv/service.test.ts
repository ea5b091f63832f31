import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { createCatalogService } from "../catalog/service";
import { adminAuditLog } from "../audit/tables";
import { baseVehicles, vehicleMakes, vehicleModels } from "../vehicles/tables";
import { fitmentApplication } from "../catalog/fitment";
import { productFitments } from "../catalog/tables";
import { productCrossReferences, products } from "../catalog/tables";
import { advisoryLocks } from "../db/advisory-locks";
import { seedDemoData } from "../demo/seed";
import { seedDemoFitment } from "../demo/seed";
import { ensureDemoAttributeDefinitions } from "../catalog/demo";
import { attributeMessages } from "../../contract/attributes";
import { attributesOf } from "../catalog/attributes/reads";
import { insertDefinition } from "../catalog/attributes/writes";
import { brakeDiameter, brakeVentType } from "../../../tests/support/attributes";
import { abandonedImportMessage, createProductCsvService } from "./service";
import { dimensionColumnsTogether } from "../../contract/product-csv";
import { productFieldMessages } from "../../contract/products";

const header =
  "part_number,name,description,category,price,stock,minimum_order,warranty_months,image_url,cross_references";
const img = "/images/products/oil-filter.svg";
const row = (pn: string, over: Partial<Record<"name" | "price" | "refs", string>> = {}) =>
  `${pn},${over.name ?? `Pad set ${pn}`},"Fits many cars, front axle",Brakes,${over.price ?? "19.90"},40,2,24,${img},${over.refs ?? `OE:Toyota:04465-${pn}|COMP:Bosch:0 986 ${pn}`}`;
const csv = (...rows: string[]) => Buffer.from([header, ...rows].join("\n") + "\n");
const silent = { error: () => {} };
/** The admin an import is recorded under (the audit log copies id and email). */
const admin = { id: "csv-test-admin", email: "admin@example.com" };

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const productCount = async (db = database.db) =>
  (await db.select({ n: count() }).from(products))[0]!.n;

test("the preview lists every row's errors with its line, and writes nothing", async () => {
  const service = createProductCsvService(database.db, silent);
  const file = csv(
    row("PV-1"),
    row("PV-2", { price: "cheap" }),
    // A quoted description over two lines: the next row starts on line 6, not 5.
    `PV-3,,"two\nlines",Brakes,5,1,1,12,${img},`,
    row("PV-4", { refs: "XX:Toyota:123" }),
    row("pv 1"),
    row("PV-6", { price: "-1" }),
  );
  const preview = await service.preview(file);
  expect(preview.errors).toEqual([
    { line: 3, column: "price", message: "Enter a number" },
    { line: 4, column: "name", message: "Name is Required" },
    {
      line: 6,
      column: "cross_references",
      message:
        '"XX:Toyota:123" is not KIND:Brand:Number (KIND is OE, COMP or SUP; entries split by |)',
    },
    { line: 7, column: "part_number", message: "Part number PV 1 is also on line 2" },
    { line: 8, column: "price", message: "Must be 0 or more" },
  ]);
  expect(preview).toMatchObject({ rows: 6, creates: 1, updates: 0 });
  expect(await productCount()).toBe(0);
  await expect(service.start(file, admin)).rejects.toMatchObject({
    statusCode: 400,
    message: "The file has 5 errors; preview it, fix them and upload it again",
  });
  expect(await productCount()).toBe(0);
});

test("files that are empty, not UTF-8 or lack a column are refused with a clear line 1 error", async () => {
  const service = createProductCsvService(database.db, silent);
  expect((await service.preview(Buffer.from(""))).errors).toEqual([
    { line: 1, message: "The file is empty" },
  ]);
  expect((await service.preview(Buffer.from([0x50, 0x4e, 0xe9, 0x0a]))).errors[0]!.message).toMatch(
    /not UTF-8/,
  );
  const noStock = Buffer.from(header.replace(",stock", "") + "\n");
  expect((await service.preview(noStock)).errors).toEqual([
    { line: 1, column: "stock", message: "Missing column stock" },
  ]);
  // A BOM and \r\n line ends (Excel's "CSV UTF-8") are read as plain text.
  const excel = Buffer.from(`\uFEFF${header}\r\n${row("BOM-1")}\r\n`);
  expect(await service.preview(excel)).toMatchObject({ rows: 1, creates: 1, errors: [] });
});

test("an import runs in one transaction: a failure in its second batch leaves nothing written", async () => {
  const service = createProductCsvService(database.db, silent);
  // The database refuses one row of the second batch (a test-only trigger, not our code).
  await database.pool.query(`create function refuse_boom() returns trigger language plpgsql as $$
    begin if new.part_number = 'BOOM-550' then raise exception 'refused BOOM-550'; end if;
    return new; end $$`);
  await database.pool.query(`create trigger refuse_boom before insert on products
    for each row execute function refuse_boom()`);
  try {
    const rows = Array.from({ length: 600 }, (_, i) => row(`BOOM-${i + 1}`));
    const { job, finished } = await service.start(csv(...rows), admin);
    expect(job).toMatchObject({ status: "running", total: 600, done: 0 });
    await finished;
    const after = await service.job(job.id);
    expect(after.status).toBe("failed");
    expect(after.error).toMatch(/^Nothing was imported/);
    expect(await productCount()).toBe(0);
  } finally {
    await database.pool.query("drop trigger refuse_boom on products");
  }
});

/** A job that says running, 7,000 of 20,000 rows done, as an import writes it. */
async function runningJob(): Promise<string> {
  const { rows } = await database.pool.query<{ id: string }>(
    `insert into product_import_jobs (created_by, status, total, done, created_at)
     values ('admin@example.com', 'running', 20000, 7000, now() - interval '1 minute')
     returning id`,
  );
  return rows[0]!.id;
}

test("an import whose process or database went away is marked failed when next looked at; a live one is not", async () => {
  const service = createProductCsvService(database.db, silent);
  // As a store killed mid-import leaves it: the job says running, its transaction is gone.
  const abandoned = await runningJob();
  expect(await service.job(abandoned)).toMatchObject({
    status: "failed",
    done: 0,
    error: abandonedImportMessage,
  });

  // One whose transaction is alive (in another process) holds the job's lock: still running.
  const live = await runningJob();
  const other = await database.pool.connect();
  try {
    await other.query("begin");
    await other.query("select pg_advisory_xact_lock($1, hashtext($2))", [
      advisoryLocks.perProductImport,
      live,
    ]);
    expect(await service.job(live)).toMatchObject({ status: "running", done: 7000 });
    await other.query("rollback"); // that process dies
    expect(await service.job(live)).toMatchObject({ status: "failed" });
  } finally {
    other.release();
  }

  // A job just written, its transaction about to start, is given a moment.
  const { job, finished } = await service.start(csv(row("LIVE-1")), admin);
  await finished;
  expect(await service.job(job.id)).toMatchObject({ status: "done", creates: 1 });
});

test("re-importing updates products by part number (however it is written) instead of duplicating", async () => {
  const service = createProductCsvService(database.db, silent);
  const first = await service.start(csv(row("UP-1"), row("UP-2")), admin);
  await first.finished;
  expect(await service.job(first.job.id)).toMatchObject({
    status: "done",
    done: 2,
    total: 2,
    creates: 2,
    updates: 0,
  });
  // The import is in the audit log, under the admin, in the same transaction.
  const audit = await database.db
    .select()
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, first.job.id));
  expect(audit).toMatchObject([
    {
      actorEmail: "admin@example.com",
      action: "product.import",
      summary: "Imported a product CSV: 2 new products, 0 updates",
    },
  ]);
  const again = csv(
    row("up 1", { price: "25.50", name: "Pad set renamed", refs: "SUP:PartsWorks:PW-OLD-1" }),
    row("UP-3"),
  );
  expect(await service.preview(again)).toMatchObject({ creates: 1, updates: 1, errors: [] });
  const second = await service.start(again, admin);
  await second.finished;
  expect(await service.job(second.job.id)).toMatchObject({
    status: "done",
    creates: 1,
    updates: 1,
  });
  const up = await database.db
    .select()
    .from(products)
    .where(eq(products.partNumberNormalized, "UP1"));
  expect(up).toHaveLength(1);
  expect(up[0]).toMatchObject({ name: "Pad set renamed", priceCents: 2550, partNumber: "UP 1" });
  const refs = await database.db
    .select({ kind: productCrossReferences.kind, number: productCrossReferences.number })
    .from(productCrossReferences)
    .where(eq(productCrossReferences.productId, up[0]!.id));
  expect(refs).toEqual([{ kind: "superseded", number: "PW-OLD-1" }]);
  // The search finds it by its new number (the stored search document followed the import).
  const found = await createCatalogService(database.db).page({
    q: "pw old 1",
    sort: "newest",
    limit: 24,
    offset: 0,
  });
  expect(found.map((p) => p.partNumber)).toEqual(["UP 1"]);
});

test("an exported file's stock is a change from the stock at export: orders placed since are kept", async () => {
  // Penetration test of 75cca6d, finding 15: a re-import overwrote the stock, and a reservation
  // made meanwhile was lost (oversold).
  const service = createProductCsvService(database.db, silent);
  await (
    await service.start(csv(row("ST-1"), row("ST-2")), admin)
  ).finished;
  const exported = await service.exportCsv();
  const lines = exported.split("\r\n");
  expect(lines[0]).toMatch(/,stock_at_export$/);
  const mine = lines.filter((l) => /^ST-[12],/.test(l));
  expect(mine).toHaveLength(2);
  // Meanwhile, orders take 5 of ST-1 and 3 of ST-2 (40 each at export).
  await database.db
    .update(products)
    .set({ availableQuantity: 35 })
    .where(eq(products.partNumberNormalized, "ST1"));
  await database.db
    .update(products)
    .set({ availableQuantity: 37 })
    .where(eq(products.partNumberNormalized, "ST2"));
  // The admin re-imports the file, ST-1 unchanged, ST-2's stock raised from 40 to 60.
  const edited = [
    lines[0],
    ...mine.map((l) => (l.startsWith("ST-2,") ? l.replace(/,40,2,/, ",60,2,") : l)),
  ];
  const job = await service.start(Buffer.from(edited.join("\r\n") + "\r\n"), admin);
  await job.finished;
  expect(await service.job(job.job.id)).toMatchObject({ status: "done", updates: 2 });
  const stock = async (key: string) =>
    (
      await database.db
        .select({ n: products.availableQuantity })
        .from(products)
        .where(eq(products.partNumberNormalized, key))
    )[0]!.n;
  expect(await stock("ST1")).toBe(35); // unchanged in the file: the orders' stock stays
  expect(await stock("ST2")).toBe(57); // +20 on what the orders left
  // A file without the column (made by hand) sets the stock.
  await (
    await service.start(csv(row("ST-1")), admin)
  ).finished;
  expect(await stock("ST1")).toBe(40);
  // A bad cell in the column is a row error, and nothing is written.
  const bad = await service.preview(
    Buffer.from(`${header},stock_at_export\n${row("ST-1")},lots\n`),
  );
  expect(bad.errors).toEqual([
    { line: 2, column: "stock_at_export", message: "Enter a whole number of 0 or more" },
  ]);
});

test("export then import into an empty store gives the same catalogue, formulas escaped", async () => {
  const source = await createTestDatabase();
  const target = await createTestDatabase();
  try {
    const catalog = createCatalogService(source.db);
    await catalog.create("admin@example.com", {
      partNumber: "RT-1",
      name: 'Disc "vented", 280 mm',
      shortDescription: '=HYPERLINK("http://x")\nSecond line, with a comma',
      category: "Brakes",
      price: 49.99,
      availableQuantity: 7,
      minimumOrder: 1,
      warranty: 24,
      img,
      crossReferences: [
        { kind: "OE", brand: "Toyota", number: "43512-12690" },
        { kind: "competitor", brand: "ATE", number: "24.0125-0168.1" },
        { kind: "superseded", brand: "PartsWorks", number: "PW-000012" },
      ],
    });
    await catalog.create("admin@example.com", {
      partNumber: "RT-2",
      name: "Wiper blade 600 mm",
      shortDescription: "-40 °C to +80 °C",
      category: "Wipers",
      price: 8,
      availableQuantity: 0,
      minimumOrder: 1,
      warranty: 0,
      img,
    });
    const exported = await createProductCsvService(source.db, silent).exportCsv();
    expect(exported).toContain(`"'=HYPERLINK(""http://x"")\nSecond line, with a comma"`);
    expect(exported).toContain("'-40 °C to +80 °C");
    expect(exported).toContain(
      "OE:Toyota:43512-12690|COMP:ATE:24.0125-0168.1|SUP:PartsWorks:PW-000012",
    );

    const into = createProductCsvService(target.db, silent);
    expect((await into.preview(Buffer.from(exported))).errors).toEqual([]);
    const { finished } = await into.start(Buffer.from(exported), admin);
    await finished;
    expect(await into.exportCsv()).toBe(exported);
    expect(await productCount(target.db)).toBe(2);
  } finally {
    await source.close();
    await target.close();
  }
});

test("the demo catalogue with its fitment round-trips: export, import into a store with the same vehicles, export again", async () => {
  const source = await createTestDatabase();
  const target = await createTestDatabase();
  try {
    await seedDemoData(source.db);
    expect(await seedDemoFitment(source.db)).toBeGreaterThan(0);
    // The target knows the same vehicles and attributes but has no products.
    await seedDemoFitment(target.db);
    await target.db.transaction((tx) => ensureDemoAttributeDefinitions(tx));
    const exported = await createProductCsvService(source.db, silent).exportCsv();
    expect(exported.split("\r\n")[0]).toMatch(
      /,cross_references,attributes,fitment,stock_at_export$/,
    );
    expect(exported).toContain("Diameter=300; Thickness=25; Vent type=Vented; Axle=Front");
    expect(exported).toMatch(/\d{4}-\d{4};[A-Z][\w -]+;[\w -]+/);

    const into = createProductCsvService(target.db, silent);
    const { finished } = await into.start(Buffer.from(exported), admin);
    await finished;
    expect(await into.exportCsv()).toBe(exported);
    const fitmentRows = async (db = source.db) =>
      (await db.select({ n: count() }).from(productFitments))[0]!.n;
    expect(await fitmentRows(target.db)).toBe(await fitmentRows(source.db));
  } finally {
    await source.close();
    await target.close();
  }
});

test("fitment cells are checked against our vehicles before anything is written; a file without the column leaves fitment alone", async () => {
  await seedDemoFitment(database.db);
  const service = createProductCsvService(database.db, silent);
  const [vehicle] = await database.db
    .select({ year: baseVehicles.year, make: vehicleMakes.name, model: vehicleModels.name })
    .from(baseVehicles)
    .innerJoin(vehicleModels, eq(vehicleModels.id, baseVehicles.modelId))
    .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
    .limit(1);
  const { year, make, model } = vehicle!;
  const withFitment = (...rows: [string, string][]) =>
    Buffer.from(
      [`${header},fitment`, ...rows.map(([pn, cell]) => `${row(pn)},"${cell}"`)].join("\n") + "\n",
    );
  const bad = withFitment(
    ["FT-1", `${year};${make};${model};;Front;2;with A/C`],
    ["FT-2", `${year};${make};No Such Model`],
    ["FT-3", `${year}-${year - 1};${make};${model}`],
    ["FT-4", "soon;Ford"],
  );
  const preview = await service.preview(bad);
  expect(preview.errors).toEqual([
    {
      line: 3,
      column: "fitment",
      message: `We do not list a ${year} ${make} No Such Model (check the make, the model and the years)`,
    },
    {
      line: 4,
      column: "fitment",
      message: `"${year}-${year - 1};${make};${model}": the years run backwards`,
    },
    {
      line: 5,
      column: "fitment",
      message:
        '"soon;Ford" is not YEARS;Make;Model[;Engine[;Position[;Quantity[;Note]]]] (YEARS is 2016 or 2014-2018; entries split by |)',
    },
  ]);

  const good = withFitment(["FT-1", `${year};${make.toUpperCase()};${model};;Front;2;with A/C`]);
  await (
    await service.start(good, admin)
  ).finished;
  const fitOf = () =>
    database.db
      .select(fitmentApplication)
      .from(productFitments)
      .innerJoin(products, eq(products.id, productFitments.productId))
      .where(eq(products.partNumber, "FT-1"));
  expect(await fitOf()).toEqual([{ position: "Front", quantity: 2, note: "with A/C" }]);
  // The same product again from a file without the column: its fitment stays.
  await (
    await service.start(csv(row("FT-1", { price: "21.00" })), admin)
  ).finished;
  expect(await fitOf()).toHaveLength(1);
});

test("the weight_grams column sets each product's weight; a file without it leaves weights alone", async () => {
  const service = createProductCsvService(database.db, silent);
  const weightOf = async (pn: string) =>
    (
      await database.db
        .select({ w: products.weightGrams })
        .from(products)
        .where(eq(products.partNumber, pn))
    )[0]?.w;
  const withWeight = (pn: string, grams: string) => `${row(pn)},${grams}`;
  const file = Buffer.from(
    [`${header},weight_grams`, withWeight("WG-1", "1250"), withWeight("WG-2", "")].join("\n") +
      "\n",
  );
  expect((await service.preview(file)).errors).toEqual([]);
  await (
    await service.start(file, admin)
  ).finished;
  expect(await weightOf("WG-1")).toBe(1250);
  // An empty cell is 0 g: not given.
  expect(await weightOf("WG-2")).toBe(0);

  // A file made before the column existed updates the products and keeps their weight.
  await (
    await service.start(csv(row("WG-1", { price: "21.00" })), admin)
  ).finished;
  expect(await weightOf("WG-1")).toBe(1250);

  // The export writes it, and an import of the export keeps it.
  const exported = await service.exportCsv();
  expect(exported.split("\r\n")[0]).toContain(
    ",warranty_months,weight_grams,length_mm,width_mm,height_mm,image_url,",
  );
  expect(exported).toMatch(/\r\nWG-1,.*,24,1250,/);

  const bad = Buffer.from(
    [`${header},weight_grams`, withWeight("WG-3", "-5"), withWeight("WG-4", "1.5")].join("\n") +
      "\n",
  );
  expect((await service.preview(bad)).errors).toEqual([
    { line: 2, column: "weight_grams", message: "Must be 0 or more" },
    { line: 3, column: "weight_grams", message: "Enter a whole number" },
  ]);
});

test("the length_mm, width_mm and height_mm columns set each product's dimensions, all three or none", async () => {
  const service = createProductCsvService(database.db, silent);
  const sizeOf = async (pn: string) => {
    const [p] = await database.db
      .select({ l: products.lengthMm, w: products.widthMm, h: products.heightMm })
      .from(products)
      .where(eq(products.partNumber, pn));
    return p && [p.l, p.w, p.h];
  };
  const withSize = (pn: string, sides: string) => `${row(pn)},${sides}`;
  const file = (...rows: string[]) =>
    Buffer.from([`${header},length_mm,width_mm,height_mm`, ...rows].join("\n") + "\n");

  const good = file(withSize("DM-1", "300,200,100"), withSize("DM-2", ",,"));
  expect((await service.preview(good)).errors).toEqual([]);
  await (
    await service.start(good, admin)
  ).finished;
  expect(await sizeOf("DM-1")).toEqual([300, 200, 100]);
  // Three empty cells: none.
  expect(await sizeOf("DM-2")).toEqual([null, null, null]);

  // A file without the columns updates the products and keeps their dimensions.
  await (
    await service.start(csv(row("DM-1", { price: "21.00" })), admin)
  ).finished;
  expect(await sizeOf("DM-1")).toEqual([300, 200, 100]);

  // The export writes them (empty cells for none), and an import of its lines keeps them.
  const exported = await service.exportCsv();
  const [exportHeader, ...lines] = exported.split("\r\n");
  const ours = lines.filter((l) => l.startsWith("DM-"));
  expect(ours.find((l) => l.startsWith("DM-1,"))).toMatch(/,24,0,300,200,100,/);
  expect(ours.find((l) => l.startsWith("DM-2,"))).toMatch(/,24,0,,,,/);
  await (
    await service.start(Buffer.from([exportHeader, ...ours].join("\r\n") + "\r\n"), admin)
  ).finished;
  expect(await sizeOf("DM-1")).toEqual([300, 200, 100]);
  expect(await sizeOf("DM-2")).toEqual([null, null, null]);

  // Three empty cells on a product that has them remove them.
  await (
    await service.start(file(withSize("DM-1", ",,")), admin)
  ).finished;
  expect(await sizeOf("DM-1")).toEqual([null, null, null]);

  // A row with only some of them, or a side out of range, is a row error; nothing is written.
  const together = productFieldMessages.dimensionsTogether;
  const bad = file(
    withSize("DM-3", "300,,100"),
    withSize("DM-4", "300,200,"),
    withSize("DM-5", "0,200,100"),
    withSize("DM-6", "300,200,10001"),
    withSize("DM-7", "300,2.5,100"),
  );
  expect((await service.preview(bad)).errors).toEqual([
    { line: 2, column: "width_mm", message: together },
    { line: 3, column: "height_mm", message: together },
    { line: 4, column: "length_mm", message: productFieldMessages.dimensionAtLeastOne },
    { line: 5, column: "height_mm", message: productFieldMessages.dimensionAtMost },
    { line: 6, column: "width_mm", message: "Enter a whole number" },
  ]);
  await expect(service.start(bad, admin)).rejects.toMatchObject({ statusCode: 400 });
  for (const pn of ["DM-3", "DM-4", "DM-5", "DM-6", "DM-7"])
    expect(await sizeOf(pn)).toBeUndefined();

  // A header with some of the three columns is refused whole.
  const partial = Buffer.from(`${header},length_mm\n${row("DM-8")},300\n`);
  expect((await service.preview(partial)).errors).toEqual([
    { line: 1, column: "width_mm", message: dimensionColumnsTogether("width_mm") },
    { line: 1, column: "height_mm", message: dimensionColumnsTogether("height_mm") },
  ]);
  expect(dimensionColumnsTogether("width_mm")).toBe(
    "Missing column width_mm: length_mm, width_mm and height_mm come together",
  );
  expect(await sizeOf("DM-8")).toBeUndefined();
});

test("the attributes column sets each row's values by name; an unknown name or a bad value is that row's error; without the column values stay, an empty cell clears them", async () => {
  const service = createProductCsvService(database.db, silent);
  const [diameter, vent] = await database.db.transaction(async (tx) => [
    await insertDefinition(tx, brakeDiameter),
    await insertDefinition(tx, brakeVentType),
  ]);
  expect(diameter && vent).toBeTruthy();
  const withAttributes = (...rows: [string, string][]) =>
    Buffer.from(
      [
        `${header},attributes`,
        ...rows.map(([pn, cell]) => `${row(pn)},"${cell.replace(/"/g, '""')}"`),
      ].join("\n") + "\n",
    );
  const bad = await service.preview(
    withAttributes(
      ["AT-1", "Diameter=280; Vent type=vented"],
      ["AT-2", "Colour=Red"],
      ["AT-3", "Diameter=large"],
      ["AT-4", "Vent type=Drilled"],
      ["AT-5", "Diameter 280"],
    ),
  );
  expect(bad.errors).toEqual([
    { line: 3, column: "attributes", message: attributeMessages.unknown("Colour", "Brakes") },
    { line: 4, column: "attributes", message: attributeMessages.notANumber("Diameter") },
    {
      line: 5,
      column: "attributes",
      message: attributeMessages.notAChoice("Vent type", ["Solid", "Vented"]),
    },
    {
      line: 6,
      column: "attributes",
      message: `"Diameter 280" ${attributeMessages.csvFormat}`,
    },
  ]);

  const values = async (partNumber: string) => {
    const [p] = await database.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.partNumber, partNumber));
    return (await attributesOf(database.db, [p!.id])).get(p!.id) ?? [];
  };
  const run = async (file: Buffer) => {
    const { finished } = await service.start(file, admin);
    await finished;
  };
  await run(withAttributes(["AT-1", "diameter=280.0; Vent type=vented"], ["AT-6", ""]));
  expect(await values("AT-1")).toEqual([
    { name: "Diameter", value: "280", unit: "mm" },
    { name: "Vent type", value: "Vented", unit: null },
  ]);
  expect(await values("AT-6")).toEqual([]);
  // The export writes them; importing the export changes nothing.
  const exported = await service.exportCsv();
  expect(exported).toContain(",Diameter=280; Vent type=Vented,");
  await run(Buffer.from(exported));
  expect(await service.exportCsv()).toBe(exported);
  // A file without the column leaves the values as they are.
  await run(csv(row("AT-1", { price: "21.00" })));
  expect(await values("AT-1")).toHaveLength(2);
  // An empty cell clears them.
  await run(withAttributes(["AT-1", ""]));
  expect(await values("AT-1")).toEqual([]);
});
