import { and, eq, ne } from "drizzle-orm";
import type { AnyPgColumn, PgInsertValue, PgUpdateSetSource } from "drizzle-orm/pg-core";
import { sql, type SQL } from "../db/sql";
import {
  vehicleAdminMessages as say,
  type BaseVehicleRow,
  type VehicleUses,
} from "../../contract/vehicles";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { DbOrTx } from "../db/database";
import { PG, postgresError } from "../db/postgres-errors";
import { conflict, notFound } from "../errors";
import {
  baseVehicleEngines,
  baseVehicles,
  garageVehicles,
  vehicleEngines,
  vehicleMakes,
  vehicleModels,
  vehicleSubmodels,
} from "./tables";
import {
  countWhere,
  namingCondition,
  type VehicleRecord,
  type VehicleReferences,
} from "./references";

/*
 * The vehicle records an admin changes (vehicles/admin.ts): makes, models, engines and submodels
 * as kinds of named record (their table, their words, their audit), and what every change of
 * one does: check names and VCdb ids, lock, add, change, remove, count what still names it.
 */

export type Tx = DbOrTx;

/** A name compared as the product CSV's fitment cell compares it: without regard to case. */
const sameName = (column: AnyPgColumn, name: string) => sql`lower(${column}) = lower(${name})`;

export const vcdbText = (id: number | null | undefined) => (id == null ? "none" : String(id));

/** "name Golf → Golf Mk7, VCdb model id none → 5": what a change changed, for the audit log. */
export function changedInWords(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  labels: Record<string, string>,
): string {
  return Object.entries(labels)
    .filter(([key]) => after[key] !== undefined && after[key] !== before[key])
    .map(
      ([key, label]) =>
        `${label} ${String(before[key] ?? "none")} → ${String(after[key] ?? "none")}`,
    )
    .join(", ");
}

/** A request's refusal under a unique index another change won meanwhile: 409, not 500. */
export const raced = (err: unknown) =>
  postgresError(err)?.code === PG.uniqueViolation
    ? conflict("Another change took that name or VCdb id just now: look again and retry")
    : undefined;

export const inUse = (uses: VehicleUses) =>
  uses.fitmentRows > 0 || uses.garageVehicles > 0 || uses.orderLines > 0;

/** Base vehicles as the admin table shows them, for a condition on `bv`, `md` and `mk`. */
export async function baseVehicleRows(
  db: DbOrTx,
  where: SQL,
  page?: { limit: number; offset: number },
): Promise<BaseVehicleRow[]> {
  const rows = (
    await db.execute<{
      id: number;
      year: number;
      vcdb_base_vehicle_id: number | null;
      make_id: number;
      make_name: string;
      vcdb_make_id: number | null;
      model_id: number;
      model_name: string;
      vcdb_model_id: number | null;
      engines: { id: number; name: string; vcdbEngineConfigId: number | null }[];
    }>(sql`select bv.id, bv.year, bv.vcdb_base_vehicle_id,
        mk.id as make_id, mk.name as make_name, mk.vcdb_make_id,
        md.id as model_id, md.name as model_name, md.vcdb_model_id,
        coalesce((select json_agg(json_build_object('id', e.id, 'name', e.name,
                   'vcdbEngineConfigId', e.vcdb_engine_config_id) order by e.name, e.id)
                  from ${baseVehicleEngines} bve join ${vehicleEngines} e on e.id = bve.engine_id
                  where bve.base_vehicle_id = bv.id), '[]'::json) as engines
      from ${baseVehicles} bv
      join ${vehicleModels} md on md.id = bv.model_id
      join ${vehicleMakes} mk on mk.id = md.make_id
      where ${where}
      order by mk.name, md.name, bv.year desc, bv.id
      ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`)
  ).rows;
  return rows.map((r) => ({
    id: r.id,
    year: r.year,
    vcdbBaseVehicleId: r.vcdb_base_vehicle_id,
    make: { id: r.make_id, name: r.make_name, vcdbMakeId: r.vcdb_make_id },
    model: { id: r.model_id, name: r.model_name, vcdbModelId: r.vcdb_model_id },
    engines: r.engines,
  }));
}

