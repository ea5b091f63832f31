import { asc, eq } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { CsvRowError } from "../../contract/product-csv";
import {
  vehicleAdminMessages,
  type VehicleCsvPreview,
  type VehicleImportCounts,
  type VehicleImportResult,
} from "../../contract/vehicles";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { PG, postgresError } from "../db/postgres-errors";
import { sql } from "../db/sql";
import { sqlInts, sqlNullableInts, sqlTexts } from "../db/sql-arrays";
import { conflict, HttpError } from "../errors";
import {
  baseVehicleEngines,
  baseVehicles,
  vehicleEngines,
  vehicleMakes,
  vehicleModels,
} from "./tables";
import { withModelAndMake } from "./vehicle-joins";
import {
  readVehicleCsv,
  toVehicleCsv,
  type VehicleCsvRecord,
  type VehicleCsvRow,
} from "./vehicle-csv";

/*
 * The vehicle CSV's import and export (docs/vehicles.md). An import finds every name (without
 * regard to case) or adds it, sets the VCdb ids, litres and fuel a row gives (an empty cell
 * leaves them as they are), lists each row's engine for its base vehicle, and never removes
 * anything: importing the export changes nothing. The plan is made from the tables as they are,
 * checked in full (every row's problem, with its line), then written in one transaction.
 */

/** Rows per statement (arrays as one parameter each: one statement shape whatever the size). */
const BATCH = 5000;

const lower = (s: string) => s.toLowerCase();
const k = (...parts: (string | number)[]) => parts.map((p) => lower(String(p))).join("\u0000");

/** A record of the plan: one that exists (`id`) or one to add, its VCdb id and where it was set. */
interface Planned {
  id?: number;
  name: string;
  vcdb: number | null;
  /** The line that set `vcdb` in this file (another line giving another id is an error). */
  vcdbLine?: number;
  changed?: boolean;
}
interface PlannedModel extends Planned {
  makeKey: string;
}
interface PlannedBase {
  id?: number;
  year: number;
  modelKey: string;
  vcdb: number | null;
  vcdbLine?: number;
  changed?: boolean;
}
interface PlannedEngine extends Planned {
  liters: string | null;
  fuel: string | null;
  litersLine?: number;
  fuelLine?: number;
}

