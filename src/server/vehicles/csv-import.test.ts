import { count, desc } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { multipart, postNotMultipart } from "../../../tests/support/multipart";
import { storeForTests } from "../../../tests/support/store";
import {
  MAX_VEHICLE_CSV_ROWS,
  vehicleAdminMessages,
  vehicleCsvColumns,
  vehicleMessages,
  type BaseVehicleRow,
  type VehicleCsvPreview,
  type VehicleImportResult,
} from "../../contract/vehicles";
import { adminAuditLog } from "../audit/tables";
import { seedDemoFitment } from "../demo/seed";
import { baseVehicleEngines, baseVehicles, vehicleEngines, vehicleMakes } from "./tables";
import { readVehicleCsv } from "./vehicle-csv";

// The vehicle CSV: export, check, import (docs/vehicles.md).
const { t, call, admin } = storeForTests({ admin: "vehicle-csv-admin@example.com" });
beforeAll(async () => {
  // The demo vehicles: several hundred base vehicles with their engines.
  await seedDemoFitment(t.database.db);
});

const header = vehicleCsvColumns.join(",");
const file = (...rows: string[]) => Buffer.from([header, ...rows].join("\n") + "\n");
const upload = (url: string, data: Buffer) => {
  const body = multipart({ data, filename: "vehicles.csv", type: "text/csv", field: "file" });
  return t.app.inject({
    method: "POST",
    url: `/api/vehicles/${url}`,
    payload: body.payload,
    headers: { ...body.headers, cookie: admin.cookie },
  });
};
const preview = async (data: Buffer) => {
  const res = await upload("import/preview", data);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as VehicleCsvPreview;
};
const exported = async () => {
  const res = await call(admin, "GET", "/api/vehicles/export.csv");
  expect(res.statusCode).toBe(200);
  return res;
};
const sizes = async () => {
  const db = t.database.db;
  const [[makes], [bases], [engines], [links]] = await Promise.all([
    db.select({ n: count() }).from(vehicleMakes),
    db.select({ n: count() }).from(baseVehicles),
    db.select({ n: count() }).from(vehicleEngines),
    db.select({ n: count() }).from(baseVehicleEngines),
  ]);
  return { makes: makes!.n, bases: bases!.n, engines: engines!.n, links: links!.n };
};
const nothing = {
  makes: 0,
  models: 0,
  baseVehicles: 0,
  engines: 0,
  engineLinks: 0,
  updates: 0,
};

test("the export is a UTF-8 CSV with a BOM, one row per base vehicle and engine", async () => {
  const res = await exported();
  expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
  expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="vehicles-/);
  const lines = res.body.split("\r\n");
  expect(lines[0]).toBe(`\uFEFF${header}`);
  expect(lines).toContainEqual(
    expect.stringMatching(/^\d*,2016,Volkswagen,\d*,Golf,\d*,1\.4 TSI,\d*,1\.4,Petrol$/),
  );
  expect(lines.length - 2).toBe((await sizes()).links);
});

test("importing the export changes nothing; it is audited with its counts", async () => {
  const before = await sizes();
  const data = Buffer.from((await exported()).body);
  expect(await preview(data)).toEqual({ rows: before.links, changes: nothing, errors: [] });
  const res = await upload("import", data);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ rows: before.links, changes: nothing });
  expect(await sizes()).toEqual(before);
  const [entry] = await t.database.db
    .select()
    .from(adminAuditLog)
    .orderBy(desc(adminAuditLog.at))
    .limit(1);
  expect(entry).toMatchObject({
    action: "vehicle.import",
    actorEmail: admin.email,
    summary: `Imported a vehicle CSV of ${before.links} rows: 0 new makes, 0 new models, 0 new years, 0 new engines, 0 engines listed for years, 0 updates`,
  });
});

test("an import adds by name, sets VCdb ids, never removes, and re-imports to the same table", async () => {
  const data = file(
    "9001,2019,Tesla,501,Model 3,601,Long Range AWD,701,,Electric",
    "9002,2020,tesla,,Model 3,,Long Range AWD,,,",
    "9002,2020,Tesla,,Model 3,,Standard Range RWD,,,Electric",
    ",2021,Tesla,,Model Y,,,,,",
    // An existing make gets its VCdb id; an existing engine its config id.
    ",2016,volkswagen,502,Golf,,1.4 tsi,702,,",
  );
  const before = await sizes();
  const changes = {
    makes: 1,
    models: 2,
    baseVehicles: 3,
    engines: 2,
    engineLinks: 3,
    updates: 2,
  };
  expect(await preview(data)).toEqual({ rows: 5, changes, errors: [] });
  const res = await upload("import", data);
  expect(res.statusCode, res.body).toBe(200);
  expect((res.json() as VehicleImportResult).changes).toEqual(changes);
  expect(await sizes()).toEqual({
    makes: before.makes + 1,
    bases: before.bases + 3,
    engines: before.engines + 2,
    links: before.links + 3,
  });
  const table = await call(admin, "GET", "/api/vehicles/table?year=2020");
  const tesla = (table.json() as BaseVehicleRow[]).find((r) => r.make.name === "Tesla")!;
  expect(tesla).toMatchObject({
    vcdbBaseVehicleId: 9002,
    make: { vcdbMakeId: 501 },
    model: { name: "Model 3", vcdbModelId: 601 },
  });
  expect(tesla.engines.map((e) => e.name)).toEqual(["Long Range AWD", "Standard Range RWD"]);
  // The same file again, or the export: nothing to do.
  expect((await preview(data)).changes).toEqual(nothing);
  const again = Buffer.from((await exported()).body);
  expect(again.toString()).toContain(
    "9001,2019,Tesla,501,Model 3,601,Long Range AWD,701,,Electric",
  );
  expect(again.toString()).toContain(",2021,Tesla,501,Model Y,,,,,");
  expect((await preview(again)).changes).toEqual(nothing);
});

