import { and, asc, eq, inArray } from "drizzle-orm";
import type { PgInsertValue, PgUpdateSetSource } from "drizzle-orm/pg-core";
import { sql } from "../db/sql";
import {
  vehicleAdminMessages as say,
  vehicleInUseMessage,
  type AdminEngine,
  type AdminMake,
  type AdminModel,
  type AdminSubmodel,
  type BaseVehicleChange,
  type BaseVehicleRow,
  type BaseVehiclesAdded,
  type BaseVehiclesCreate,
  type EngineChange,
  type EngineCreate,
  type MakeChange,
  type MakeCreate,
  type ModelChange,
  type ModelCreate,
  type SubmodelChange,
  type SubmodelCreate,
  type VehicleNames,
  type VehicleTableQuery,
} from "../../contract/vehicles";
import type { AuditActor } from "../audit/service";
import type { Db } from "../db/database";
import { transactionAnswering } from "../db/postgres-errors";
import { conflict, fieldError, notFound } from "../errors";
import {
  baseVehicleEngines,
  baseVehicles,
  vehicleEngines,
  vehicleMakes,
  vehicleModels,
  vehicleSubmodels,
} from "./tables";
import { type VehicleRecord, type VehicleReferences } from "./references";

import {
  type Kind,
  type Tx,
  vcdbText,
  changedInWords,
  raced,
  inUse,
  baseVehicleRows,
  label,
  makes,
  modelsOf,
  engines,
  submodels,
  checkNames,
  audit,
  changed,
  countUses,
  locked,
  added,
  removed,
} from "./admin-records";

/*
 * The vehicle database for admins (docs/vehicles.md): makes, models, model years (base
 * vehicles) with their engines, engines and submodels, each with the VCdb id an ACES file names
 * it by. Every change is one transaction with its audit row; a removal first counts, in that
 * transaction and with the rows locked, what still names the record (the foreign keys cascade,
 * so the database would otherwise delete fitment rows and garage vehicles with it). Each change
 * makes the vehicle tables' trigger (migration 0055) tell every process's catalog cache.
 */

