import { beforeAll, describe, expect, test } from "vitest";
import { insertProduct } from "../../../tests/support/factories";
import { type TestApp } from "../../../tests/support/test-app";
import { createCatalogService } from "./service";
import {
  baseVehicleEngines,
  baseVehicles,
  vehicleEngines,
  vehicleMakes,
  vehicleModels,
  vehicleSubmodels,
} from "../vehicles/tables";
import { productFitments } from "./tables";
import { createVehicleService, type VehicleMatch } from "../vehicles/service";
import { createProductFitment, yearRanges } from "./fitment";
import { appForTests } from "../../../tests/support/store";

/** The vehicles (selector, resolving) and a product's fitment, as the routes use them together. */
const fitmentOf = (db: TestApp["database"]["db"]) => ({
  ...createVehicleService(db),
  ...createProductFitment(db),
});

// A small vehicle set made here: one model over three years with two engines and two submodels,
// and parts whose fitment rows leave the engine or submodel empty (every one) or name one.
const { t } = appForTests();
let fitment: ReturnType<typeof fitmentOf>;
let catalog: ReturnType<typeof createCatalogService>;
const ids = {} as {
  make: number;
  model: number;
  otherModel: number;
  bv: Record<number, number>;
  otherBv: number;
  e1: number;
  e2: number;
  s1: number;
  s2: number;
};
const parts = {} as Record<
  "everyEngine" | "engine1" | "submodel1" | "engine1Sub2" | "only2016" | "otherModel",
  string
>;

beforeAll(async () => {
  const db = t.database.db;
  fitment = fitmentOf(db);
  catalog = createCatalogService(db);
  const [make] = await db.insert(vehicleMakes).values({ name: "Testmake" }).returning();
  const [model, otherModel] = await db
    .insert(vehicleModels)
    .values([
      { makeId: make!.id, name: "Alpha" },
      { makeId: make!.id, name: "Beta" },
    ])
    .returning();
  const bvs = await db
    .insert(baseVehicles)
    .values([2015, 2016, 2017].map((year) => ({ year, modelId: model!.id })))
    .returning();
  const [otherBv] = await db
    .insert(baseVehicles)
    .values({ year: 2016, modelId: otherModel!.id })
    .returning();
  const [e1, e2] = await db
    .insert(vehicleEngines)
    .values([{ name: "T1 1.0" }, { name: "T2 2.0" }])
    .returning();
  const [s1, s2] = await db
    .insert(vehicleSubmodels)
    .values([{ name: "Sport" }, { name: "Estate" }])
    .returning();
  await db
    .insert(baseVehicleEngines)
    .values(bvs.flatMap((bv) => [e1!, e2!].map((e) => ({ baseVehicleId: bv.id, engineId: e.id }))));
  Object.assign(ids, {
    make: make!.id,
    model: model!.id,
    otherModel: otherModel!.id,
    bv: Object.fromEntries(bvs.map((b) => [b.year, b.id])),
    otherBv: otherBv!.id,
    e1: e1!.id,
    e2: e2!.id,
    s1: s1!.id,
    s2: s2!.id,
  });
  for (const key of [
    "everyEngine",
    "engine1",
    "submodel1",
    "engine1Sub2",
    "only2016",
    "otherModel",
  ] as const) {
    parts[key] = (await insertProduct(db, { name: `Fitment ${key}` })).id;
  }
  const every = (productId: string, extra: Partial<typeof productFitments.$inferInsert> = {}) =>
    bvs.map((bv) => ({ productId, baseVehicleId: bv.id, ...extra }));
  await db
    .insert(productFitments)
    .values([
      ...every(parts.everyEngine, { position: "Front", quantity: 2 }),
      ...every(parts.engine1, { engineId: e1!.id }),
      ...every(parts.submodel1, { submodelId: s1!.id, note: "with sport suspension" }),
      ...every(parts.engine1Sub2, { engineId: e1!.id, submodelId: s2!.id }),
      { productId: parts.only2016, baseVehicleId: ids.bv[2016]! },
      { productId: parts.otherModel, baseVehicleId: otherBv!.id },
    ]);
});

/** The test's parts that fit, by their keys, in a stable order. */
async function fitting(v: VehicleMatch) {
  const page = await catalog.page({ sort: "name", limit: 100, offset: 0 }, v);
  const byId = new Map(Object.entries(parts).map(([k, id]) => [id, k]));
  return page
    .map((p) => byId.get(p._id))
    .filter(Boolean)
    .sort();
}