/** The tables as they are, read in the transaction that writes (or for a preview). */
async function snapshot(db: DbOrTx) {
  const [makes, models, engines, bases, links] = await Promise.all([
    db.select().from(vehicleMakes),
    db.select().from(vehicleModels),
    db.select().from(vehicleEngines),
    db.select().from(baseVehicles),
    db.select().from(baseVehicleEngines),
  ]);
  return { makes, models, engines, bases, links };
}
type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/** What the file would add and change, and every problem with its line. */
function plan(rows: VehicleCsvRow[], now: Snapshot) {
  const errors: CsvRowError[] = [];
  const makes = new Map<string, Planned>();
  const makeKeyOfId = new Map<number, string>();
  for (const m of now.makes) {
    makes.set(k(m.name), { id: m.id, name: m.name, vcdb: m.vcdbMakeId });
    makeKeyOfId.set(m.id, k(m.name));
  }
  const models = new Map<string, PlannedModel>();
  const modelKeyOfId = new Map<number, string>();
  for (const m of now.models) {
    const makeKey = makeKeyOfId.get(m.makeId)!;
    const key = k(makeKey, m.name);
    models.set(key, { id: m.id, name: m.name, vcdb: m.vcdbModelId, makeKey });
    modelKeyOfId.set(m.id, key);
  }
  const engines = new Map<string, PlannedEngine>();
  for (const e of now.engines) {
    engines.set(k(e.name), {
      id: e.id,
      name: e.name,
      vcdb: e.vcdbEngineConfigId,
      liters: e.liters,
      fuel: e.fuel,
    });
  }
  const bases = new Map<string, PlannedBase>();
  const baseKeyOfId = new Map<number, string>();
  for (const b of now.bases) {
    const modelKey = modelKeyOfId.get(b.modelId)!;
    const key = k(modelKey, b.year);
    bases.set(key, { id: b.id, year: b.year, modelKey, vcdb: b.vcdbBaseVehicleId });
    baseKeyOfId.set(b.id, key);
  }
  const engineKeyOfId = new Map(now.engines.map((e) => [e.id, k(e.name)]));
  const links = new Set(
    now.links.map((l) => k(baseKeyOfId.get(l.baseVehicleId)!, engineKeyOfId.get(l.engineId)!)),
  );
  const newLinks: { baseKey: string; engineKey: string }[] = [];

  /** Who holds each VCdb id, by kind: the key of the record. */
  const holders = {
    make: new Map<number, string>(),
    model: new Map<number, string>(),
    base: new Map<number, string>(),
    engine: new Map<number, string>(),
  };
  for (const [key, m] of makes) if (m.vcdb !== null) holders.make.set(m.vcdb, key);
  for (const [key, m] of models) if (m.vcdb !== null) holders.model.set(m.vcdb, key);
  for (const [key, b] of bases) if (b.vcdb !== null) holders.base.set(b.vcdb, key);
  for (const [key, e] of engines) if (e.vcdb !== null) holders.engine.set(e.vcdb, key);

  const nameOfModel = (key: string) => {
    const m = models.get(key)!;
    return `the ${makes.get(m.makeKey)!.name} ${m.name}`;
  };
  const nameOfBase = (key: string) => {
    const b = bases.get(key)!;
    return `the ${b.year} ${nameOfModel(b.modelKey).slice(4)}`;
  };

  /**
   * Sets a VCdb id a row gives: an error when another record holds it, or when an earlier line
   * of the file gave this record another one.
   */
  function setVcdb(
    record: { vcdb: number | null; vcdbLine?: number; id?: number; changed?: boolean },
    key: string,
    id: number | undefined,
    kind: keyof typeof holders,
    words: { column: string; kind: string; holder: (key: string) => string; self: string },
    line: number,
  ) {
    if (id === undefined || record.vcdb === id) return;
    const holder = holders[kind].get(id);
    if (holder !== undefined && holder !== key) {
      errors.push({
        line,
        column: words.column,
        message: vehicleAdminMessages.vcdbTaken(words.kind, id, words.holder(holder)),
      });
      return;
    }
    if (record.vcdbLine !== undefined) {
      errors.push({
        line,
        column: words.column,
        message: `Line ${record.vcdbLine} gives ${words.self} VCdb ${words.kind} id ${record.vcdb}`,
      });
      return;
    }
    if (record.vcdb !== null) holders[kind].delete(record.vcdb);
    holders[kind].set(id, key);
    record.vcdb = id;
    record.vcdbLine = line;
    if (record.id !== undefined) record.changed = true;
  }

  /** Litres or fuel a row gives an engine: as `setVcdb`, without the holders. */
  function setEngineText(
    engine: PlannedEngine,
    field: "liters" | "fuel",
    value: string | undefined,
    line: number,
  ) {
    if (value === undefined || engine[field] === value) return;
    const lineField = field === "liters" ? "litersLine" : "fuelLine";
    const earlier = engine[lineField];
    if (earlier !== undefined) {
      errors.push({
        line,
        column: field,
        message: `Line ${earlier} gives the ${engine.name} ${field === "liters" ? "litres" : "fuel"} ${engine[field]}`,
      });
      return;
    }
    engine[field] = value;
    engine[lineField] = line;
    if (engine.id !== undefined) engine.changed = true;
  }

  for (const row of rows) {
    const makeKey = k(row.make);
    let make = makes.get(makeKey);
    if (!make) {
      make = { name: row.make, vcdb: null };
      makes.set(makeKey, make);
    }
    setVcdb(
      make,
      makeKey,
      row.vcdbMakeId,
      "make",
      {
        column: "vcdb_make_id",
        kind: "make",
        holder: (h) => makes.get(h)!.name,
        self: make.name,
      },
      row.line,
    );

    const modelKey = k(makeKey, row.model);
    let model = models.get(modelKey);
    if (!model) {
      model = { name: row.model, vcdb: null, makeKey };
      models.set(modelKey, model);
    }
    setVcdb(
      model,
      modelKey,
      row.vcdbModelId,
      "model",
      {
        column: "vcdb_model_id",
        kind: "model",
        holder: nameOfModel,
        self: nameOfModel(modelKey),
      },
      row.line,
    );

    const baseKey = k(modelKey, row.year);
    let base = bases.get(baseKey);
    if (!base) {
      base = { year: row.year, modelKey, vcdb: null };
      bases.set(baseKey, base);
    }
    setVcdb(
      base,
      baseKey,
      row.vcdbBaseVehicleId,
      "base",
      {
        column: "vcdb_base_vehicle_id",
        kind: "base vehicle",
        holder: nameOfBase,
        self: nameOfBase(baseKey),
      },
      row.line,
    );

    if (row.engine) {
      const engineKey = k(row.engine.name);
      let engine = engines.get(engineKey);
      if (!engine) {
        engine = { name: row.engine.name, vcdb: null, liters: null, fuel: null };
        engines.set(engineKey, engine);
      }
      setVcdb(
        engine,
        engineKey,
        row.engine.vcdbEngineConfigId,
        "engine",
        {
          column: "vcdb_engine_config_id",
          kind: "engine config",
          holder: (h) => `the ${engines.get(h)!.name}`,
          self: `the ${engine.name}`,
        },
        row.line,
      );
      setEngineText(engine, "liters", row.engine.liters, row.line);
      setEngineText(engine, "fuel", row.engine.fuel, row.line);
      const linkKey = k(baseKey, engineKey);
      if (!links.has(linkKey)) {
        links.add(linkKey);
        newLinks.push({ baseKey, engineKey });
      }
    }
  }

  const added = <T extends { id?: number }>(m: Map<string, T>) =>
    [...m].filter(([, r]) => r.id === undefined);
  const changed = <T extends { id?: number; changed?: boolean }>(m: Map<string, T>) =>
    [...m.values()].filter((r) => r.id !== undefined && r.changed);
  const counts: VehicleImportCounts = {
    makes: added(makes).length,
    models: added(models).length,
    baseVehicles: added(bases).length,
    engines: added(engines).length,
    engineLinks: newLinks.length,
    updates:
      changed(makes).length +
      changed(models).length +
      changed(bases).length +
      changed(engines).length,
  };
  return { errors, counts, makes, models, bases, engines, newLinks, added, changed };
}
type Plan = ReturnType<typeof plan>;

