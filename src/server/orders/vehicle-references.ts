import { sql } from "../db/sql";
import { countWhere, type VehicleReferenceCount } from "../vehicles/references";
import { orderItems } from "./tables";

/**
 * The order lines naming a vehicle record (the vehicle the customer shopped with), for the
 * vehicle admin's removals: by their model year or their engine; a line names no submodel, and
 * taking an engine off a model year leaves the lines that recorded both as they are.
 */
export const orderLinesNaming: VehicleReferenceCount = (record) =>
  countWhere(
    orderItems,
    "baseVehicleIds" in record
      ? sql`vehicle_base_vehicle_id in (${record.baseVehicleIds})`
      : "engineId" in record && !("baseVehicleId" in record)
        ? sql`vehicle_engine_id = ${record.engineId}`
        : undefined,
  );
