import type { Readable } from "node:stream";
import { normalizePartNumber } from "../../contract/constants";
import {
  MAX_IMPORT_ERRORS_KEPT,
  type ImportCounts,
  type ImportError,
} from "../../contract/imports";
import type { DbOrTx } from "../db/database";
import { sql } from "../db/sql";
import { sqlNullableInts, sqlTexts } from "../db/sql-arrays";
import { readAces, type AcesApplication, type AcesHeader, type AcesLimits } from "./aces";
import { collectingSooner } from "./collect-sooner";

/**
 * An ACES file in a transaction's temporary tables (docs/imports.md): its applications, staged
 * in batches as the file streams (`aces_apps`), checked against the products and the vehicle
 * list in SQL, and the fitment they ask for (`aces_wanted`, one row per unique key) with the
 * products the file names (`aces_products`). The preview counts from them and rolls back; the
 * import hands them to the catalog's `replaceFitmentsFromStaging`. Memory stays that of one
 * batch, whatever the file's size.
 */

/** The temporary tables `replaceFitmentsFromStaging` reads. */
export const ACES_STAGING = { products: "aces_products", rows: "aces_wanted" } as const;

/** Applications written to the temporary table per statement. */
const BATCH = 2_000;

export interface StagedAces {
  header: AcesHeader;
  counts: ImportCounts;
  /** The first MAX_IMPORT_ERRORS_KEPT, in file order. */
  errors: ImportError[];
}

/**
 * Reads the file `open` gives into the transaction's temporary tables, checks every application,
 * and counts what importing it would change. `onProgress` hears how many applications are
 * staged after each batch. Throws `AcesFileError` for a file it refuses.
 */
export async function stageAces(
  tx: DbOrTx,
  open: () => Promise<Readable>,
  limits: AcesLimits,
  onProgress?: (staged: number) => Promise<void>,
): Promise<StagedAces> {
  await tx.execute(sql`
    create temporary table aces_apps (
      seq integer primary key,
      app_id text not null,
      line integer not null,
      action text not null,
      part text not null,
      part_key text not null,
      base_vehicle integer,
      make integer,
      model integer,
      year_from integer,
      year_to integer,
      submodel integer,
      engine_config integer,
      quantity integer,
      note text,
      problem_kind text,
      problem text
    ) on commit drop`);
  let seq = 0;
  let batch: AcesApplication[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const apps = batch;
    batch = [];
    await insertApps(tx, apps, seq - apps.length);
    await onProgress?.(seq);
  };
  const { header } = await collectingSooner(async () => {
    const read = await readAces(await open(), limits, {
      onApplications: async (apps) => {
        for (const app of apps) {
          seq++;
          batch.push(app);
        }
        if (batch.length >= BATCH) await flush();
      },
    });
    await flush();
    return read;
  });
  await tx.execute(sql`analyze aces_apps`);
  await checkApplications(tx, header.brand);
  return { header, ...(await countChanges(tx)) };
}

async function insertApps(tx: DbOrTx, apps: AcesApplication[], firstSeq: number) {
  const col = <T>(pick: (a: AcesApplication) => T) => apps.map(pick);
  // A deletion is never written, so its problems are nobody's concern.
  const problem = (a: AcesApplication) => (a.action === "A" ? a.problem : undefined);
  await tx.execute(sql`
    insert into aces_apps (seq, app_id, line, action, part, part_key, base_vehicle, make, model,
      year_from, year_to, submodel, engine_config, quantity, note, problem_kind, problem)
    select * from unnest(
      ${sqlNullableInts(apps.map((_, i) => firstSeq + i + 1))},
      ${sqlTexts(col((a) => a.id))},
      ${sqlNullableInts(col((a) => a.line))},
      ${sqlTexts(col((a) => a.action))},
      ${sqlTexts(col((a) => a.part))},
      ${sqlTexts(col((a) => normalizePartNumber(a.part)))},
      ${sqlNullableInts(col((a) => a.baseVehicle ?? null))},
      ${sqlNullableInts(col((a) => a.make ?? null))},
      ${sqlNullableInts(col((a) => a.model ?? null))},
      ${sqlNullableInts(col((a) => a.years?.from ?? null))},
      ${sqlNullableInts(col((a) => a.years?.to ?? null))},
      ${sqlNullableInts(col((a) => a.subModel ?? null))},
      ${sqlNullableInts(col((a) => a.engineConfig ?? null))},
      ${sqlNullableInts(col((a) => a.quantity ?? null))},
      ${sqlTexts(col((a) => a.note))},
      ${sqlTexts(col((a) => problem(a)?.kind ?? null))},
      ${sqlTexts(col((a) => problem(a)?.message ?? null))})`);
}

/**
 * Marks each addition whose part or vehicle we do not have (the first problem of each), then
 * builds the brand's products (those the file names, and those of its brand code) and the
 * fitment rows its good additions ask for.
 */
