import { sql } from "../db/sql";
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { timestampNow, uuidPrimaryKey } from "../db/columns";
import { ownerUserId } from "../users/tables";

/** VCdb ids (migration 0055): positive, each naming one record of its table. */
const vcdbIdRules = (table: string, column: AnyPgColumn) => [
  uniqueIndex(`${table}_${column.name}_unique`)
    .on(column)
    .where(sql`${column} is not null`),
  check(`${table}_${column.name}_positive`, sql`${column} > 0`),
];

export const vehicleMakes = pgTable(
  "vehicle_makes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull().unique(),
    vcdbMakeId: integer("vcdb_make_id"),
  },
  (t) => vcdbIdRules("vehicle_makes", t.vcdbMakeId),
);

export const vehicleModels = pgTable(
  "vehicle_models",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    makeId: integer("make_id")
      .notNull()
      .references(() => vehicleMakes.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    vcdbModelId: integer("vcdb_model_id"),
  },
  (t) => [
    uniqueIndex("vehicle_models_make_name_unique").on(t.makeId, t.name),
    ...vcdbIdRules("vehicle_models", t.vcdbModelId),
  ],
);

/** ACES base vehicle: one model year of one model (the make is the model's). */
export const baseVehicles = pgTable(
  "base_vehicles",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    year: integer("year").notNull(),
    modelId: integer("model_id")
      .notNull()
      .references(() => vehicleModels.id, { onDelete: "cascade" }),
    vcdbBaseVehicleId: integer("vcdb_base_vehicle_id"),
  },
  (t) => [
    check("base_vehicles_year_range", sql`${t.year} between 1900 and 2100`),
    uniqueIndex("base_vehicles_model_year_unique").on(t.modelId, t.year),
    index("base_vehicles_year_idx").on(t.year, t.modelId),
    ...vcdbIdRules("base_vehicles", t.vcdbBaseVehicleId),
  ],
);

/** Trim lines (ACES submodel), shared by every make: "GTI", "Estate", "Sport". */
export const vehicleSubmodels = pgTable(
  "vehicle_submodels",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull().unique(),
    vcdbSubmodelId: integer("vcdb_submodel_id"),
  },
  (t) => vcdbIdRules("vehicle_submodels", t.vcdbSubmodelId),
);

/** Engines (ACES engine config), shared by every model that uses one: "1.4 TSI". */
export const vehicleEngines = pgTable(
  "vehicle_engines",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull().unique(),
    /** Displacement in litres, e.g. "1.4". */
    liters: text("liters"),
    fuel: text("fuel"),
    vcdbEngineConfigId: integer("vcdb_engine_config_id"),
  },
  (t) => vcdbIdRules("vehicle_engines", t.vcdbEngineConfigId),
);

/** Which engines a base vehicle was built with (the selector's last step). */
export const baseVehicleEngines = pgTable(
  "base_vehicle_engines",
  {
    baseVehicleId: integer("base_vehicle_id")
      .notNull()
      .references(() => baseVehicles.id, { onDelete: "cascade" }),
    engineId: integer("engine_id")
      .notNull()
      .references(() => vehicleEngines.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.baseVehicleId, t.engineId] })],
);

/** A customer's saved vehicles ("My garage"). */
export const garageVehicles = pgTable(
  "garage_vehicles",
  {
    id: uuidPrimaryKey(),
    userId: ownerUserId(),
    baseVehicleId: integer("base_vehicle_id")
      .notNull()
      .references(() => baseVehicles.id, { onDelete: "cascade" }),
    engineId: integer("engine_id").references(() => vehicleEngines.id, { onDelete: "cascade" }),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    unique("garage_vehicles_unique").on(t.userId, t.baseVehicleId, t.engineId).nullsNotDistinct(),
  ],
);