test("the check lists every row's problem with its line; the import then writes nothing", async () => {
  const data = file(
    ",2019,Lucid,,Air,,,,,",
    ",1899,Lucid,,Air,,,,,",
    `,2019,,,${"x".repeat(61)},,,,,`,
    ",2019,Lucid,0,Air,,,,1.6,",
    // A VCdb id another record holds, and one line disagreeing with another.
    "9001,2022,Lucid,,Air,,,,,",
    ",2019,Polestar,801,2,,,,,",
    ",2020,Polestar,802,2,,,,,",
    ",2019,Lucid,,Air,,Dream,,2 litres,",
    ",2019,Lucid,,Air",
  );
  const before = await sizes();
  const checked = await preview(data);
  expect(checked.rows).toBe(9);
  expect(checked.errors).toEqual([
    { line: 3, column: "year", message: vehicleMessages.year },
    { line: 4, column: "make", message: vehicleAdminMessages.nameRequired },
    { line: 4, column: "model", message: vehicleAdminMessages.nameTooLong },
    { line: 5, column: "vcdb_make_id", message: vehicleAdminMessages.vcdbId },
    { line: 5, column: "liters", message: "Give the engine's name with its other columns" },
    {
      line: 6,
      column: "vcdb_base_vehicle_id",
      message: vehicleAdminMessages.vcdbTaken("base vehicle", 9001, "the 2019 Tesla Model 3"),
    },
    { line: 8, column: "vcdb_make_id", message: "Line 7 gives Polestar VCdb make id 801" },
    { line: 9, column: "liters", message: vehicleAdminMessages.liters },
    { line: 10, message: "Has 5 cells where the header has 10" },
  ]);
  const res = await upload("import", data);
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toBe(vehicleAdminMessages.importHasErrors(9));
  expect(await sizes()).toEqual(before);
});

describe("the file", () => {
  test("a header without the required columns, or with unknown ones, is refused", () => {
    expect(readVehicleCsv(Buffer.from("year,make,colour\n2019,Tesla,red\n")).errors).toEqual([
      { line: 1, column: "model", message: "Missing column model" },
      { line: 1, column: "colour", message: "Unknown column colour" },
    ]);
  });

  test("the three required columns are enough", () => {
    expect(readVehicleCsv(Buffer.from("Make,Model,Year\nTesla,Model S,2015\n"))).toEqual({
      rows: [{ line: 2, year: 2015, make: "Tesla", model: "Model S" }],
      errors: [],
    });
  });

  test(`at most ${MAX_VEHICLE_CSV_ROWS.toLocaleString("en")} rows`, () => {
    const rows = Array.from({ length: MAX_VEHICLE_CSV_ROWS + 1 }, () => "2019,Tesla,Model 3");
    const big = Buffer.from(["year,make,model", ...rows].join("\n"));
    expect(readVehicleCsv(big).errors).toEqual([
      { line: 1, message: "The file has 50,001 rows; import at most 50,000 at a time" },
    ]);
  });

  test("a cell a spreadsheet would run as a formula comes back as it was written", () => {
    const read = readVehicleCsv(Buffer.from("year,make,model\n2019,'=Tesla,'-Model\n"));
    expect(read.rows[0]).toMatchObject({ make: "=Tesla", model: "-Model" });
  });

  test("not UTF-8, or empty, is one clear error", () => {
    expect(readVehicleCsv(Buffer.from([0xff, 0xfe, 0x00])).errors[0]!.message).toMatch(
      /^The file is not UTF-8 text/,
    );
    expect(readVehicleCsv(Buffer.from("")).errors).toEqual([
      { line: 1, message: "The file is empty" },
    ]);
  });
});

test("an upload that is no multipart file is a 415; one over the cap a 413", async () => {
  const res = await postNotMultipart(t.app, admin, "/api/vehicles/import");
  expect(res.statusCode).toBe(415);
  const big = await upload("import/preview", Buffer.alloc(10 * 1024 * 1024 + 10, 0x61));
  expect(big.statusCode).toBe(413);
  expect(big.json().message).toBe("The file must be 10 MiB or smaller");
});
