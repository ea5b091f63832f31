import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import type { ImportRecord } from "../../contract/imports";
import { importNotStartable } from "../../contract/imports";
import { acesXml, type TestApp as AcesApp } from "../../../tests/support/aces";
import { storeForTests } from "../../../tests/support/store";
import { tempFolderForTests } from "../../../tests/support/temp-folder";
import type { TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { expectPreviewed, startImportAndWait, uploadImport } from "../../../tests/support/imports";
import { adminAuditLog } from "../audit/tables";
import { fitmentApplication } from "../catalog/fitment";
import { productFitments } from "../catalog/tables";
import { seedDemoFitment } from "../demo/seed";
import { demoVcdb } from "../vehicles/demo-vehicles";
import { baseVehicles, vehicleEngines, vehicleSubmodels } from "../vehicles/tables";
import { catalogImports } from "./tables";

/** The uploads of this file's store wait here (its own data folder). */
const dataDir = tempFolderForTests("imports-test-");
const { t, call, admin, customer } = storeForTests({
  admin: "imports-admin@example.com",
  customers: { customer: {} },
  env: { IMPORT_MAX_FILE_MIB: "1", DATA_DIR: dataDir },
});
const ids = {} as Record<"tb100" | "tb200" | "tb300" | "other", string>;
let submodelId: number;

const golf = (year: number) => demoVcdb.baseVehicle("Volkswagen", "Golf", year);
const bvId = async (vcdb: number) =>
  (
    await t.database.db
      .select({ id: baseVehicles.id })
      .from(baseVehicles)
      .where(eq(baseVehicles.vcdbBaseVehicleId, vcdb))
  )[0]!.id;

beforeAll(async () => {
  await seedDemoFitment(t.database.db);
  const db = t.database.db;
  ids.tb100 = (await insertProduct(db, { partNumber: "TB-100" })).id;
  ids.tb200 = (await insertProduct(db, { partNumber: "TB-200" })).id;
  ids.tb300 = (await insertProduct(db, { partNumber: "TB-300" })).id;
  ids.other = (await insertProduct(db, { partNumber: "OTHER-1" })).id;
  const [submodel] = await db
    .insert(vehicleSubmodels)
    .values({ name: "GTI", vcdbSubmodelId: 7001 })
    .returning({ id: vehicleSubmodels.id });
  submodelId = submodel!.id;
  // Fitment before any import: the other product's, and one of TB-100 the file will not want.
  await db.insert(productFitments).values([
    { productId: ids.other, baseVehicleId: await bvId(golf(2015)), quantity: 1, note: "keep me" },
    { productId: ids.tb100, baseVehicleId: await bvId(golf(2019)), position: "Front", quantity: 2 },
  ]);
});

const folder = () => path.join(dataDir, "imports");
const filesInFolder = () => (existsSync(folder()) ? readdirSync(folder()) : []);

const upload = (xml: string, who: TestAccount = admin, filename = "brakes.xml") =>
  uploadImport(t, "aces", xml, who, filename);
const startAndWait = (id: string) => startImportAndWait(t, admin, id);
/** The brand's file of one application: TB-100, a pair, on the 2015 Golf; its preview. */
const uploadPairOfTb100 = async () =>
  (
    await upload(
      acesXml("TSTB", [
        { id: "1", baseVehicle: golf(2015), qty: 4, part: "TB-100", notes: ["pair"] },
      ]).xml,
    )
  ).json<ImportRecord>();

const fitmentOf = (productId: string) =>
  t.database.db
    .select({
      baseVehicleId: productFitments.baseVehicleId,
      submodelId: productFitments.submodelId,
      engineId: productFitments.engineId,
      ...fitmentApplication,
    })
    .from(productFitments)
    .where(eq(productFitments.productId, productId))
    .orderBy(asc(productFitments.baseVehicleId), asc(productFitments.engineId));

/** The brand's file: good applications, and one of each problem. */
const brandFile: AcesApp[] = [
  { id: "a1", baseVehicle: golf(2015), qty: 1, part: "TB-100" },
  // Make, Model and three years, one submodel and engine: three rows.
  {
    id: "a2",
    make: demoVcdb.make("Volkswagen"),
    model: demoVcdb.model("Volkswagen", "Golf"),
    years: [2014, 2016],
    subModel: 7001,
    engineConfig: demoVcdb.engine("1.4 TSI"),
    qty: 2,
    part: "tb 200",
  },
  // Attributes we cannot match become the note; Position is ignored.
  {
    id: "a3",
    baseVehicle: golf(2016),
    extra: '<EngineBase id="1234"/><Position id="22"/>',
    notes: ["with sport suspension"],
    qty: 1,
    part: "TB-300",
  },
  { id: "d1", action: "D", baseVehicle: golf(2017), qty: 1, part: "TB-100" },
  { id: "bad-part", baseVehicle: golf(2015), qty: 1, part: "NOPE-999" },
  { id: "bad-vehicle", baseVehicle: 999_999_999, qty: 1, part: "TB-100" },
  { id: "bad-qty", baseVehicle: golf(2018), qty: "many", part: "TB-100" },
  { id: "bad-engine", baseVehicle: golf(2018), engineConfig: 424242, qty: 1, part: "TB-300" },
];

test("an upload is checked and counted, its problems listed with App id and line; nothing is imported", async () => {
  const { xml, lineOf } = acesXml("TSTB", brandFile);
  const before = await t.database.db.select().from(productFitments);
  const record = expectPreviewed(
    await upload(xml),
    { kind: "aces", brand: "TSTB", fileName: "brakes.xml", items: 8 },
    { createdBy: admin.email, failure: null },
  );
  expect(record.counts).toEqual({
    applications: 8,
    parts: 4, // TB100, TB200, TB300, NOPE999
    vehicles: 3, // the 2014, 2015 and 2016 Golf
    rowsToWrite: 5, // a1, a2 × 3, a3
    rowsUnchanged: 0,
    rowsToRemove: 1, // TB-100's 2019 Golf row
    errorCount: 4,
  });
  expect(record.errors).toEqual([
    {
      appId: "bad-part",
      line: lineOf("bad-part"),
      kind: "unknown_part",
      message: 'Part "NOPE-999" is not one of our products',
    },
    {
      appId: "bad-vehicle",
      line: lineOf("bad-vehicle"),
      kind: "unknown_vehicle",
      message: "BaseVehicle id 999999999 is not in our vehicle list",
    },
    {
      appId: "bad-qty",
      line: lineOf("bad-qty"),
      kind: "bad_quantity",
      message: 'Qty "many" is not a whole number from 1 to 100',
    },
    {
      appId: "bad-engine",
      line: lineOf("bad-engine"),
      kind: "unknown_vehicle",
      message: "EngineConfig id 424242 is not in our vehicle list",
    },
  ]);
  expect(await t.database.db.select().from(productFitments)).toEqual(before);
  // The file waits in the data folder for the import.
  const [row] = await t.database.db
    .select()
    .from(catalogImports)
    .where(eq(catalogImports.id, record.id));
  expect(filesInFolder()).toContain(row!.storedFile);
});

test("the import replaces the brand's fitment as previewed; another product's stays; a second import of the same file changes nothing", async () => {
  const { xml } = acesXml("TSTB", brandFile);
  const otherBefore = await fitmentOf(ids.other);
  const first = (await upload(xml)).json<ImportRecord>();
  const done = await startAndWait(first.id);
  expect(done).toMatchObject({
    status: "done",
    result: { inserted: 5, deleted: 1 },
    progress: { done: 8, total: 8 },
    failure: null,
  });
  expect(done.finishedAt).not.toBeNull();
  const [engine] = await t.database.db
    .select({ id: vehicleEngines.id })
    .from(vehicleEngines)
    .where(eq(vehicleEngines.vcdbEngineConfigId, demoVcdb.engine("1.4 TSI")));
  /** A fitment row of the demo Golf of `year`: the whole vehicle, one part, no note, unless told. */
  const golfRow = async (year: number, fields: object = {}) => ({
    baseVehicleId: await bvId(golf(year)),
    submodelId: null,
    engineId: null,
    position: null,
    quantity: 1,
    note: null,
    ...fields,
  });
  expect(await fitmentOf(ids.tb100)).toEqual([await golfRow(2015)]);
  expect(await fitmentOf(ids.tb200)).toEqual(
    await Promise.all(
      [2014, 2015, 2016].map((year) =>
        golfRow(year, { submodelId, engineId: engine!.id, quantity: 2 }),
      ),
    ),
  );
  expect(await fitmentOf(ids.tb300)).toEqual([
    await golfRow(2016, { note: "EngineBase 1234; with sport suspension" }),
  ]);
  expect(await fitmentOf(ids.other)).toEqual(otherBefore);
  // Shoppers see it at once (the read cache was cleared).
  const shown = await call(null, "GET", `/api/products/${ids.tb200}/fitment`);
  expect(JSON.stringify(shown.json())).toContain("Golf");
  // Audited, with the counts; the file is gone from the data folder.
  const [entry] = await t.database.db
    .select()
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, first.id));
  expect(entry).toMatchObject({ action: "catalog.import-aces", actorEmail: admin.email });
  expect(entry!.summary).toContain("5 fitment rows added, 1 removed");
  const [row] = await t.database.db
    .select()
    .from(catalogImports)
    .where(eq(catalogImports.id, first.id));
  expect(row!.storedFile).toBeNull();

  // The same file again: previewed as all unchanged, imported without a change.
  const again = (await upload(xml)).json<ImportRecord>();
  expect(again.counts).toMatchObject({ rowsToWrite: 0, rowsUnchanged: 5, rowsToRemove: 0 });
  const snapshot = await t.database.db
    .select()
    .from(productFitments)
    .orderBy(asc(productFitments.id));
  const second = await startAndWait(again.id);
  expect(second.result).toEqual({ inserted: 0, deleted: 0 });
  expect(
    await t.database.db.select().from(productFitments).orderBy(asc(productFitments.id)),
  ).toEqual(snapshot);
});

