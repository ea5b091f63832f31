import { and, asc, count, eq, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  vehicleMessages,
  MAX_GARAGE_VEHICLES,
  type FitmentDetail,
  type FitmentRange,
  type FitmentRangeInput,
  type GarageVehicle,
  type ProductFitment,
  type Vehicle,
  type VehicleOption,
  type VehicleQuery,
} from "../../contract/vehicles";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db } from "../db/database";
import {
  baseVehicleEngines,
  baseVehicles,
  garageVehicles,
  productFitments,
  products,
  vehicleEngines,
  vehicleMakes,
  vehicleModels,
  vehicleSubmodels,
} from "../db/schema";
import { conflict, HttpError, notFound } from "../errors";
import { checkVin } from "./vin";
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

/**
 * The fitment rows of the product `productId` (an SQL expression) that apply to the vehicle: a
 * row without engine or submodel applies to every one; a row for one engine applies when the
 * shopper chose that engine or none (its detail then names the engine).
 */
function applies(productId: SQL, v: VehicleMatch): SQL {
  return sql`f.product_id = ${productId} and f.base_vehicle_id = ${v.baseVehicleId}
    ${v.engineId !== undefined ? sql`and (f.engine_id is null or f.engine_id = ${v.engineId})` : sql``}
    ${v.submodelId !== undefined ? sql`and (f.submodel_id is null or f.submodel_id = ${v.submodelId})` : sql``}`;
}

/** True for products with at least one fitment row that applies to the vehicle. */
export function fitsCondition(productId: SQL, v: VehicleMatch): SQL {
  return sql`exists (select 1 from ${productFitments} f where ${applies(productId, v)})`;
}

/** The applying rows as JSON text (FitmentDetail[]), or null when none applies. */
export function fitDetailsColumn(productId: SQL, v: VehicleMatch): SQL<string | null> {
  // The engine or submodel the shopper chose goes without saying.
  const engineWords = v.engineId !== undefined ? sql`null::text` : sql`e.name`;
  const submodelWords = v.submodelId !== undefined ? sql`null::text` : sql`s.name`;
  return sql<string | null>`(select json_agg(json_build_object(
      'position', f.position, 'quantity', f.quantity, 'note', f.note,
      'engine', ${engineWords}, 'submodel', ${submodelWords})
      order by f.position, e.name, s.name)::text
    from ${productFitments} f
    left join ${vehicleEngines} e on e.id = f.engine_id
    left join ${vehicleSubmodels} s on s.id = f.submodel_id
    where ${applies(productId, v)})`;
}