/** Batches of `items`, BATCH at a time. */
function* batches<T>(items: T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += BATCH) yield items.slice(i, i + BATCH);
}

/** Sets the VCdb id (`column` of `table`) of the makes, models or base vehicles it changes. */
async function setVcdbIds(
  tx: DbOrTx,
  table: PgTable,
  column: AnyPgColumn,
  changed: { id?: number; vcdb: number | null }[],
) {
  for (const chunk of batches(changed)) {
    await tx.execute(sql`update ${table} t set ${sql.identifier(column.name)} = v.vcdb
      from unnest(${sqlInts(chunk.map((r) => r.id!))}, ${sqlNullableInts(chunk.map((r) => r.vcdb))})
        as v(id, vcdb) where t.id = v.id`);
  }
}

/** Writes a checked plan: parents before children, ids of added records filled in as it goes. */
async function write(tx: DbOrTx, p: Plan) {
  for (const chunk of batches(p.added(p.makes))) {
    const made = await tx.execute<{ id: number; name: string }>(sql`insert into ${vehicleMakes}
      (name, vcdb_make_id)
      select * from unnest(${sqlTexts(chunk.map(([, m]) => m.name))},
        ${sqlNullableInts(chunk.map(([, m]) => m.vcdb))})
      returning id, name`);
    for (const r of made.rows) p.makes.get(k(r.name))!.id = r.id;
  }
  await setVcdbIds(tx, vehicleMakes, vehicleMakes.vcdbMakeId, p.changed(p.makes));

  for (const chunk of batches(p.added(p.models))) {
    const made = await tx.execute<{ id: number; make_id: number; name: string }>(sql`insert into
      ${vehicleModels} (make_id, name, vcdb_model_id)
      select * from unnest(${sqlInts(chunk.map(([, m]) => p.makes.get(m.makeKey)!.id!))},
        ${sqlTexts(chunk.map(([, m]) => m.name))}, ${sqlNullableInts(chunk.map(([, m]) => m.vcdb))})
      returning id, make_id, name`);
    const keyOf = new Map(chunk.map(([key, m]) => [k(p.makes.get(m.makeKey)!.id!, m.name), key]));
    for (const r of made.rows) p.models.get(keyOf.get(k(r.make_id, r.name))!)!.id = r.id;
  }
  await setVcdbIds(tx, vehicleModels, vehicleModels.vcdbModelId, p.changed(p.models));

  for (const chunk of batches(p.added(p.engines))) {
    const made = await tx.execute<{ id: number; name: string }>(sql`insert into ${vehicleEngines}
      (name, liters, fuel, vcdb_engine_config_id)
      select * from unnest(${sqlTexts(chunk.map(([, e]) => e.name))},
        ${sqlTexts(chunk.map(([, e]) => e.liters))}, ${sqlTexts(chunk.map(([, e]) => e.fuel))},
        ${sqlNullableInts(chunk.map(([, e]) => e.vcdb))})
      returning id, name`);
    for (const r of made.rows) p.engines.get(k(r.name))!.id = r.id;
  }
  for (const chunk of batches(p.changed(p.engines))) {
    await tx.execute(sql`update ${vehicleEngines} t
      set vcdb_engine_config_id = v.vcdb, liters = v.liters, fuel = v.fuel
      from unnest(${sqlInts(chunk.map((e) => e.id!))}, ${sqlNullableInts(chunk.map((e) => e.vcdb))},
        ${sqlTexts(chunk.map((e) => e.liters))}, ${sqlTexts(chunk.map((e) => e.fuel))})
        as v(id, vcdb, liters, fuel) where t.id = v.id`);
  }

  for (const chunk of batches(p.added(p.bases))) {
    const made = await tx.execute<{ id: number; model_id: number; year: number }>(sql`insert into
      ${baseVehicles} (model_id, year, vcdb_base_vehicle_id)
      select * from unnest(${sqlInts(chunk.map(([, b]) => p.models.get(b.modelKey)!.id!))},
        ${sqlInts(chunk.map(([, b]) => b.year))}, ${sqlNullableInts(chunk.map(([, b]) => b.vcdb))})
      returning id, model_id, year`);
    const keyOf = new Map(chunk.map(([key, b]) => [k(p.models.get(b.modelKey)!.id!, b.year), key]));
    for (const r of made.rows) p.bases.get(keyOf.get(k(r.model_id, r.year))!)!.id = r.id;
  }
  await setVcdbIds(tx, baseVehicles, baseVehicles.vcdbBaseVehicleId, p.changed(p.bases));

  for (const chunk of batches(p.newLinks)) {
    await tx.execute(sql`insert into ${baseVehicleEngines} (base_vehicle_id, engine_id)
      select * from unnest(${sqlInts(chunk.map((l) => p.bases.get(l.baseKey)!.id!))},
        ${sqlInts(chunk.map((l) => p.engines.get(l.engineKey)!.id!))})
      on conflict do nothing`);
  }
}