test("a changed quantity or note is written; an application the file no longer has is removed", async () => {
  const file: AcesApp[] = [
    { id: "1", baseVehicle: golf(2015), qty: 4, part: "TB-100", notes: ["pair"] },
    { id: "2", baseVehicle: golf(2016), qty: 1, part: "TB-300" },
  ];
  const record = (await upload(acesXml("TSTB", file).xml)).json<ImportRecord>();
  expect(record.counts).toMatchObject({ rowsToWrite: 2, rowsUnchanged: 0, rowsToRemove: 2 });
  const done = await startAndWait(record.id);
  expect(done.result).toEqual({ inserted: 2, deleted: 2 });
  expect(await fitmentOf(ids.tb100)).toMatchObject([{ quantity: 4, note: "pair" }]);
  expect(await fitmentOf(ids.tb300)).toMatchObject([{ note: null }]);
  // TB-200 is not named in this file: its fitment stays.
  expect(await fitmentOf(ids.tb200)).toHaveLength(3);
});

test("hostile or broken files are refused with the reason; no record and no file is kept", async () => {
  const recordsBefore = (await t.database.db.select().from(catalogImports)).length;
  const filesBefore = filesInFolder().length;
  const refusals: [string, string | RegExp][] = [
    [
      '<?xml version="1.0"?>\n<!DOCTYPE ACES [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<ACES version="4.2"><Header><BrandAAIAID>X</BrandAAIAID></Header><App id="1"><Note>&x;</Note></App></ACES>',
      "The file has a DOCTYPE: ACES files have none, and files with one are refused (no entities are read)",
    ],
    [
      '<ACES version="4.2">\n<Header><BrandAAIAID>X</BrandAAIAID></Header>\n<App id="1"><Part>P</Prt></App></ACES>',
      "The file is not well-formed XML (line 3): unexpected close tag",
    ],
    [
      '<ACES version="4.2">\n<Header><BrandAAIAID>X</BrandAAIAID></Header>\n<App id="1">',
      /cut short/,
    ],
    ["<PIES/>", "This is not an ACES file: its root element is PIES, not ACES"],
  ];
  for (const [xml, message] of refusals) {
    const res = await upload(xml);
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: string; message: string }>();
    expect(body.error).toBe("validation");
    if (typeof message === "string") expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
  }
  expect((await t.database.db.select().from(catalogImports)).length).toBe(recordsBefore);
  expect(filesInFolder().length).toBe(filesBefore);
});