export const label = (bv: { year: number; make: { name: string }; model: { name: string } }) =>
  `${bv.year} ${bv.make.name} ${bv.model.name}`;

/** The tables of named vehicle records: makes, models, engines, submodels. */
export type NamedTable =
  typeof vehicleMakes | typeof vehicleModels | typeof vehicleEngines | typeof vehicleSubmodels;

/** A make, model, engine or submodel as an admin changes it: its table and its words. */
export interface Kind<T extends NamedTable> {
  /** In the audit log: the action `vehicle.<word>-add` on the target `vehicle-<word>`. */
  word: "make" | "model" | "engine" | "submodel";
  table: T;
  /** Its VCdb id and that id's name in a refusal: "VCdb engine config id 7 already belongs to …". */
  vcdb: AnyPgColumn;
  vcdbKind: string;
  /** The records a name must differ from (all, or a model's make's models), and the refusal. */
  among?: SQL;
  taken: (name: string) => string;
  /** How a refusal names the record holding a VCdb id, from `holderName` (default: its name). */
  holderName?: SQL<string>;
  holder: (name: string) => string;
  /** The columns a change names in the audit log, with their words. */
  labels: Record<string, string>;
  /** The 404 of a change to one that is gone. */
  notFound: string;
}

export const makes: Kind<typeof vehicleMakes> = {
  word: "make",
  notFound: say.makeNotFound,
  table: vehicleMakes,
  vcdb: vehicleMakes.vcdbMakeId,
  vcdbKind: "make",
  taken: say.makeTaken,
  holder: (name) => name,
  labels: { name: "name", vcdbMakeId: "VCdb make id" },
};

export const modelsOf = (make: { id: number; name: string }): Kind<typeof vehicleModels> => ({
  word: "model",
  notFound: say.modelNotFound,
  table: vehicleModels,
  vcdb: vehicleModels.vcdbModelId,
  vcdbKind: "model",
  among: eq(vehicleModels.makeId, make.id),
  taken: (name) => say.modelTaken(make.name, name),
  holderName: sql<string>`(select ${vehicleMakes.name} from ${vehicleMakes}
    where ${vehicleMakes.id} = ${vehicleModels.makeId}) || ' ' || ${vehicleModels.name}`,
  holder: (name) => `the ${name}`,
  labels: { name: "name", vcdbModelId: "VCdb model id" },
});

export const engines: Kind<typeof vehicleEngines> = {
  word: "engine",
  notFound: say.engineNotFound,
  table: vehicleEngines,
  vcdb: vehicleEngines.vcdbEngineConfigId,
  vcdbKind: "engine config",
  taken: say.engineTaken,
  holder: (name) => `the ${name}`,
  labels: {
    name: "name",
    liters: "litres",
    fuel: "fuel",
    vcdbEngineConfigId: "VCdb engine config id",
  },
};

export const submodels: Kind<typeof vehicleSubmodels> = {
  word: "submodel",
  notFound: say.submodelNotFound,
  table: vehicleSubmodels,
  vcdb: vehicleSubmodels.vcdbSubmodelId,
  vcdbKind: "submodel",
  taken: say.submodelTaken,
  holder: (name) => name,
  labels: { name: "name", vcdbSubmodelId: "VCdb submodel id" },
};

/** 409 when another record of the kind holds the name (any case) or the VCdb id. */
export async function checkNames(
  tx: Tx,
  kind: Kind<NamedTable>,
  name: string | undefined,
  vcdb: number | null | undefined,
  id = 0,
) {
  const { table } = kind;
  if (name !== undefined) {
    const [taken] = await tx
      .select({ name: table.name })
      .from(table)
      .where(and(kind.among, sameName(table.name, name), ne(table.id, id)));
    if (taken) throw conflict(kind.taken(taken.name));
  }
  if (vcdb != null) {
    const [holder] = await tx
      .select({ name: kind.holderName ?? table.name })
      .from(table)
      .where(and(eq(kind.vcdb, vcdb), ne(table.id, id)));
    if (holder) throw conflict(say.vcdbTaken(kind.vcdbKind, vcdb, kind.holder(holder.name)));
  }
}

