import type { PgTable } from "drizzle-orm/pg-core";
import { sql, type SQL } from "../db/sql";

/**
 * A vehicle record a removal asks about: base vehicles (an SQL list of their ids), an engine, a
 * submodel, or one model year with one engine.
 */
export type VehicleRecord =
  | { baseVehicleIds: SQL }
  | { engineId: number }
  | { submodelId: number }
  | { baseVehicleId: number; engineId: number };

/**
 * How many of a table's rows name a vehicle record, as an SQL value; undefined when its rows
 * never name that kind. The catalog's fitment rows and the orders' lines name vehicles; their
 * modules give these counts to the vehicle admin (store composition), so the vehicles module
 * reads no table of theirs.
 */
export type VehicleReferenceCount = (record: VehicleRecord) => SQL<number> | undefined;

export interface VehicleReferences {
  fitmentRows: VehicleReferenceCount;
  orderLines: VehicleReferenceCount;
}

/** How many rows of `table` meet `condition`; undefined without a condition. */
export const countWhere = (table: PgTable, condition: SQL | undefined): SQL<number> | undefined =>
  condition && sql<number>`(select count(*) from ${table} where ${condition})::int`;

/**
 * The rows naming `record` in a table whose `base_vehicle_id`, `engine_id` (and, with
 * `submodels`, `submodel_id`) columns name vehicle records, as fitment rows and garage vehicles do.
 */
export function namingCondition(record: VehicleRecord, submodels: boolean): SQL | undefined {
  if ("baseVehicleIds" in record) return sql`base_vehicle_id in (${record.baseVehicleIds})`;
  if ("submodelId" in record)
    return submodels ? sql`submodel_id = ${record.submodelId}` : undefined;
  if ("baseVehicleId" in record) {
    return sql`base_vehicle_id = ${record.baseVehicleId} and engine_id = ${record.engineId}`;
  }
  return sql`engine_id = ${record.engineId}`;
}