test("a file over IMPORT_MAX_FILE_MIB is cut off with 413; no file is kept", async () => {
  const filesBefore = filesInFolder().length;
  const big = acesXml(
    "TSTB",
    Array.from({ length: 12_000 }, (_, i) => ({
      id: String(i),
      baseVehicle: golf(2015),
      qty: 1,
      part: "TB-100",
    })),
  ).xml;
  expect(big.length).toBeGreaterThan(1024 * 1024);
  const res = await upload(big);
  expect(res.statusCode).toBe(413);
  expect(res.json()).toEqual({
    error: "too_large",
    message: "The file is larger than 1 MiB, the most one import takes",
  });
  expect(filesInFolder().length).toBe(filesBefore);
});

test("an import starts once: again is 409, an unknown one 404, a customer 403", async () => {
  const record = await uploadPairOfTb100();
  await startAndWait(record.id);
  const again = await call(admin, "POST", `/api/imports/${record.id}/start`);
  expect(again.statusCode).toBe(409);
  expect(again.json().message).toBe(importNotStartable("done"));
  const unknown = await call(
    admin,
    "POST",
    "/api/imports/00000000-0000-4000-8000-000000000000/start",
  );
  expect(unknown.statusCode).toBe(404);
  expect((await upload("<ACES/>", customer)).statusCode).toBe(403);
});

