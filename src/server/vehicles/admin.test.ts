import { and, desc, eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { answersOf, type Method } from "../../../tests/support/requests";
import { storeForTests } from "../../../tests/support/store";
import {
  vehicleAdminMessages,
  vehicleInUseMessage,
  vehicleMessages,
  type AdminEngine,
  type AdminMake,
  type AdminModel,
  type BaseVehicleRow,
  type BaseVehiclesAdded,
} from "../../contract/vehicles";
import { adminAuditLog } from "../audit/tables";
import { ensureDemoVehicles } from "./demo";

// The vehicle database through the API, as the admin screen uses it (docs/vehicles.md).
let listener: pg.Client;
const heard: string[] = [];

const { t, admin, customer } = storeForTests({
  admin: "vehicle-admin@example.com",
  customers: { customer: {} },
});
beforeAll(async () => {
  listener = new pg.Client({ connectionString: t.database.directUrl });
  await listener.connect();
  listener.on("notification", (n) => heard.push(n.payload ?? ""));
  await listener.query("listen catalog_changed");
});
afterAll(async () => {
  await listener.end();
});

const call = (method: Method, url: string, payload?: object, who: TestAccount = admin) =>
  t.app.inject({ method, url: `/api${url}`, payload, headers: { cookie: who.cookie } });
const { ok, refusal } = answersOf(call);
let n = 0;
const unique = (name: string) => `${name} ${process.pid}-${++n}`;
const lastAudit = async () =>
  (await t.database.db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.at)).limit(1))[0]!;

/** A make, a model, an engine and `years` of the model with the engine. */
async function vehicle(years: [number, number] = [2019, 2019]) {
  const make = await ok<AdminMake>("POST", "/vehicles/makes", { name: unique("Make") });
  const model = await ok<AdminModel>("POST", "/vehicles/models", {
    makeId: make.id,
    name: "Model 3",
  });
  const engine = await ok<AdminEngine>("POST", "/vehicles/engines", {
    name: unique("Dual Motor"),
    fuel: "Electric",
  });
  const added = await ok<BaseVehiclesAdded>("POST", "/vehicles/base-vehicles", {
    modelId: model.id,
    yearFrom: years[0],
    yearTo: years[1],
    engineIds: [engine.id],
  });
  return { make, model, engine, bases: added.created };
}

test("an admin adds a make, a model, a year with an engine: the public selector offers it", async () => {
  const make = await ok<AdminMake>("POST", "/vehicles/makes", {
    name: "  Tesla ",
    vcdbMakeId: 7001,
  });
  expect(make).toMatchObject({ name: "Tesla", vcdbMakeId: 7001 });
  const model = await ok<AdminModel>("POST", "/vehicles/models", {
    makeId: make.id,
    name: "Model 3",
    vcdbModelId: 7002,
  });
  const engine = await ok<AdminEngine>("POST", "/vehicles/engines", {
    name: "Long Range AWD",
    liters: "",
    fuel: "Electric",
    vcdbEngineConfigId: 7003,
  });
  expect(engine).toMatchObject({ liters: null, fuel: "Electric", vcdbEngineConfigId: 7003 });
  const added = await ok<BaseVehiclesAdded>("POST", "/vehicles/base-vehicles", {
    modelId: model.id,
    yearFrom: 2019,
    yearTo: 2019,
    engineIds: [engine.id],
    vcdbBaseVehicleId: 7004,
  });
  expect(added.existing).toEqual([]);
  expect(added.created).toEqual([
    {
      id: expect.any(Number),
      year: 2019,
      vcdbBaseVehicleId: 7004,
      make: { id: make.id, name: "Tesla", vcdbMakeId: 7001 },
      model: { id: model.id, name: "Model 3", vcdbModelId: 7002 },
      engines: [{ id: engine.id, name: "Long Range AWD", vcdbEngineConfigId: 7003 }],
    },
  ]);
  expect(await lastAudit()).toMatchObject({
    action: "vehicle.years-add",
    actorEmail: admin.email,
    summary:
      "Added 2019 Tesla Model 3: 1 new year, engines Long Range AWD, VCdb base vehicle id 7004",
  });

  const pub = (url: string) => t.app.inject({ url: `/api${url}` }).then((r) => r.json());
  expect(await pub("/vehicles/years")).toContain(2019);
  expect(await pub("/vehicles/makes?year=2019")).toContainEqual({ id: make.id, name: "Tesla" });
  expect(await pub(`/vehicles/models?year=2019&make=${make.id}`)).toEqual([
    { id: model.id, name: "Model 3" },
  ]);
  expect(await pub(`/vehicles/engines?year=2019&make=${make.id}&model=${model.id}`)).toEqual([
    { id: engine.id, name: "Long Range AWD" },
  ]);
});