export function createVehicleAdmin(db: Db, references: VehicleReferences) {
  /** 409 ("This engine is in 2 fitment rows; …") while anything names the record. */
  async function refuseWhileUsed(tx: Tx, subject: string, record: VehicleRecord) {
    const uses = await countUses(tx, references, record);
    if (inUse(uses)) throw conflict(vehicleInUseMessage(subject, uses));
  }

  /** The model with its make's name, locked for the change; 404 when it is gone. */
  async function lockedModel(tx: Tx, id: number) {
    const [model] = await tx
      .select({
        id: vehicleModels.id,
        name: vehicleModels.name,
        makeId: vehicleModels.makeId,
        vcdbModelId: vehicleModels.vcdbModelId,
        makeName: vehicleMakes.name,
      })
      .from(vehicleModels)
      .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
      .where(eq(vehicleModels.id, id))
      .for("update", { of: vehicleModels });
    if (!model) throw notFound(say.modelNotFound);
    return model;
  }
  async function lockedBaseVehicle(tx: Tx, id: number) {
    const [row] = await baseVehicleRows(tx, sql`bv.id = ${id}`);
    if (!row) throw notFound(say.baseVehicleNotFound);
    await tx
      .select({ id: baseVehicles.id })
      .from(baseVehicles)
      .where(eq(baseVehicles.id, id))
      .for("update");
    return row;
  }

  async function checkBaseVehicleVcdb(tx: Tx, vcdb: number | null | undefined, id = 0) {
    if (vcdb == null) return;
    const [holder] = await baseVehicleRows(
      tx,
      sql`bv.vcdb_base_vehicle_id = ${vcdb} and bv.id <> ${id}`,
    );
    if (holder) throw conflict(say.vcdbTaken("base vehicle", vcdb, `the ${label(holder)}`));
  }

  /** The engines of `ids`, all of them, or a 400 on the field. */
  async function enginesOf(tx: Tx, ids: number[]) {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const found = await tx
      .select({ id: vehicleEngines.id, name: vehicleEngines.name })
      .from(vehicleEngines)
      .where(inArray(vehicleEngines.id, unique))
      .orderBy(asc(vehicleEngines.name));
    if (found.length !== unique.length) throw fieldError("engineIds", say.engineNotFound);
    return found;
  }

  const transaction = <T>(work: (tx: Tx) => Promise<T>) => transactionAnswering(db, raced, work);

  /** A new make, engine or submodel (409 on a name or VCdb id taken), named so in the audit log. */
  const createNamed = <
    T extends typeof vehicleMakes | typeof vehicleEngines | typeof vehicleSubmodels,
  >(
    actor: AuditActor,
    kind: Kind<T>,
    vcdb: number | undefined,
    values: PgInsertValue<T> & { name: string },
    summary: (row: T["$inferSelect"]) => string,
  ): Promise<T["$inferSelect"]> =>
    transaction(async (tx) => {
      await checkNames(tx, kind, values.name, vcdb);
      return added(tx, actor, kind, values, summary);
    });

  /** A make, engine or submodel changed by `input` (404 when gone, 409 on a name or VCdb id taken). */
  const changeNamed = <
    T extends typeof vehicleMakes | typeof vehicleEngines | typeof vehicleSubmodels,
  >(
    actor: AuditActor,
    kind: Kind<T>,
    id: number,
    input: PgUpdateSetSource<T> & { name?: string },
    vcdb: number | null | undefined,
  ): Promise<T["$inferSelect"]> =>
    transaction(async (tx) => {
      const before = await locked(tx, kind, id);
      await checkNames(tx, kind, input.name, vcdb, id);
      return changed(tx, actor, kind, before, before.name, input);
    });

  /** An engine or submodel removed (404 when gone, 409 while anything names it). */
  const removeNamed = <T extends typeof vehicleEngines | typeof vehicleSubmodels>(
    actor: AuditActor,
    kind: Kind<T>,
    id: number,
    subject: string,
    record: VehicleRecord,
  ): Promise<void> =>
    transaction(async (tx) => {
      const row = await locked(tx, kind, id);
      await refuseWhileUsed(tx, subject, record);
      await removed(tx, actor, kind, id, row.name);
    });

  return {
    /** Every make with its models, every engine and submodel, with their VCdb ids. */
    async names(): Promise<VehicleNames> {
      const [makes, models, engines, submodels] = await Promise.all([
        db.select().from(vehicleMakes).orderBy(asc(vehicleMakes.name), asc(vehicleMakes.id)),
        db.select().from(vehicleModels).orderBy(asc(vehicleModels.name), asc(vehicleModels.id)),
        db.select().from(vehicleEngines).orderBy(asc(vehicleEngines.name), asc(vehicleEngines.id)),
        db
          .select()
          .from(vehicleSubmodels)
          .orderBy(asc(vehicleSubmodels.name), asc(vehicleSubmodels.id)),
      ]);
      const byMake = new Map<number, AdminModel[]>();
      for (const m of models) {
        const list = byMake.get(m.makeId) ?? [];
        list.push({ id: m.id, name: m.name, makeId: m.makeId, vcdbModelId: m.vcdbModelId });
        byMake.set(m.makeId, list);
      }
      return {
        makes: makes.map((m) => ({ ...m, models: byMake.get(m.id) ?? [] })),
        engines,
        submodels,
      };
    },

    /** One page of base vehicles, filtered by make, model and year, with the total. */
    async table(q: VehicleTableQuery): Promise<{ items: BaseVehicleRow[]; total: number }> {
      const where = sql.join(
        [
          sql`true`,
          ...(q.make !== undefined ? [sql`mk.id = ${q.make}`] : []),
          ...(q.model !== undefined ? [sql`md.id = ${q.model}`] : []),
          ...(q.year !== undefined ? [sql`bv.year = ${q.year}`] : []),
        ],
        sql` and `,
      );
      const [items, counted] = await Promise.all([
        baseVehicleRows(db, where, q),
        db.execute<{ n: number }>(sql`select count(*)::int as n from ${baseVehicles} bv
          join ${vehicleModels} md on md.id = bv.model_id
          join ${vehicleMakes} mk on mk.id = md.make_id where ${where}`),
      ]);
      return { items, total: counted.rows[0]?.n ?? 0 };
    },

    createMake: (actor: AuditActor, input: MakeCreate): Promise<AdminMake> =>
      createNamed(
        actor,
        makes,
        input.vcdbMakeId,
        { name: input.name, vcdbMakeId: input.vcdbMakeId ?? null },
        (make) => `${make.name} (VCdb make id ${vcdbText(make.vcdbMakeId)})`,
      ),

    changeMake: (actor: AuditActor, id: number, input: MakeChange): Promise<AdminMake> =>
      changeNamed(actor, makes, id, input, input.vcdbMakeId),

    removeMake: (actor: AuditActor, id: number): Promise<void> =>
      transaction(async (tx) => {
        const make = await locked(tx, makes, id);
        const ids = sql`select bv.id from ${baseVehicles} bv join ${vehicleModels} md
          on md.id = bv.model_id where md.make_id = ${id}`;
        await tx.execute(sql`${ids} for update of bv`);
        await refuseWhileUsed(tx, "This make", { baseVehicleIds: ids });
        await removed(tx, actor, makes, id, `${make.name} with its models and years`);
      }),

    createModel: (actor: AuditActor, input: ModelCreate): Promise<AdminModel> =>
      transaction(async (tx) => {
        const [make] = await tx
          .select()
          .from(vehicleMakes)
          .where(eq(vehicleMakes.id, input.makeId))
          .for("share");
        if (!make) throw fieldError("makeId", say.makeNotFound);
        const models = modelsOf(make);
        await checkNames(tx, models, input.name, input.vcdbModelId);
        return added(
          tx,
          actor,
          models,
          { makeId: make.id, name: input.name, vcdbModelId: input.vcdbModelId ?? null },
          (model) => `${make.name} ${model.name} (VCdb model id ${vcdbText(model.vcdbModelId)})`,
        );
      }),

    changeModel: (actor: AuditActor, id: number, input: ModelChange): Promise<AdminModel> =>
      transaction(async (tx) => {
        const before = await lockedModel(tx, id);
        const models = modelsOf({ id: before.makeId, name: before.makeName });
        await checkNames(tx, models, input.name, input.vcdbModelId, id);
        return changed(tx, actor, models, before, `${before.makeName} ${before.name}`, input);
      }),

    removeModel: (actor: AuditActor, id: number): Promise<void> =>
      transaction(async (tx) => {
        const model = await lockedModel(tx, id);
        const ids = sql`select bv.id from ${baseVehicles} bv where bv.model_id = ${id}`;
        await tx.execute(sql`${ids} for update`);
        await refuseWhileUsed(tx, "This model", { baseVehicleIds: ids });
        await removed(
          tx,
          actor,
          modelsOf({ id: model.makeId, name: model.makeName }),
          id,
          `${model.makeName} ${model.name} with its years`,
        );
      }),

    createEngine: (actor: AuditActor, input: EngineCreate): Promise<AdminEngine> =>
      createNamed(
        actor,
        engines,
        input.vcdbEngineConfigId,
        {
          name: input.name,
          liters: input.liters ?? null,
          fuel: input.fuel ?? null,
          vcdbEngineConfigId: input.vcdbEngineConfigId ?? null,
        },
        (engine) =>
          `${engine.name} (${engine.liters ?? "?"} l, ${engine.fuel ?? "fuel not given"}, VCdb engine config id ${vcdbText(engine.vcdbEngineConfigId)})`,
      ),

    changeEngine: (actor: AuditActor, id: number, input: EngineChange): Promise<AdminEngine> =>
      changeNamed(actor, engines, id, input, input.vcdbEngineConfigId),

    removeEngine: (actor: AuditActor, id: number): Promise<void> =>
      removeNamed(actor, engines, id, "This engine", { engineId: id }),

    createSubmodel: (actor: AuditActor, input: SubmodelCreate): Promise<AdminSubmodel> =>
      createNamed(
        actor,
        submodels,
        input.vcdbSubmodelId,
        { name: input.name, vcdbSubmodelId: input.vcdbSubmodelId ?? null },
        (submodel) => `${submodel.name} (VCdb submodel id ${vcdbText(submodel.vcdbSubmodelId)})`,
      ),

    changeSubmodel: (
      actor: AuditActor,
      id: number,
      input: SubmodelChange,
    ): Promise<AdminSubmodel> => changeNamed(actor, submodels, id, input, input.vcdbSubmodelId),

    removeSubmodel: (actor: AuditActor, id: number): Promise<void> =>
      removeNamed(actor, submodels, id, "This submodel", { submodelId: id }),

    /**
     * Model years `yearFrom`–`yearTo` of a model: the years not listed yet are added, and every
     * year of the range gets the engines. 409 when that changes nothing.
     */
    addBaseVehicles: (actor: AuditActor, input: BaseVehiclesCreate): Promise<BaseVehiclesAdded> =>
      transaction(async (tx) => {
        const [model] = await tx
          .select({ id: vehicleModels.id, name: vehicleModels.name, make: vehicleMakes.name })
          .from(vehicleModels)
          .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicleModels.makeId))
          .where(eq(vehicleModels.id, input.modelId))
          .for("share", { of: vehicleModels });
        if (!model) throw fieldError("modelId", say.modelNotFound);
        const engines = await enginesOf(tx, input.engineIds ?? []);
        await checkBaseVehicleVcdb(tx, input.vcdbBaseVehicleId);
        const years = Array.from(
          { length: input.yearTo - input.yearFrom + 1 },
          (_, i) => input.yearFrom + i,
        );
        const created = await tx
          .insert(baseVehicles)
          .values(
            years.map((year) => ({
              year,
              modelId: model.id,
              vcdbBaseVehicleId: input.vcdbBaseVehicleId ?? null,
            })),
          )
          .onConflictDoNothing({ target: [baseVehicles.modelId, baseVehicles.year] })
          .returning({ id: baseVehicles.id, year: baseVehicles.year });
        const all = await tx
          .select({ id: baseVehicles.id })
          .from(baseVehicles)
          .where(
            and(
              eq(baseVehicles.modelId, model.id),
              sql`${baseVehicles.year} between ${input.yearFrom} and ${input.yearTo}`,
            ),
          );
        const linked =
          engines.length === 0
            ? []
            : await tx
                .insert(baseVehicleEngines)
                .values(
                  all.flatMap((bv) =>
                    engines.map((e) => ({ baseVehicleId: bv.id, engineId: e.id })),
                  ),
                )
                .onConflictDoNothing()
                .returning({ id: baseVehicleEngines.baseVehicleId });
        const range =
          input.yearFrom === input.yearTo
            ? `${input.yearFrom}`
            : `${input.yearFrom}–${input.yearTo}`;
        const vehicle = `${range} ${model.make} ${model.name}`;
        if (created.length === 0 && linked.length === 0) {
          throw conflict(
            input.yearFrom === input.yearTo && engines.length === 0
              ? say.yearTaken(input.yearFrom, model.make, model.name)
              : say.yearsTaken(`The ${vehicle}`),
          );
        }
        const createdYears = new Set(created.map((c) => c.year));
        const existing = years.filter((y) => !createdYears.has(y));
        await audit(
          tx,
          actor,
          "vehicle.years-add",
          "vehicle-model",
          model.id,
          `Added ${vehicle}: ${created.length} new ${created.length === 1 ? "year" : "years"}${
            existing.length > 0 ? ` (${existing.length} listed already)` : ""
          }${engines.length > 0 ? `, engines ${engines.map((e) => e.name).join(", ")}` : ", no engines"}${
            input.vcdbBaseVehicleId !== undefined
              ? `, VCdb base vehicle id ${input.vcdbBaseVehicleId}`
              : ""
          }`,
        );
        const rows =
          created.length === 0
            ? []
            : await baseVehicleRows(
                tx,
                sql`bv.id in (${sql.join(
                  created.map((c) => sql`${c.id}`),
                  sql`, `,
                )})`,
              );
        return { created: rows.sort((a, b) => a.year - b.year), existing };
      }),

    /** A base vehicle's year, VCdb id or engines (the whole list: those left out are taken off). */
    changeBaseVehicle: (
      actor: AuditActor,
      id: number,
      input: BaseVehicleChange,
    ): Promise<BaseVehicleRow> =>
      transaction(async (tx) => {
        const before = await lockedBaseVehicle(tx, id);
        if (input.year !== undefined && input.year !== before.year) {
          const [taken] = await tx
            .select({ id: baseVehicles.id })
            .from(baseVehicles)
            .where(
              and(eq(baseVehicles.modelId, before.model.id), eq(baseVehicles.year, input.year)),
            );
          if (taken) throw conflict(say.yearTaken(input.year, before.make.name, before.model.name));
        }
        await checkBaseVehicleVcdb(tx, input.vcdbBaseVehicleId, id);
        const changes: string[] = [];
        if (input.year !== undefined || input.vcdbBaseVehicleId !== undefined) {
          await tx
            .update(baseVehicles)
            .set({ year: input.year, vcdbBaseVehicleId: input.vcdbBaseVehicleId })
            .where(eq(baseVehicles.id, id));
          const words = changedInWords(
            { year: before.year, vcdb: before.vcdbBaseVehicleId },
            { year: input.year, vcdb: input.vcdbBaseVehicleId },
            { year: "year", vcdb: "VCdb base vehicle id" },
          );
          if (words) changes.push(words);
        }
        if (input.engineIds !== undefined) {
          const engines = await enginesOf(tx, input.engineIds);
          const wanted = new Set(engines.map((e) => e.id));
          const had = new Set(before.engines.map((e) => e.id));
          const removed = before.engines.filter((e) => !wanted.has(e.id));
          for (const engine of removed) {
            await refuseWhileUsed(tx, `The ${label(before)} with the ${engine.name}`, {
              baseVehicleId: id,
              engineId: engine.id,
            });
          }
          if (removed.length > 0) {
            await tx.delete(baseVehicleEngines).where(
              and(
                eq(baseVehicleEngines.baseVehicleId, id),
                inArray(
                  baseVehicleEngines.engineId,
                  removed.map((e) => e.id),
                ),
              ),
            );
            changes.push(`engines taken off: ${removed.map((e) => e.name).join(", ")}`);
          }
          const added = engines.filter((e) => !had.has(e.id));
          if (added.length > 0) {
            await tx
              .insert(baseVehicleEngines)
              .values(added.map((e) => ({ baseVehicleId: id, engineId: e.id })));
            changes.push(`engines added: ${added.map((e) => e.name).join(", ")}`);
          }
        }
        await audit(
          tx,
          actor,
          "vehicle.year-change",
          "base-vehicle",
          id,
          `Changed the ${label(before)}: ${changes.join("; ") || "nothing"}`,
        );
        const [after] = await baseVehicleRows(tx, sql`bv.id = ${id}`);
        return after!;
      }),

    removeBaseVehicle: (actor: AuditActor, id: number): Promise<void> =>
      transaction(async (tx) => {
        const bv = await lockedBaseVehicle(tx, id);
        await refuseWhileUsed(tx, "This vehicle", { baseVehicleIds: sql`${id}` });
        await tx.delete(baseVehicles).where(eq(baseVehicles.id, id));
        await audit(
          tx,
          actor,
          "vehicle.year-remove",
          "base-vehicle",
          id,
          `Removed the ${label(bv)}`,
        );
      }),
  };
}

export type VehicleAdmin = ReturnType<typeof createVehicleAdmin>;