test("the list shows recent imports first, with the total", async () => {
  const res = await call(admin, "GET", "/api/imports?limit=2");
  expect(res.statusCode).toBe(200);
  const items = res.json<ImportRecord[]>();
  expect(items).toHaveLength(2);
  const newest = await t.database.db
    .select({ id: catalogImports.id })
    .from(catalogImports)
    .orderBy(desc(catalogImports.createdAt))
    .limit(2);
  expect(items.map((i) => i.id)).toEqual(newest.map((n) => n.id));
  expect(Number(res.headers["x-total-count"])).toBeGreaterThanOrEqual(4);
  // Only finished imports have no file left; none of these is waiting.
  const waiting = await t.database.db
    .select()
    .from(catalogImports)
    .where(and(inArray(catalogImports.status, ["queued", "running"])));
  expect(waiting).toEqual([]);
});

test("the brand's parts the file no longer names lose their applications; another brand's parts and the store's own keep theirs", async () => {
  const db = t.database.db;
  const dropped = (await insertProduct(db, { partNumber: "TB-OLD", brandCode: "TSTB" })).id;
  const otherBrand = (await insertProduct(db, { partNumber: "OB-1", brandCode: "OTHB" })).id;
  await db.insert(productFitments).values([
    { productId: dropped, baseVehicleId: await bvId(golf(2016)), quantity: 1 },
    { productId: otherBrand, baseVehicleId: await bvId(golf(2016)), quantity: 1 },
  ]);
  const ownBefore = await fitmentOf(ids.other);
  const tb100Before = await fitmentOf(ids.tb100);
  const record = await uploadPairOfTb100();
  expect(record.counts).toMatchObject({ rowsToWrite: 0, rowsToRemove: 1 });
  const done = await startAndWait(record.id);
  expect(done.result).toEqual({ inserted: 0, deleted: 1 });
  expect(await fitmentOf(dropped)).toEqual([]);
  expect(await fitmentOf(otherBrand)).toHaveLength(1);
  expect(await fitmentOf(ids.other)).toEqual(ownBefore);
  expect(await fitmentOf(ids.tb100)).toEqual(tb100Before);
});
