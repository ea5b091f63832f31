import { plural } from "../../contract/count";
import { asc, eq, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import type {
  FitmentDetail,
  FitmentRange,
  FitmentRangeInput,
  ProductFitment,
} from "../../contract/vehicles";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db } from "../db/database";
import { HttpError, notFound } from "../errors";
import { countWhere, namingCondition, type VehicleReferenceCount } from "../vehicles/references";
import type { VehicleMatch } from "../vehicles/service";
import { withVehicleNames } from "../vehicles/vehicle-joins";
import {
  baseVehicleEngines,
  baseVehicles,
  vehicleEngines,
  vehicleMakes,
  vehicleModels,
  vehicleSubmodels,
} from "../vehicles/tables";
import { productIdColumn } from "./search";
import { productFitments, products } from "./tables";
import { replaceFitments } from "./writes";

/**
 * Which vehicles a product fits (ACES applications, one row per model year): the catalog owns
 * them, as it owns the products; the vehicles themselves are the vehicles module's.
 */

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

/** A product's fitment: read for shoppers and for the admin's form, replaced by an admin. */
/** The fitment rows naming a vehicle record, for the vehicle admin's removals. */
export const fitmentRowsNaming: VehicleReferenceCount = (record) =>
  countWhere(productFitments, namingCondition(record, true));

/** One fitment row of a product, as its applications are made from it. */
interface ApplicationRow extends FitmentDetail {
  make: string;
  model: string;
  year: number;
}

/**
 * The fitment rows of the product in the statement's `products` row, as one JSON value in make,
 * model and year order: for reads that take them in their own statement (a part's page).
 */
export const applicationRowsJson = sql<ApplicationRow[]>`(
  select coalesce(json_agg(json_build_object(
      'make', mk.name, 'model', md.name, 'year', bv.year, 'engine', en.name,
      'submodel', sm.name, 'position', f.position, 'quantity', f.quantity, 'note', f.note
    ) order by mk.name, md.name, bv.year), '[]')
  from ${productFitments} f
  join ${baseVehicles} bv on bv.id = f.base_vehicle_id
  join ${vehicleModels} md on md.id = bv.model_id
  join ${vehicleMakes} mk on mk.id = md.make_id
  left join ${vehicleEngines} en on en.id = f.engine_id
  left join ${vehicleSubmodels} sm on sm.id = f.submodel_id
  where f.product_id = ${productIdColumn})`;

/** Applications by make and model, rows alike in all but year merged, the years as ranges. */
export function groupApplications(rows: ApplicationRow[]): ProductFitment["applications"] {
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
}

/** What a fitment row says of the part on its vehicle: where it goes, how many, a note. */
export const fitmentApplication = {
  position: productFitments.position,
  quantity: productFitments.quantity,
  note: productFitments.note,
};

export function createProductFitment(db: Db) {
  /** The rows of one product that apply to the vehicle (empty: it does not fit). */
  async function fitOf(productId: string, v: VehicleMatch): Promise<FitmentDetail[]> {
    const [row] = (
      await db.execute<{ details: string | null }>(
        sql`select ${fitDetailsColumn(sql`${productId}::uuid`, v)} as details`,
      )
    ).rows;
    return row?.details ? (JSON.parse(row.details) as FitmentDetail[]) : [];
  }

  /** The vehicles a product fits: by make and model, rows alike in all but year merged. */
  async function applications(productId: string): Promise<ProductFitment["applications"]> {
    const [row] = await db
      .select({ rows: applicationRowsJson })
      .from(products)
      .where(eq(products.id, productId));
    return groupApplications(row?.rows ?? []);
  }

  /** A product's fitment for the admin form: rows alike in all but year folded into ranges. */
  async function fitmentRanges(productId: string): Promise<FitmentRange[]> {
    const rows = await withVehicleNames(
      db
        .select({
          makeId: vehicleMakes.id,
          makeName: vehicleMakes.name,
          modelId: vehicleModels.id,
          modelName: vehicleModels.name,
          year: baseVehicles.year,
          engineId: vehicleEngines.id,
          engineName: vehicleEngines.name,
          ...fitmentApplication,
        })
        .from(productFitments)
        .$dynamic(),
      productFitments,
    )
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
  }

  /**
   * Replaces a product's fitment with these ranges (one row per year), all or nothing: a range
   * naming a year the model was not built in, or an engine it did not have, is a 400 naming
   * the row.
   */
  async function replaceFitment(
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
      await replaceFitments(tx, [productId], values);
      if (actor) {
        await recordAdminAction(tx, {
          actor,
          action: "product.fitment",
          target: { type: "product", id: productId },
          summary: `Set the fitment of ${product.partNumber}: ${plural(input.length, "vehicle range")}, ${values.length} model years`,
        });
      }
    });
    return fitmentRanges(productId);
  }

  return { fitOf, applications, fitmentRanges, replaceFitment };
}

export type ProductFitmentService = ReturnType<typeof createProductFitment>;