test("years from–to make one base vehicle a year; years listed already get the engines", async () => {
  const { model, engine } = await vehicle([2018, 2019]);
  const other = await ok<AdminEngine>("POST", "/vehicles/engines", { name: unique("RWD") });
  const added = await ok<BaseVehiclesAdded>("POST", "/vehicles/base-vehicles", {
    modelId: model.id,
    yearFrom: 2017,
    yearTo: 2020,
    engineIds: [other.id],
  });
  expect(added.created.map((b) => b.year)).toEqual([2017, 2020]);
  expect(added.existing).toEqual([2018, 2019]);
  const res = await call("GET", `/vehicles/table?model=${model.id}`);
  expect(res.headers["x-total-count"]).toBe("4");
  const rows = res.json() as BaseVehicleRow[];
  expect(rows.map((r) => r.year)).toEqual([2020, 2019, 2018, 2017]);
  expect(
    rows
      .find((r) => r.year === 2018)!
      .engines.map((e) => e.id)
      .sort(),
  ).toEqual([engine.id, other.id].sort());
  // The same again changes nothing: 409.
  expect(
    await refusal("POST", "/vehicles/base-vehicles", {
      modelId: model.id,
      yearFrom: 2017,
      yearTo: 2020,
      engineIds: [other.id],
    }),
  ).toMatchObject({ status: 409 });
});