/** The audit row of a change to the vehicles: `vehicle.<what>-<verb>` on `type` `id`. */
export const audit = (
  tx: Tx,
  actor: AuditActor,
  action: string,
  type: string,
  id: number,
  summary: string,
) => recordAdminAction(tx, { actor, action, target: { type, id: String(id) }, summary });

/** The audit row of an added, changed or removed make, model, engine or submodel. */
const auditNamed = (
  tx: Tx,
  actor: AuditActor,
  kind: Kind<NamedTable>,
  verb: "add" | "change" | "remove",
  id: number,
  summary: string,
) => audit(tx, actor, `vehicle.${kind.word}-${verb}`, `vehicle-${kind.word}`, id, summary);

/** A record's row after its change, and the audit row saying what changed. */
export async function changed<T extends NamedTable>(
  tx: Tx,
  actor: AuditActor,
  kind: Kind<T>,
  before: T["$inferSelect"],
  title: string,
  set: PgUpdateSetSource<T>,
): Promise<T["$inferSelect"]> {
  // Drizzle cannot type the rows of a generic table's update: they are the table's rows.
  const rows: unknown = await tx
    .update(kind.table)
    .set(set)
    .where(eq(kind.table.id, before.id))
    .returning();
  const [after] = rows as T["$inferSelect"][];
  const words = changedInWords(before, after!, kind.labels) || "nothing";
  await auditNamed(tx, actor, kind, "change", before.id, `Changed ${kind.word} ${title}: ${words}`);
  return after!;
}

/**
 * What still names a vehicle record, counted: the fitment rows and order lines (through their
 * modules' counts) and the garage vehicles.
 */
export async function countUses(
  tx: Tx,
  references: VehicleReferences,
  record: VehicleRecord,
): Promise<VehicleUses> {
  const counted = [
    references.fitmentRows(record),
    countWhere(garageVehicles, namingCondition(record, false)),
    references.orderLines(record),
  ].map((count) => count ?? sql`0`);
  const [row] = (
    await tx.execute<{ fitment: number; garage: number; orders: number }>(sql`select
      ${counted[0]} as fitment, ${counted[1]} as garage, ${counted[2]} as orders`)
  ).rows;
  return { fitmentRows: row!.fitment, garageVehicles: row!.garage, orderLines: row!.orders };
}

/** The record, locked for the change; 404 when it is gone. */
export async function locked<
  T extends typeof vehicleMakes | typeof vehicleEngines | typeof vehicleSubmodels,
>(tx: Tx, kind: Kind<T>, id: number): Promise<T["$inferSelect"]> {
  const table: NamedTable = kind.table;
  const [row] = (await tx
    .select()
    .from(table)
    .where(eq(table.id, id))
    .for("update")) as T["$inferSelect"][];
  if (!row) throw notFound(kind.notFound);
  return row;
}

/** A new record and the audit row naming it: "Added engine 1.4 TSI (…)". */
export async function added<T extends NamedTable>(
  tx: Tx,
  actor: AuditActor,
  kind: Kind<T>,
  values: PgInsertValue<T>,
  summary: (row: T["$inferSelect"]) => string,
): Promise<T["$inferSelect"]> {
  const [row] = await tx.insert(kind.table).values(values).returning();
  await auditNamed(tx, actor, kind, "add", row!.id, `Added ${kind.word} ${summary(row!)}`);
  return row!;
}

/** Deletes the record and writes the audit row saying so. */
export async function removed<T extends NamedTable>(
  tx: Tx,
  actor: AuditActor,
  kind: Kind<T>,
  id: number,
  summary: string,
) {
  await tx.delete(kind.table).where(eq(kind.table.id, id));
  await auditNamed(tx, actor, kind, "remove", id, `Removed ${kind.word} ${summary}`);
}