describe("fitment matching", () => {
  test("without an engine or submodel chosen, every row of the base vehicle applies", async () => {
    expect(await fitting({ baseVehicleId: ids.bv[2016]! })).toEqual(
      ["engine1", "engine1Sub2", "everyEngine", "only2016", "submodel1"].sort(),
    );
    expect(await fitting({ baseVehicleId: ids.bv[2015]! })).toEqual(
      ["engine1", "engine1Sub2", "everyEngine", "submodel1"].sort(),
    );
    expect(await fitting({ baseVehicleId: ids.otherBv })).toEqual(["otherModel"]);
  });

  test("an empty engine matches every engine; a named one only itself", async () => {
    expect(await fitting({ baseVehicleId: ids.bv[2017]!, engineId: ids.e2 })).toEqual(
      ["everyEngine", "submodel1"].sort(),
    );
    expect(await fitting({ baseVehicleId: ids.bv[2017]!, engineId: ids.e1 })).toEqual(
      ["engine1", "engine1Sub2", "everyEngine", "submodel1"].sort(),
    );
  });

  test("an empty submodel matches every submodel; a named one only itself", async () => {
    expect(await fitting({ baseVehicleId: ids.bv[2017]!, submodelId: ids.s2 })).toEqual(
      ["engine1", "engine1Sub2", "everyEngine"].sort(),
    );
    expect(
      await fitting({ baseVehicleId: ids.bv[2017]!, submodelId: ids.s1, engineId: ids.e1 }),
    ).toEqual(["engine1", "everyEngine", "submodel1"].sort());
    expect(
      await fitting({ baseVehicleId: ids.bv[2017]!, submodelId: ids.s2, engineId: ids.e2 }),
    ).toEqual(["everyEngine"]);
  });

  test("the list counts what it shows and says how each part fits", async () => {
    const v = { baseVehicleId: ids.bv[2016]!, engineId: ids.e1 };
    expect(await catalog.count({}, v)).toBe((await fitting(v)).length);
    const page = await catalog.page({ sort: "name", limit: 100, offset: 0 }, v);
    expect(page.find((p) => p._id === parts.everyEngine)?.fit).toEqual({
      fits: true,
      details: [{ position: "Front", quantity: 2, note: null, engine: null, submodel: null }],
    });
    expect(page.find((p) => p._id === parts.submodel1)?.fit?.details).toEqual([
      {
        position: null,
        quantity: 1,
        note: "with sport suspension",
        engine: null,
        submodel: "Sport",
      },
    ]);
    expect(
      await fitment.fitOf(parts.engine1, { baseVehicleId: ids.bv[2016]!, engineId: ids.e2 }),
    ).toEqual([]);
  });
});

test("a vehicle is resolved in words, and an unknown one is refused", async () => {
  const v = await fitment.resolve({ year: 2016, make: ids.make, model: ids.model, engine: ids.e1 });
  expect(v.vehicle.label).toBe("2016 Testmake Alpha T1 1.0");
  expect(v.baseVehicleId).toBe(ids.bv[2016]);
  // Wrong make for the model, a year without the model, an engine it never had.
  await expect(
    fitment.resolve({ year: 2016, make: ids.make + 999, model: ids.model }),
  ).rejects.toMatchObject({ statusCode: 400 });
  await expect(
    fitment.resolve({ year: 2014, make: ids.make, model: ids.model }),
  ).rejects.toMatchObject({ statusCode: 400 });
  await expect(
    fitment.resolve({ year: 2016, make: ids.make, model: ids.otherModel, engine: ids.e1 }),
  ).rejects.toMatchObject({ statusCode: 400 });
});

test("the selector's cascade narrows year by year", async () => {
  expect(await fitment.years()).toEqual(expect.arrayContaining([2017, 2016, 2015]));
  expect(await fitment.makes(2015)).toContainEqual({ id: ids.make, name: "Testmake" });
  expect(await fitment.models(2015, ids.make)).toEqual([{ id: ids.model, name: "Alpha" }]);
  expect(await fitment.models(2016, ids.make)).toHaveLength(2);
  expect(await fitment.engines(2016, ids.make, ids.model)).toEqual([
    { id: ids.e1, name: "T1 1.0" },
    { id: ids.e2, name: "T2 2.0" },
  ]);
});

test("a product's vehicles are grouped by model with years as ranges", async () => {
  expect(await fitment.applications(parts.engine1)).toEqual([
    {
      make: "Testmake",
      model: "Alpha",
      rows: [
        {
          years: "2015–2017",
          position: null,
          quantity: 1,
          note: null,
          engine: "T1 1.0",
          submodel: null,
        },
      ],
    },
  ]);
  expect(yearRanges([2016, 2012, 2014, 2015])).toBe("2012, 2014–2016");
  expect(yearRanges([2020])).toBe("2020");
});
