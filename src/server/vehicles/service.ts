import { and, asc, count, eq, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  vehicleMessages,
  MAX_GARAGE_VEHICLES,
  type GarageVehicle,
  type Vehicle,
  type VehicleOption,
  type VehicleQuery,
} from "../../contract/vehicles";
import type { Db } from "../db/database";
import {
  baseVehicleEngines,
  baseVehicles,
  garageVehicles,
  vehicleEngines,
  vehicleMakes,
  vehicleModels,
} from "./tables";
import { conflict, HttpError, notFound } from "../errors";
import { checkVin } from "./vin";
import { withModelAndMake, withVehicleNames } from "./vehicle-joins";
import { advisoryLocks, lockWithin } from "../db/advisory-locks";

/** A vehicle to match fitment rows against; an id left out matches rows of any value. */
export interface VehicleMatch {
  baseVehicleId: number;
  engineId?: number;
  submodelId?: number;
}

export interface ResolvedVehicle extends VehicleMatch {
  vehicle: Vehicle;
}

export const vehicleLabel = (v: Omit<Vehicle, "label">) =>
  [v.year, v.make.name, v.model.name, v.engine?.name].filter(Boolean).join(" ");

/** The vehicle an order line keeps (docs/vehicle-on-line.md): the catalog's ids and its name. */
export interface LineVehicle {
  baseVehicleId: number;
  engineId: number | null;
  label: string;
}

/**
 * A request's `vehicle` for an order or a cart line that the catalog does not know: 400, the
 * same words as the catalog's vehicle filter (a checkout and adding to the cart answer alike).
 */
export const unknownLineVehicle = () =>
  new HttpError(400, "unknown_vehicle", vehicleMessages.unknownVehicle, {
    vehicle: vehicleMessages.unknownVehicle,
  });

/**
 * A vehicle kept by its ids (a cart line's base vehicle and engine: SQL expressions of the
 * enclosing query), as `LineVehicle` JSON named as `lineVehicleJson` names it; null when the base
 * vehicle is null. A correlated sub-select: the cart and the placement read it in the statement
 * they already make.
 */
export function keptVehicleJson(baseVehicleId: SQL, engineId: SQL): SQL<LineVehicle | null> {
  return vehicleJson({
    engine: {
      join: sql`left join ${vehicleEngines} e on e.id = ${engineId}`,
      id: sql`e.id`,
      name: sql`e.name`,
    },
    where: sql`bv.id = ${baseVehicleId}`,
  });
}

/** The one naming of a line's vehicle (`vehicleLabel`'s words, in SQL), for both lookups. */
function vehicleJson(parts: {
  engine: { join: SQL; id: SQL; name: SQL };
  where: SQL;
}): SQL<LineVehicle | null> {
  const { engine, where } = parts;
  return sql<LineVehicle | null>`(select json_build_object(
      'baseVehicleId', bv.id, 'engineId', ${engine.id},
      'label', concat_ws(' ', bv.year, mk.name, md.name, ${engine.name}))
    from ${baseVehicles} bv
    join ${vehicleModels} md on md.id = bv.model_id
    join ${vehicleMakes} mk on mk.id = md.make_id
    ${engine.join}
    where ${where})`;
}

/**
 * The chosen vehicle as an order line keeps it, as an SQL expression giving JSON (`LineVehicle`),
 * or null when the catalog does not know it (the year, make, model or engine, or an engine the
 * model was not built with). A sub-select, so a placement reads it in the statement it already
 * makes: no round trip of its own. The name is `vehicleLabel`'s, built in SQL.
 */
export function lineVehicleJson(q: VehicleQuery): SQL<LineVehicle | null> {
  const engine =
    q.engine !== undefined
      ? {
          join: sql`join ${baseVehicleEngines} bve
                      on bve.base_vehicle_id = bv.id and bve.engine_id = ${q.engine}
                    join ${vehicleEngines} e on e.id = bve.engine_id`,
          id: sql`e.id`,
          name: sql`e.name`,
        }
      : { join: sql``, id: sql`null::int`, name: sql`null::text` };
  return vehicleJson({
    engine,
    where: sql`bv.year = ${q.year} and bv.model_id = ${q.model} and md.make_id = ${q.make}`,
  });
}

const unknownVehicle = () => new HttpError(400, "unknown_vehicle", vehicleMessages.unknownVehicle);

