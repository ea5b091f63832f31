import { eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../db/database";
import {
  baseVehicleEngines,
  baseVehicles,
  vehicleEngines,
  vehicleMakes,
  vehicleModels,
} from "./tables";
import { demoVcdb, demoVehicles } from "./demo-vehicles";

const range = ([from, to]: [number, number]) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Adds the demo vehicles (makes, models, model years, engines); those already there are kept. */
export async function ensureDemoVehicles(tx: DbOrTx) {
  const makes = Object.keys(demoVehicles);
  await tx
    .insert(vehicleMakes)
    .values(makes.map((name) => ({ name, vcdbMakeId: demoVcdb.make(name) })))
    .onConflictDoNothing();
  const engineNames = [
    ...new Set(Object.values(demoVehicles).flatMap((ms) => ms.flatMap((m) => m.engines))),
  ];
  await tx
    .insert(vehicleEngines)
    .values(
      engineNames.map((name) => ({
        name,
        vcdbEngineConfigId: demoVcdb.engine(name),
        liters: /\d\.\d+/.exec(name)?.[0] ?? null,
        fuel: /TDI|dCi|CRDi|TDCi|\dd\b|^D\d/.test(name)
          ? "Diesel"
          : /Hybrid/.test(name)
            ? "Hybrid"
            : "Petrol",
      })),
    )
    .onConflictDoNothing();
  const makeRows = await tx.select().from(vehicleMakes).where(inArray(vehicleMakes.name, makes));
  const engineRows = await tx
    .select()
    .from(vehicleEngines)
    .where(inArray(vehicleEngines.name, engineNames));
  const engineId = new Map(engineRows.map((e) => [e.name, e.id]));
  for (const make of makeRows) {
    const models = demoVehicles[make.name] ?? [];
    await tx
      .insert(vehicleModels)
      .values(
        models.map((m) => ({
          makeId: make.id,
          name: m.name,
          vcdbModelId: demoVcdb.model(make.name, m.name),
        })),
      )
      .onConflictDoNothing();
    const modelRows = await tx
      .select()
      .from(vehicleModels)
      .where(eq(vehicleModels.makeId, make.id));
    for (const model of models) {
      const modelId = modelRows.find((r) => r.name === model.name)!.id;
      const bvs = await tx
        .insert(baseVehicles)
        .values(
          range(model.years).map((year) => ({
            year,
            modelId,
            vcdbBaseVehicleId: demoVcdb.baseVehicle(make.name, model.name, year),
          })),
        )
        .onConflictDoNothing()
        .returning({ id: baseVehicles.id });
      if (bvs.length === 0) continue;
      await tx
        .insert(baseVehicleEngines)
        .values(
          bvs.flatMap((bv) =>
            model.engines.map((e) => ({ baseVehicleId: bv.id, engineId: engineId.get(e)! })),
          ),
        )
        .onConflictDoNothing();
    }
  }
}