/** "2013–2020", or "2012, 2014–2016" when years are missing in between. */
export function yearRanges(years: number[]): string {
  const sorted = [...new Set(years)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(", ");
}

const unknownVehicle = () => new HttpError(400, "unknown_vehicle", vehicleMessages.unknownVehicle);

export function createFitmentService(db: Db) {
  async function find(q: VehicleQuery): Promise<ResolvedVehicle | undefined> {
    const [row] = await db
      .select({
        baseVehicleId: baseVehicles.id,
        makeName: vehicleMakes.name,
        modelName: vehicleModels.name,
      })
      .from(baseVehicles)
      .innerJoin(vehicleModels, eq(vehicleModels.id, baseVehicles.modelId))
      .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
      .where(
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
      return db
        .selectDistinct({ id: vehicleMakes.id, name: vehicleMakes.name })
        .from(baseVehicles)
        .innerJoin(vehicleModels, eq(vehicleModels.id, baseVehicles.modelId))
        .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
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

    /** The rows of one product that apply to the vehicle (empty: it does not fit). */
    async fitOf(productId: string, v: VehicleMatch): Promise<FitmentDetail[]> {
      const [row] = (
        await db.execute<{ details: string | null }>(
          sql`select ${fitDetailsColumn(sql`${productId}::uuid`, v)} as details`,
        )
      ).rows;
      return row?.details ? (JSON.parse(row.details) as FitmentDetail[]) : [];
    },

    /** The vehicles a product fits: by make and model, rows alike in all but year merged. */
    async applications(productId: string): Promise<ProductFitment["applications"]> {
      const rows = await db
        .select({
          make: vehicleMakes.name,
          model: vehicleModels.name,
          year: baseVehicles.year,
          engine: vehicleEngines.name,
          submodel: vehicleSubmodels.name,
          position: productFitments.position,
          quantity: productFitments.quantity,
          note: productFitments.note,
        })
        .from(productFitments)
        .innerJoin(baseVehicles, eq(baseVehicles.id, productFitments.baseVehicleId))
        .innerJoin(vehicleModels, eq(vehicleModels.id, baseVehicles.modelId))
        .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
        .leftJoin(vehicleEngines, eq(vehicleEngines.id, productFitments.engineId))
        .leftJoin(vehicleSubmodels, eq(vehicleSubmodels.id, productFitments.submodelId))
        .where(eq(productFitments.productId, productId))
        .orderBy(asc(vehicleMakes.name), asc(vehicleModels.name), asc(baseVehicles.year));
      const groups = new Map<string, ProductFitment["applications"][number]>();
      const alike = new Map<string, { group: string; detail: FitmentDetail; years: number[] }>();
      for (const r of rows) {
        const group = JSON.stringify([r.make, r.model]);
        if (!groups.has(group)) groups.set(group, { make: r.make, model: r.model, rows: [] });
        const detail: FitmentDetail = {
          position: r.position,
          quantity: r.quantity,
          note: r.note,
          engine: r.engine,
          submodel: r.submodel,
        };
        const key = JSON.stringify([group, detail]);
        const entry = alike.get(key) ?? { group, detail, years: [] };
        entry.years.push(r.year);
        alike.set(key, entry);
      }
      for (const { group, detail, years } of alike.values()) {
        groups.get(group)!.rows.push({ ...detail, years: yearRanges(years) });
      }
      return [...groups.values()];
    },

    /** A product's fitment for the admin form: rows alike in all but year folded into ranges. */
    async fitmentRanges(productId: string): Promise<FitmentRange[]> {
      const rows = await db
        .select({
          makeId: vehicleMakes.id,
          makeName: vehicleMakes.name,
          modelId: vehicleModels.id,
          modelName: vehicleModels.name,
          year: baseVehicles.year,
          engineId: vehicleEngines.id,
          engineName: vehicleEngines.name,
          position: productFitments.position,
          quantity: productFitments.quantity,
          note: productFitments.note,
        })
        .from(productFitments)
        .innerJoin(baseVehicles, eq(baseVehicles.id, productFitments.baseVehicleId))
        .innerJoin(vehicleModels, eq(vehicleModels.id, baseVehicles.modelId))
        .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
        .leftJoin(vehicleEngines, eq(vehicleEngines.id, productFitments.engineId))
        .where(eq(productFitments.productId, productId))
        .orderBy(
          asc(vehicleMakes.name),
          asc(vehicleModels.name),
          asc(vehicleEngines.name),
          asc(productFitments.position),
          asc(productFitments.note),
          asc(productFitments.quantity),
          asc(baseVehicles.year),
        );
      const ranges: FitmentRange[] = [];
      for (const r of rows) {
        const last = ranges.at(-1);
        if (
          last &&
          last.model.id === r.modelId &&
          (last.engine?.id ?? null) === r.engineId &&
          last.position === r.position &&
          last.note === r.note &&
          last.quantity === r.quantity &&
          last.yearTo + 1 === r.year
        ) {
          last.yearTo = r.year;
          continue;
        }
        ranges.push({
          make: { id: r.makeId, name: r.makeName },
          model: { id: r.modelId, name: r.modelName },
          yearFrom: r.year,
          yearTo: r.year,
          engine:
            r.engineId !== null && r.engineName !== null
              ? { id: r.engineId, name: r.engineName }
              : null,
          position: r.position,
          quantity: r.quantity,
          note: r.note,
        });
      }
      return ranges;
    },

    /**
     * Replaces a product's fitment with these ranges (one row per year), all or nothing: a range
     * naming a year the model was not built in, or an engine it did not have, is a 400 naming
     * the row.
     */
    async replaceFitment(
      productId: string,
      input: FitmentRangeInput[],
      actor?: AuditActor,
    ): Promise<FitmentRange[]> {
      await db.transaction(async (tx) => {
        const [product] = await tx
          .select({ id: products.id, partNumber: products.partNumber })
          .from(products)
          .where(eq(products.id, productId))
          .for("update");
        if (!product) throw notFound("Product not found");
        const values: (typeof productFitments.$inferInsert)[] = [];
        for (const [i, r] of input.entries()) {
          const years = r.yearTo - r.yearFrom + 1;
          const found = (
            await tx.execute<{ id: number; has_engine: boolean }>(sql`
              select bv.id, ${
                r.engine !== undefined
                  ? sql`exists (select 1 from ${baseVehicleEngines} x
                      where x.base_vehicle_id = bv.id and x.engine_id = ${r.engine})`
                  : sql`true`
              } as has_engine
              from ${baseVehicles} bv join ${vehicleModels} m on m.id = bv.model_id
              where bv.model_id = ${r.model} and m.make_id = ${r.make}
                and bv.year between ${r.yearFrom} and ${r.yearTo}`)
          ).rows;
          const row = `Row ${i + 1}`;
          if (found.length !== years) {
            throw new HttpError(
              400,
              "unknown_vehicle",
              `${row}: we do not list this make and model for every year from ${r.yearFrom} to ${r.yearTo}`,
            );
          }
          if (found.some((f) => !f.has_engine)) {
            throw new HttpError(
              400,
              "unknown_vehicle",
              `${row}: this engine is not listed for every year from ${r.yearFrom} to ${r.yearTo}`,
            );
          }
          for (const f of found) {
            values.push({
              productId,
              baseVehicleId: f.id,
              engineId: r.engine ?? null,
              position: r.position || null,
              quantity: r.quantity,
              note: r.note || null,
            });
          }
        }
        await tx.delete(productFitments).where(eq(productFitments.productId, productId));
        if (values.length > 0) {
          await tx.insert(productFitments).values(values).onConflictDoNothing();
        }
        if (actor) {
          await recordAdminAction(tx, {
            actor,
            action: "product.fitment",
            target: { type: "product", id: productId },
            summary: `Set the fitment of ${product.partNumber}: ${input.length} vehicle range${input.length === 1 ? "" : "s"}, ${values.length} model years`,
          });
        }
      });
      return this.fitmentRanges(productId);
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
        make: make ?? null,
        year: result.year,
        notes,
      };
    },

    async garage(userId: string): Promise<GarageVehicle[]> {
      const rows = await db
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
        .innerJoin(baseVehicles, eq(baseVehicles.id, garageVehicles.baseVehicleId))
        .innerJoin(vehicleModels, eq(vehicleModels.id, baseVehicles.modelId))
        .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
        .leftJoin(vehicleEngines, eq(vehicleEngines.id, garageVehicles.engineId))
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

export type FitmentService = ReturnType<typeof createFitmentService>;