export function createVehicleService(db: Db) {
  async function find(q: VehicleQuery): Promise<ResolvedVehicle | undefined> {
    const [row] = await withModelAndMake(
      db
        .select({
          baseVehicleId: baseVehicles.id,
          makeName: vehicleMakes.name,
          modelName: vehicleModels.name,
        })
        .from(baseVehicles)
        .$dynamic(),
    ).where(
      and(
        eq(baseVehicles.year, q.year),
        eq(baseVehicles.modelId, q.model),
        eq(vehicleModels.makeId, q.make),
      ),
    );
    if (!row) return undefined;
    let engine: VehicleOption | undefined;
    if (q.engine !== undefined) {
      const [e] = await db
        .select({ id: vehicleEngines.id, name: vehicleEngines.name })
        .from(baseVehicleEngines)
        .innerJoin(vehicleEngines, eq(vehicleEngines.id, baseVehicleEngines.engineId))
        .where(
          and(
            eq(baseVehicleEngines.baseVehicleId, row.baseVehicleId),
            eq(baseVehicleEngines.engineId, q.engine),
          ),
        );
      if (!e) return undefined;
      engine = e;
    }
    const parts = {
      year: q.year,
      make: { id: q.make, name: row.makeName },
      model: { id: q.model, name: row.modelName },
      ...(engine && { engine }),
    };
    return {
      baseVehicleId: row.baseVehicleId,
      ...(engine && { engineId: engine.id }),
      vehicle: { ...parts, label: vehicleLabel(parts) },
    };
  }

  /** The vehicle, or a 400 naming the problem when we do not know it. */
  async function resolve(q: VehicleQuery): Promise<ResolvedVehicle> {
    const found = await find(q);
    if (!found) throw unknownVehicle();
    return found;
  }

  return {
    find,
    resolve,

    /** Model years we have vehicles for, newest first. */
    async years(): Promise<number[]> {
      const rows = await db
        .selectDistinct({ year: baseVehicles.year })
        .from(baseVehicles)
        .orderBy(sql`${baseVehicles.year} desc`);
      return rows.map((r) => r.year);
    },

    async makes(year: number): Promise<VehicleOption[]> {
      return withModelAndMake(
        db
          .selectDistinct({ id: vehicleMakes.id, name: vehicleMakes.name })
          .from(baseVehicles)
          .$dynamic(),
      )
        .where(eq(baseVehicles.year, year))
        .orderBy(asc(vehicleMakes.name), asc(vehicleMakes.id));
    },

    async models(year: number, make: number): Promise<VehicleOption[]> {
      return db
        .select({ id: vehicleModels.id, name: vehicleModels.name })
        .from(baseVehicles)
        .innerJoin(vehicleModels, eq(vehicleModels.id, baseVehicles.modelId))
        .where(and(eq(baseVehicles.year, year), eq(vehicleModels.makeId, make)))
        .orderBy(asc(vehicleModels.name), asc(vehicleModels.id));
    },

    async engines(year: number, make: number, model: number): Promise<VehicleOption[]> {
      const { baseVehicleId } = await resolve({ year, make, model });
      return db
        .select({ id: vehicleEngines.id, name: vehicleEngines.name })
        .from(baseVehicleEngines)
        .innerJoin(vehicleEngines, eq(vehicleEngines.id, baseVehicleEngines.engineId))
        .where(eq(baseVehicleEngines.baseVehicleId, baseVehicleId))
        .orderBy(asc(vehicleEngines.name));
    },

    /** What the VIN tells, with our make for its manufacturer where we have one. */
    async decodeVin(input: string) {
      const result = checkVin(input);
      if (!result.ok) throw new HttpError(400, "invalid_vin", result.message);
      const [make] = result.manufacturer
        ? await db
            .select({ id: vehicleMakes.id, name: vehicleMakes.name })
            .from(vehicleMakes)
            .where(eq(vehicleMakes.name, result.manufacturer))
        : [];
      const notes = [...result.notes];
      if (result.manufacturer && !make) {
        notes.push(`We sell no parts listed for ${result.manufacturer} vehicles yet`);
      }
      return {
        vin: result.vin,
        wmi: result.wmi,
        manufacturer: result.manufacturer,
        region: result.region,
        make: make ?? null,
        year: result.year,
        notes,
      };
    },

    async garage(userId: string): Promise<GarageVehicle[]> {
      const rows = await withVehicleNames(
        db
          .select({
            id: garageVehicles.id,
            year: baseVehicles.year,
            makeId: vehicleMakes.id,
            makeName: vehicleMakes.name,
            modelId: vehicleModels.id,
            modelName: vehicleModels.name,
            engineId: vehicleEngines.id,
            engineName: vehicleEngines.name,
          })
          .from(garageVehicles)
          .$dynamic(),
        garageVehicles,
      )
        .where(eq(garageVehicles.userId, userId))
        .orderBy(asc(garageVehicles.createdAt), asc(garageVehicles.id));
      return rows.map((r) => {
        const parts = {
          year: r.year,
          make: { id: r.makeId, name: r.makeName },
          model: { id: r.modelId, name: r.modelName },
          ...(r.engineId !== null &&
            r.engineName !== null && { engine: { id: r.engineId, name: r.engineName } }),
        };
        return { id: r.id, ...parts, label: vehicleLabel(parts) };
      });
    },

    /** Saves a vehicle in the customer's garage (saving it again changes nothing). */
    async addToGarage(userId: string, q: VehicleQuery): Promise<GarageVehicle[]> {
      const v = await resolve(q);
      await db.transaction(async (tx) => {
        // One garage change at a time per customer, so the cap holds under concurrent saves.
        await tx.execute(lockWithin(advisoryLocks.perGarage, userId));
        const [row] = await tx
          .select({ n: count() })
          .from(garageVehicles)
          .where(eq(garageVehicles.userId, userId));
        const inserted = await tx
          .insert(garageVehicles)
          .values({ userId, baseVehicleId: v.baseVehicleId, engineId: v.engineId ?? null })
          .onConflictDoNothing()
          .returning({ id: garageVehicles.id });
        if (inserted.length > 0 && (row?.n ?? 0) >= MAX_GARAGE_VEHICLES) {
          throw conflict(vehicleMessages.garageFull);
        }
      });
      return this.garage(userId);
    },

    async removeFromGarage(userId: string, id: string): Promise<GarageVehicle[]> {
      const deleted = await db
        .delete(garageVehicles)
        .where(and(eq(garageVehicles.id, id), eq(garageVehicles.userId, userId)))
        .returning({ id: garageVehicles.id });
      if (deleted.length === 0) throw notFound(vehicleMessages.garageNotFound);
      return this.garage(userId);
    },
  };
}

export type VehicleService = ReturnType<typeof createVehicleService>;