describe("the rules", () => {
  test("names are trimmed, 1–60 characters; a duplicate (any case) is a 409 naming it", async () => {
    const name = unique("Rivian");
    await ok("POST", "/vehicles/makes", { name });
    expect(await refusal("POST", "/vehicles/makes", { name: name.toUpperCase() })).toMatchObject({
      status: 409,
      message: vehicleAdminMessages.makeTaken(name),
    });
    expect(await refusal("POST", "/vehicles/makes", { name: "   " })).toMatchObject({
      status: 400,
      fields: { name: vehicleAdminMessages.nameRequired },
    });
    expect(await refusal("POST", "/vehicles/makes", { name: "x".repeat(61) })).toMatchObject({
      status: 400,
      fields: { name: vehicleAdminMessages.nameTooLong },
    });
    const { make, model } = await vehicle();
    expect(
      await refusal("POST", "/vehicles/models", { makeId: make.id, name: "model 3" }),
    ).toMatchObject({
      status: 409,
      message: vehicleAdminMessages.modelTaken(make.name, "Model 3"),
    });
    // Another make may have a model of that name.
    const other = await ok<AdminMake>("POST", "/vehicles/makes", { name: unique("Other") });
    await ok("POST", "/vehicles/models", { makeId: other.id, name: "Model 3" });
    expect(
      await refusal("PATCH", `/vehicles/models/${model.id}`, { name: "x".repeat(61) }),
    ).toMatchObject({ status: 400 });
    const nothing = await refusal("PATCH", `/vehicles/makes/${make.id}`, {});
    expect(nothing.status).toBe(400);
    expect(nothing.message).toContain(vehicleAdminMessages.nothingToChange);
  });

  test("VCdb ids are whole numbers of 1 or more, each held by one record", async () => {
    const a = await ok<AdminMake>("POST", "/vehicles/makes", {
      name: unique("A"),
      vcdbMakeId: 8101,
    });
    const b = await ok<AdminMake>("POST", "/vehicles/makes", { name: unique("B") });
    expect(await refusal("PATCH", `/vehicles/makes/${b.id}`, { vcdbMakeId: 8101 })).toMatchObject({
      status: 409,
      message: vehicleAdminMessages.vcdbTaken("make", 8101, a.name),
    });
    for (const bad of [0, -3, 1.5, "12"]) {
      expect(await refusal("PATCH", `/vehicles/makes/${b.id}`, { vcdbMakeId: bad })).toMatchObject({
        status: 400,
        fields: { vcdbMakeId: vehicleAdminMessages.vcdbId },
      });
    }
    // Setting it again, or clearing it, is allowed.
    expect(await ok("PATCH", `/vehicles/makes/${a.id}`, { vcdbMakeId: 8101 })).toMatchObject({
      vcdbMakeId: 8101,
    });
    expect(await ok("PATCH", `/vehicles/makes/${a.id}`, { vcdbMakeId: null })).toMatchObject({
      vcdbMakeId: null,
    });
    expect(await ok("PATCH", `/vehicles/makes/${b.id}`, { vcdbMakeId: 8101 })).toMatchObject({
      vcdbMakeId: 8101,
    });
    const { bases } = await vehicle();
    const { bases: others } = await vehicle();
    await ok("PATCH", `/vehicles/base-vehicles/${bases[0]!.id}`, { vcdbBaseVehicleId: 8102 });
    expect(
      await refusal("PATCH", `/vehicles/base-vehicles/${others[0]!.id}`, {
        vcdbBaseVehicleId: 8102,
      }),
    ).toMatchObject({
      status: 409,
      message: vehicleAdminMessages.vcdbTaken(
        "base vehicle",
        8102,
        `the 2019 ${bases[0]!.make.name} Model 3`,
      ),
    });
    // A model's holder is named with its make, an engine's with "the".
    const first = await vehicle();
    const second = await vehicle();
    await ok("PATCH", `/vehicles/models/${first.model.id}`, { vcdbModelId: 8103 });
    await ok("PATCH", `/vehicles/engines/${first.engine.id}`, { vcdbEngineConfigId: 8104 });
    expect(
      await refusal("PATCH", `/vehicles/models/${second.model.id}`, { vcdbModelId: 8103 }),
    ).toMatchObject({
      status: 409,
      message: vehicleAdminMessages.vcdbTaken("model", 8103, `the ${first.make.name} Model 3`),
    });
    expect(
      await refusal("PATCH", `/vehicles/engines/${second.engine.id}`, { vcdbEngineConfigId: 8104 }),
    ).toMatchObject({
      status: 409,
      message: vehicleAdminMessages.vcdbTaken("engine config", 8104, `the ${first.engine.name}`),
    });
  });

  test("years are 1900–2100, from before to, at most 50 at a time", async () => {
    const { model } = await vehicle();
    const years = (yearFrom: unknown, yearTo: unknown, more = {}) =>
      refusal("POST", "/vehicles/base-vehicles", { modelId: model.id, yearFrom, yearTo, ...more });
    expect(await years(1899, 1900)).toMatchObject({
      status: 400,
      fields: { yearFrom: vehicleMessages.year },
    });
    expect(await years(2100, 2101)).toMatchObject({ status: 400 });
    expect(await years(2020, 2019)).toMatchObject({
      status: 400,
      fields: { yearTo: vehicleAdminMessages.yearsOrder },
    });
    expect(await years(1950, 2000)).toMatchObject({
      status: 400,
      fields: { yearTo: vehicleAdminMessages.tooManyYears },
    });
    expect(await years(2010, 2011, { vcdbBaseVehicleId: 9 })).toMatchObject({
      status: 400,
      fields: { vcdbBaseVehicleId: vehicleAdminMessages.vcdbOneYear },
    });
    expect(await years(2010, 2011, { engineIds: [2_000_000_000] })).toMatchObject({
      status: 400,
      fields: { engineIds: vehicleAdminMessages.engineNotFound },
    });
    expect(
      await refusal("POST", "/vehicles/base-vehicles", {
        modelId: 2_000_000_000,
        yearFrom: 2010,
        yearTo: 2010,
      }),
    ).toMatchObject({ status: 400, fields: { modelId: vehicleAdminMessages.modelNotFound } });
    // 50 years is the most.
    const fifty = await ok<BaseVehiclesAdded>("POST", "/vehicles/base-vehicles", {
      modelId: model.id,
      yearFrom: 1950,
      yearTo: 1999,
    });
    expect(fifty.created).toHaveLength(50);
    expect(await refusal("PATCH", "/vehicles/makes/0", { name: "X" })).toMatchObject({
      status: 400,
    });
    expect(await refusal("PATCH", "/vehicles/makes/2000000000", { name: "X" })).toMatchObject({
      status: 404,
      message: vehicleAdminMessages.makeNotFound,
    });
  });
});