async function checkApplications(tx: DbOrTx, brand: string) {
  // The file's products: every part it names that we sell, in any application.
  await tx.execute(sql`
    create temporary table aces_products on commit drop as
    select distinct p.id as product_id, p.part_number_normalized as part_key
    from aces_apps a join products p on p.part_number_normalized = a.part_key`);
  await tx.execute(sql`alter table aces_products add primary key (product_id)`);
  // The brand's parts the file no longer names (their brand code is the file's BrandAAIAID, set
  // by a PIES import or an admin): theirs is the brand's fitment too, so it goes. Another
  // brand's parts, and the store's own (no brand code), are never touched.
  await tx.execute(sql`
    insert into aces_products (product_id, part_key)
    select p.id, p.part_number_normalized from products p
    where p.brand_code = ${brand.toUpperCase()}
    on conflict (product_id) do nothing`);
  await tx.execute(sql`
    update aces_apps a set problem_kind = 'unknown_part',
      problem = 'Part "' || a.part || '" is not one of our products'
    where a.problem_kind is null and a.action = 'A'
      and not exists (select 1 from aces_products p where p.part_key = a.part_key)`);
  // Each addition's base vehicles: the one it names, or its make and model's years.
  await tx.execute(sql`
    create temporary table aces_app_vehicles on commit drop as
    select a.seq, b.id as base_vehicle_id
    from aces_apps a join base_vehicles b on b.vcdb_base_vehicle_id = a.base_vehicle
    where a.problem_kind is null and a.action = 'A'
    union all
    select a.seq, b.id
    from aces_apps a
    join vehicle_makes mk on mk.vcdb_make_id = a.make
    join vehicle_models md on md.make_id = mk.id and md.vcdb_model_id = a.model
    join base_vehicles b on b.model_id = md.id and b.year between a.year_from and a.year_to
    where a.problem_kind is null and a.action = 'A' and a.base_vehicle is null`);
  await tx.execute(sql`create index on aces_app_vehicles (seq)`);
  await tx.execute(sql`analyze aces_app_vehicles`);
  await tx.execute(sql`
    update aces_apps a set problem_kind = 'unknown_vehicle',
      problem = case when a.base_vehicle is not null
        then 'BaseVehicle id ' || a.base_vehicle || ' is not in our vehicle list'
        else 'No vehicle in our list has Make id ' || a.make || ', Model id ' || a.model
          || ' and a year from ' || a.year_from || ' to ' || a.year_to end
    where a.problem_kind is null and a.action = 'A'
      and not exists (select 1 from aces_app_vehicles v where v.seq = a.seq)`);
  await tx.execute(sql`
    update aces_apps a set problem_kind = 'unknown_vehicle',
      problem = 'SubModel id ' || a.submodel || ' is not in our vehicle list'
    where a.problem_kind is null and a.action = 'A' and a.submodel is not null
      and not exists (select 1 from vehicle_submodels s where s.vcdb_submodel_id = a.submodel)`);
  await tx.execute(sql`
    update aces_apps a set problem_kind = 'unknown_vehicle',
      problem = 'EngineConfig id ' || a.engine_config || ' is not in our vehicle list'
    where a.problem_kind is null and a.action = 'A' and a.engine_config is not null
      and not exists (
        select 1 from vehicle_engines e where e.vcdb_engine_config_id = a.engine_config)`);
  // The rows the good additions ask for; where two ask for the same key, the first in the file.
  await tx.execute(sql`
    create temporary table aces_wanted on commit drop as
    select distinct on (p.product_id, v.base_vehicle_id, s.id, e.id)
      p.product_id, v.base_vehicle_id, s.id as submodel_id, e.id as engine_id,
      null::text as position, a.quantity, a.note
    from aces_apps a
    join aces_products p on p.part_key = a.part_key
    join aces_app_vehicles v on v.seq = a.seq
    left join vehicle_submodels s on s.vcdb_submodel_id = a.submodel
    left join vehicle_engines e on e.vcdb_engine_config_id = a.engine_config
    where a.problem_kind is null and a.action = 'A'
    order by p.product_id, v.base_vehicle_id, s.id, e.id, a.seq`);
  await tx.execute(sql`create index on aces_wanted (product_id, base_vehicle_id)`);
  await tx.execute(sql`analyze aces_wanted`);
}

/** What importing would change, and the problems, from the staged tables. */
async function countChanges(tx: DbOrTx): Promise<Omit<StagedAces, "header">> {
  const same = sql`w.product_id = f.product_id
    and w.base_vehicle_id = f.base_vehicle_id
    and w.submodel_id is not distinct from f.submodel_id
    and w.engine_id is not distinct from f.engine_id
    and w.position is not distinct from f.position
    and w.quantity = f.quantity
    and w.note is not distinct from f.note`;
  const [row] = (
    await tx.execute<{
      applications: number;
      parts: number;
      errors: number;
      wanted: number;
      vehicles: number;
      unchanged: number;
      removed: number;
    }>(sql`
      select
        (select count(*)::int from aces_apps) as applications,
        (select count(distinct part_key)::int from aces_apps where part_key <> '') as parts,
        (select count(*)::int from aces_apps where problem_kind is not null) as errors,
        (select count(*)::int from aces_wanted) as wanted,
        (select count(distinct base_vehicle_id)::int from aces_wanted) as vehicles,
        (select count(*)::int from aces_wanted w
          where exists (select 1 from product_fitments f where ${same})) as unchanged,
        (select count(*)::int from product_fitments f
          join aces_products p on p.product_id = f.product_id
          where not exists (select 1 from aces_wanted w where ${same})) as removed`)
  ).rows;
  const errors = (
    await tx.execute<{ app_id: string; line: number; kind: ImportError["kind"]; message: string }>(
      sql`select app_id, line, problem_kind as kind, problem as message from aces_apps
        where problem_kind is not null order by seq limit ${MAX_IMPORT_ERRORS_KEPT}`,
    )
  ).rows;
  const r = row!;
  return {
    counts: {
      applications: r.applications,
      parts: r.parts,
      vehicles: r.vehicles,
      rowsToWrite: r.wanted - r.unchanged,
      rowsUnchanged: r.unchanged,
      rowsToRemove: r.removed,
      errorCount: r.errors,
    },
    errors: errors.map((e) => ({
      appId: e.app_id,
      line: e.line,
      kind: e.kind,
      message: e.message,
    })),
  };
}