const countsInWords = (c: VehicleImportCounts) =>
  `${c.makes} new makes, ${c.models} new models, ${c.baseVehicles} new years, ${c.engines} new engines, ${c.engineLinks} engines listed for years, ${c.updates} updates`;

export function createVehicleCsv(db: Db) {
  /** The file's rows, and its problems: the file's own, then those against the tables. */
  async function checked(data: Buffer, tx: DbOrTx) {
    const { rows, errors } = readVehicleCsv(data);
    const p = plan(rows, await snapshot(tx));
    const all = [...errors, ...p.errors].sort((a, b) => a.line - b.line);
    const lines = new Set(all.filter((e) => e.line > 1).map((e) => e.line));
    return { rows: rows.length + lines.size - countLinesOf(rows, lines), errors: all, plan: p };
  }

  return {
    /** What importing the file would do, and every problem with its line; writes nothing. */
    async preview(data: Buffer): Promise<VehicleCsvPreview> {
      const { rows, errors, plan: p } = await checked(data, db);
      return { rows, errors, changes: p.counts };
    },

    /** Imports a file without problems, all or nothing, in one transaction; audited. */
    async import(data: Buffer, actor: AuditActor): Promise<VehicleImportResult> {
      try {
        return await db.transaction(async (tx) => {
          // One import at a time, and no admin change in between: the plan is made from what
          // this transaction reads, and written by it.
          await tx.execute(
            sql`lock table ${vehicleMakes}, ${vehicleModels}, ${vehicleEngines}, ${baseVehicles},
              ${baseVehicleEngines} in share row exclusive mode`,
          );
          const { rows, errors, plan: p } = await checked(data, tx);
          if (errors.length > 0) {
            throw new HttpError(
              400,
              "validation",
              vehicleAdminMessages.importHasErrors(errors.length),
            );
          }
          await write(tx, p);
          await recordAdminAction(tx, {
            actor,
            action: "vehicle.import",
            target: { type: "vehicle-import", id: new Date().toISOString() },
            summary: `Imported a vehicle CSV of ${rows} rows: ${countsInWords(p.counts)}`,
          });
          return { rows, changes: p.counts };
        });
      } catch (err) {
        if (postgresError(err)?.code === PG.uniqueViolation)
          throw conflict(vehicleAdminMessages.importRaced);
        throw err;
      }
    },

    /** Every base vehicle with each of its engines (one row without when it has none), as CSV. */
    async exportCsv(): Promise<string> {
      const rows = await withModelAndMake(
        db
          .select({
            vcdbBaseVehicleId: baseVehicles.vcdbBaseVehicleId,
            year: baseVehicles.year,
            make: vehicleMakes.name,
            vcdbMakeId: vehicleMakes.vcdbMakeId,
            model: vehicleModels.name,
            vcdbModelId: vehicleModels.vcdbModelId,
            engine: vehicleEngines.name,
            vcdbEngineConfigId: vehicleEngines.vcdbEngineConfigId,
            liters: vehicleEngines.liters,
            fuel: vehicleEngines.fuel,
          })
          .from(baseVehicles)
          .$dynamic(),
      )
        .leftJoin(baseVehicleEngines, eq(baseVehicleEngines.baseVehicleId, baseVehicles.id))
        .leftJoin(vehicleEngines, eq(vehicleEngines.id, baseVehicleEngines.engineId))
        .orderBy(
          asc(vehicleMakes.name),
          asc(vehicleModels.name),
          asc(baseVehicles.year),
          asc(vehicleEngines.name),
        );
      return toVehicleCsv(rows satisfies VehicleCsvRecord[]);
    },
  };
}

/** How many of the rows read are on lines that also have a problem (counted once). */
function countLinesOf(rows: VehicleCsvRow[], lines: Set<number>): number {
  return rows.filter((r) => lines.has(r.line)).length;
}

export type VehicleCsv = ReturnType<typeof createVehicleCsv>;