describe("removing", () => {
  test("refused with the count while fitment rows name it; allowed once they are gone", async () => {
    const { make, model, engine, bases } = await vehicle([2019, 2020]);
    const product = await insertProduct(t.database.db);
    await ok("PUT", `/products/${product.id}/fitment-rows`, {
      rows: [{ make: make.id, model: model.id, yearFrom: 2019, yearTo: 2020, engine: engine.id }],
    });
    const inUse = (subject: string, fitmentRows: number) =>
      vehicleInUseMessage(subject, { fitmentRows, garageVehicles: 0, orderLines: 0 });
    expect(inUse("This vehicle", 12)).toBe("This vehicle is in 12 fitment rows; remove them first");
    expect(await refusal("DELETE", `/vehicles/makes/${make.id}`)).toMatchObject({
      status: 409,
      message: inUse("This make", 2),
    });
    expect(await refusal("DELETE", `/vehicles/models/${model.id}`)).toMatchObject({
      status: 409,
      message: inUse("This model", 2),
    });
    expect(await refusal("DELETE", `/vehicles/base-vehicles/${bases[0]!.id}`)).toMatchObject({
      status: 409,
      message: "This vehicle is in 1 fitment row; remove them first",
    });
    expect(await refusal("DELETE", `/vehicles/engines/${engine.id}`)).toMatchObject({
      status: 409,
      message: inUse("This engine", 2),
    });
    // Nor can the engine be taken off a year whose fitment names it.
    expect(
      await refusal("PATCH", `/vehicles/base-vehicles/${bases[0]!.id}`, { engineIds: [] }),
    ).toMatchObject({
      status: 409,
      message: inUse(`The 2019 ${make.name} Model 3 with the ${engine.name}`, 1),
    });

    await ok("PUT", `/products/${product.id}/fitment-rows`, { rows: [] });
    await ok("DELETE", `/vehicles/base-vehicles/${bases[0]!.id}`);
    expect(await lastAudit()).toMatchObject({
      action: "vehicle.year-remove",
      summary: `Removed the 2019 ${make.name} Model 3`,
    });
    await ok("DELETE", `/vehicles/engines/${engine.id}`);
    await ok("DELETE", `/vehicles/makes/${make.id}`);
    expect(await refusal("DELETE", `/vehicles/models/${model.id}`)).toMatchObject({
      status: 404,
      message: vehicleAdminMessages.modelNotFound,
    });
    const left = await call("GET", `/vehicles/table?make=${make.id}`);
    expect(left.headers["x-total-count"]).toBe("0");
  });

  test("a vehicle in a customer's garage stays", async () => {
    const { make, model, engine, bases } = await vehicle();
    const saved = await call(
      "POST",
      "/garage",
      { year: 2019, make: make.id, model: model.id, engine: engine.id },
      customer,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const message = vehicleInUseMessage("This vehicle", {
      fitmentRows: 0,
      garageVehicles: 1,
      orderLines: 0,
    });
    expect(message).toBe(
      "This vehicle is in 1 customer's garage; customers' garages and orders keep it, so it cannot be removed",
    );
    expect(await refusal("DELETE", `/vehicles/base-vehicles/${bases[0]!.id}`)).toMatchObject({
      status: 409,
      message,
    });
  });
});

test("a rename is in the audit log, the public answers and every process's catalog cache", async () => {
  const { make, model, engine } = await vehicle();
  const product = await insertProduct(t.database.db);
  await ok("PUT", `/products/${product.id}/fitment-rows`, {
    rows: [{ make: make.id, model: model.id, yearFrom: 2019, yearTo: 2019, engine: engine.id }],
  });
  const fitment = async () =>
    (await t.app.inject({ url: `/api/products/${product.id}/fitment` })).json() as {
      applications: { make: string }[];
    };
  expect((await fitment()).applications[0]!.make).toBe(make.name);
  expect((await fitment()).applications[0]!.make).toBe(make.name); // now from the cache

  const renamed = unique("Renamed");
  heard.length = 0;
  await ok("PATCH", `/vehicles/makes/${make.id}`, { name: renamed, vcdbMakeId: 8201 });
  expect((await fitment()).applications[0]!.make).toBe(renamed);
  expect(await lastAudit()).toMatchObject({
    action: "vehicle.make-change",
    targetType: "vehicle-make",
    targetId: String(make.id),
    summary: `Changed make ${make.name}: name ${make.name} → ${renamed}, VCdb make id none → 8201`,
  });
  // The tables' trigger tells the other processes.
  await expect.poll(() => heard.includes("catalog")).toBe(true);

  // Adding the demo vehicles again changes no row, and says nothing.
  const heardBy = async (change: () => Promise<unknown>) => {
    await change();
    const marker = `marker:${Math.random()}`;
    await t.database.pool.query("select pg_notify('catalog_changed', $1)", [marker]);
    await expect.poll(() => heard.includes(marker)).toBe(true);
    const said = heard.filter((h) => h === "catalog");
    heard.length = 0;
    return said;
  };
  // (Each statement its own transaction here: one notification each.)
  expect(await heardBy(() => ensureDemoVehicles(t.database.db))).not.toEqual([]);
  expect(await heardBy(() => ensureDemoVehicles(t.database.db))).toEqual([]);
});

test("engines and submodels: add, rename, set litres and fuel, remove", async () => {
  const engine = await ok<AdminEngine>("POST", "/vehicles/engines", {
    name: unique("2.0 TFSI"),
    liters: "2.0",
    fuel: "Petrol",
  });
  expect(
    await refusal("POST", "/vehicles/engines", { name: engine.name, liters: "2 litres" }),
  ).toMatchObject({ status: 400, fields: { liters: vehicleAdminMessages.liters } });
  expect(await refusal("POST", "/vehicles/engines", { name: engine.name })).toMatchObject({
    status: 409,
    message: vehicleAdminMessages.engineTaken(engine.name),
  });
  expect(
    await ok("PATCH", `/vehicles/engines/${engine.id}`, { liters: "1.984", fuel: "" }),
  ).toMatchObject({ liters: "1.984", fuel: null });

  const submodel = await ok<{ id: number; name: string }>("POST", "/vehicles/submodels", {
    name: unique("GTI"),
    vcdbSubmodelId: 8301,
  });
  expect(
    await refusal("POST", "/vehicles/submodels", { name: unique("GTD"), vcdbSubmodelId: 8301 }),
  ).toMatchObject({ status: 409 });
  const renamed = unique("GTI Performance");
  expect(await ok("PATCH", `/vehicles/submodels/${submodel.id}`, { name: renamed })).toMatchObject({
    name: renamed,
    vcdbSubmodelId: 8301,
  });
  const names = await ok<{ submodels: { name: string }[]; engines: { name: string }[] }>(
    "GET",
    "/vehicles/names",
  );
  expect(names.submodels.map((s) => s.name)).toContain(renamed);
  expect(names.engines.map((e) => e.name)).toContain(engine.name);
  await ok("DELETE", `/vehicles/submodels/${submodel.id}`);
  await ok("DELETE", `/vehicles/engines/${engine.id}`);
  const actions = await t.database.db
    .select({ action: adminAuditLog.action })
    .from(adminAuditLog)
    .where(
      and(
        eq(adminAuditLog.targetType, "vehicle-submodel"),
        eq(adminAuditLog.targetId, String(submodel.id)),
      ),
    );
  expect(actions.map((a) => a.action).sort()).toEqual([
    "vehicle.submodel-add",
    "vehicle.submodel-change",
    "vehicle.submodel-remove",
  ]);
});

test("the table filters by make, model and year, pages, and is for admins only", async () => {
  const { make, model } = await vehicle([2001, 2010]);
  const page = await call("GET", `/vehicles/table?make=${make.id}&limit=4&offset=4`);
  expect(page.headers["x-total-count"]).toBe("10");
  expect((page.json() as BaseVehicleRow[]).map((r) => r.year)).toEqual([2006, 2005, 2004, 2003]);
  const one = await call("GET", `/vehicles/table?model=${model.id}&year=2003`);
  expect((one.json() as BaseVehicleRow[]).map((r) => r.year)).toEqual([2003]);
  expect((await call("GET", "/vehicles/table?year=1800")).statusCode).toBe(400);
  expect((await call("GET", "/vehicles/table", undefined, customer)).statusCode).toBe(403);
});
