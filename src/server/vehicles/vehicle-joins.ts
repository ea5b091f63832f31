import { eq } from "drizzle-orm";
import type { AnyPgColumn, PgSelect } from "drizzle-orm/pg-core";
import { baseVehicles, vehicleEngines, vehicleMakes, vehicleModels } from "./tables";

/*
 * The joins that name a vehicle: a base vehicle's year, its model and the model's make, and an
 * engine where a row names one. Each takes a dynamic select (`.$dynamic()`) and gives it back
 * with the joins added, so its columns may be selected, filtered and ordered by.
 */

/** A query that reads base vehicles, joined to each one's model and the model's make. */
export function withModelAndMake<T extends PgSelect>(query: T) {
  return query
    .innerJoin(vehicleModels, eq(vehicleModels.id, baseVehicles.modelId))
    .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId));
}

/**
 * A query of rows that name a vehicle by its base vehicle and, maybe, its engine (a product's
 * fitment, a garage's vehicle), joined to the base vehicle, its model and make, and the engine
 * (null where the row names none).
 */
export function withVehicleNames<T extends PgSelect>(
  query: T,
  names: { baseVehicleId: AnyPgColumn; engineId: AnyPgColumn },
) {
  return withModelAndMake(
    query.innerJoin(baseVehicles, eq(baseVehicles.id, names.baseVehicleId)),
  ).leftJoin(vehicleEngines, eq(vehicleEngines.id, names.engineId));
}
