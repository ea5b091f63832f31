import { and, eq, inArray } from "drizzle-orm";
import { sql } from "./sql";
import type { Db, DbOrTx } from "./database";
import {
  baseVehicleEngines,
  baseVehicles,
  productFitments,
  products,
  vehicleEngines,
  vehicleMakes,
  vehicleModels,
} from "./schema";
import { demoFitment, demoVehicles, type DemoApplication } from "./seed-vehicles";
import { advisoryLocks, waitForLock } from "./advisory-locks";

const range = ([from, to]: [number, number]) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * Adds the demo vehicles (makes, models, model years, engines) and the demo products' fitment.
 * Idempotent: vehicles already there are kept, and a demo product that has any fitment row is
 * left as it is (an admin's edits survive a restart). Returns the fitment rows it inserted.
 */
export async function seedDemoFitment(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await waitForLock(tx, advisoryLocks.seedDemoFitment);
    await ensureDemoVehicles(tx);
    return insertDemoFitment(tx);
  });
}

async function ensureDemoVehicles(tx: DbOrTx) {
  const makes = Object.keys(demoVehicles);
  await tx
    .insert(vehicleMakes)
    .values(makes.map((name) => ({ name })))
    .onConflictDoNothing();
  const engineNames = [
    ...new Set(Object.values(demoVehicles).flatMap((ms) => ms.flatMap((m) => m.engines))),
  ];
  await tx
    .insert(vehicleEngines)
    .values(
      engineNames.map((name) => ({
        name,
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
      .values(models.map((m) => ({ makeId: make.id, name: m.name })))
      .onConflictDoNothing();
    const modelRows = await tx
      .select()
      .from(vehicleModels)
      .where(eq(vehicleModels.makeId, make.id));
    for (const model of models) {
      const modelId = modelRows.find((r) => r.name === model.name)!.id;
      const bvs = await tx
        .insert(baseVehicles)
        .values(range(model.years).map((year) => ({ year, modelId })))
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

async function insertDemoFitment(tx: DbOrTx): Promise<number> {
  const partNumbers = Object.keys(demoFitment);
  const targets = await tx
    .select({ id: products.id, partNumber: products.partNumber })
    .from(products)
    .where(
      and(
        inArray(products.partNumber, partNumbers),
        sql`not exists (select 1 from ${productFitments} f where f.product_id = ${products.id})`,
      ),
    );
  let inserted = 0;
  for (const product of targets) {
    for (const app of demoFitment[product.partNumber] ?? []) {
      inserted += await insertApplication(tx, product.id, app);
    }
  }
  return inserted;
}

async function insertApplication(tx: DbOrTx, productId: string, app: DemoApplication) {
  const rows = await tx.execute<{ id: number; engine_id: number | null }>(sql`
    select bv.id, e.id as engine_id
    from ${baseVehicles} bv
    join ${vehicleModels} m on m.id = bv.model_id
    join ${vehicleMakes} mk on mk.id = m.make_id
    left join ${vehicleEngines} e on e.name = ${app.engine ?? null}
    where mk.name = ${app.make} and m.name = ${app.model}
      and bv.year between ${app.years[0]} and ${app.years[1]}`);
  if (rows.rows.length === 0) return 0;
  const result = await tx
    .insert(productFitments)
    .values(
      rows.rows.map((r) => ({
        productId,
        baseVehicleId: r.id,
        engineId: r.engine_id,
        position: app.position ?? null,
        quantity: app.quantity ?? 1,
        note: app.note ?? null,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: productFitments.id });
  return result.length;
}
