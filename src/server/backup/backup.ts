import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import readline from "node:readline";
import { createReadStream } from "node:fs";
import type pg from "pg";
import PgBoss from "pg-boss";
import { migrateDatabase, migrationLevel, type Database } from "../db/database";
import { inDirectTransaction } from "../db/direct-transaction";
import { JOB_SCHEMA } from "../jobs/queue";
import { MAIL_QUEUE, mailQueueOptions } from "../mail/mailer";
import { areaNames, parseKey, type FileStorage } from "../storage/storage";

/** What `manifest.json` of a backup says. */
export interface BackupManifest {
  format: 1;
  createdAt: string;
  /** How many of the committed migrations the database had applied. */
  migrationLevel: number;
  /** Rows per table of the `public` schema. */
  tables: Record<string, number>;
  authSecret: boolean;
  /** Files copied from the data folder (the local driver's areas; none from a bucket). */
  uploads: number;
  /**
   * The stored files the database refers to (product images, return and warranty photos), listed
   * in `files.txt`, and those the storage did not have when the backup was made.
   */
  files?: { referenced: number; missing: number };
  /** Emails queued but not yet sent (pg-boss's `mail` jobs), kept in `queued-mail.jsonl`. */
  queuedMail?: number;
}

const BATCH = 1000;
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;
const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * Tables whose rows are short-lived state, not the store's data: a backup keeps their definition
 * (the migrations make it) but none of their rows, and a restore loads none (from a backup made
 * before this list existed), nor asks them to be empty. The rate-limit counters are exhausted by
 * the very failed sign-ins that often precede a restore; restored, they refused every sign-in
 * with 429 (issue 30, row 8). The placement facts' version (migration 0042) is a counter the
 * migrations make, which only running processes compare: the new database keeps its own.
 */
export const EPHEMERAL_TABLES: ReadonlySet<string> = new Set(["rate_limit", "placement_facts"]);

/**
 * Tables a migration fills with first rows (warranty failure codes: migration 0064; the home
 * stock location: 0070; the customer groups: 0079): a fresh database has them, and a restore replaces them with the backup's.
 */
const SEEDED_TABLES: ReadonlySet<string> = new Set([
  "warranty_failure_codes",
  "stock_locations",
  "customer_groups",
  "allocation_policy",
  "markets",
  "market_countries",
]);

async function publicTables(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
  );
  return rows.map((r) => r.name);
}

/**
 * Writes a consistent backup of the store into `target` (a new folder): every table of the
 * `public` schema as JSON lines, read in one REPEATABLE READ READ ONLY transaction (one snapshot,
 * while the store keeps running), the migration level, then the uploads and the generated auth
 * secret from the data folder. Of pg-boss's schema only what matters is kept: the emails still
 * waiting to be sent (its other jobs, such as the hold sweeper, are made again at start-up).
 */
export async function writeBackup(
  database: Database,
  dataDir: string,
  target: string,
  storage?: FileStorage,
): Promise<BackupManifest> {
  // Password hashes, reset tokens, addresses: the backup is its owner's alone. The folder is
  // closed first (chmod, as mkdir's mode is cut by the umask and spares a folder that exists),
  // so nothing in it is readable by others while it is written; at the end every file is 0600.
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.mkdir(target, { recursive: true, mode: PRIVATE_DIR });
  await fs.chmod(target, PRIVATE_DIR);
  await fs.mkdir(path.join(target, "tables"), { recursive: true, mode: PRIVATE_DIR });
  const tables: Record<string, number> = {};
  const { level, queuedMail, keys } = await inDirectTransaction(
    database.directUrl,
    async (client) => {
      await client.query("set local statement_timeout = 0");
      await client.query("set local idle_in_transaction_session_timeout = 0");
      await client.query("set local lock_timeout = 0");
      const level = await migrationLevel(client);
      for (const table of await publicTables(client)) {
        const out = createWriteStream(path.join(target, "tables", `${table}.jsonl`), {
          mode: PRIVATE_FILE,
        });
        const rows = EPHEMERAL_TABLES.has(table) ? "where false" : "";
        await client.query(
          `declare backup_rows no scroll cursor for select row_to_json(t)::text as j from ${quoteIdent(table)} t ${rows}`,
        );
        let n = 0;
        for (;;) {
          const { rows } = await client.query<{ j: string }>(`fetch ${BATCH} from backup_rows`);
          if (rows.length === 0) break;
          for (const r of rows) {
            if (!out.write(`${r.j}\n`))
              await new Promise<void>((res) => out.once("drain", () => res()));
          }
          n += rows.length;
        }
        await client.query("close backup_rows");
        await new Promise<void>((res, rej) => {
          out.once("error", rej);
          out.end(() => res());
        });
        tables[table] = n;
      }
      const queuedMail = await writeQueuedMail(client, path.join(target, QUEUED_MAIL_FILE));
      const keys = await referencedFiles(client);
      await fs.writeFile(path.join(target, FILES_LIST), keys.map((k) => `${k}\n`).join(""), {
        mode: PRIVATE_FILE,
      });
      return { level, queuedMail, keys };
    },
    "begin isolation level repeatable read read only",
  );
  // Uploaded files are never changed once written: a copy after the snapshot holds every file
  // the snapshot refers to (and perhaps a newer one, which does no harm).
  // The local driver's folders, private photos included; a bucket's objects stay in the bucket
  // (its own versioning or replication keeps them), listed in files.txt for the restore to check.
  let uploadCount = 0;
  for (const area of areaNames) {
    const folder = path.join(dataDir, area);
    if (storage?.driver === "s3" || !(await exists(folder))) continue;
    await fs.cp(folder, path.join(target, area), { recursive: true });
    uploadCount += (await fs.readdir(path.join(target, area), { recursive: true })).length;
  }
  const secretFile = path.join(dataDir, "auth-secret");
  const authSecret = await exists(secretFile);
  if (authSecret) await fs.copyFile(secretFile, path.join(target, "auth-secret"));
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    migrationLevel: level,
    tables,
    authSecret,
    uploads: uploadCount,
    files: {
      referenced: keys.length,
      missing: storage ? (await missingFiles(storage, keys)).length : 0,
    },
    queuedMail,
  };
  await fs.writeFile(path.join(target, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: PRIVATE_FILE,
  });
  // The copies keep their sources' modes, and a umask may have cut the ones asked for above.
  await makePrivate(target);
  return manifest;
}

/**
 * Brings a backup into an empty database (migrated to the backup's level by the caller) and an
 * empty data folder: rows in with triggers and foreign keys off for the session
 * (`session_replication_role = replica`, so order does not matter and the catalog triggers stay
 * quiet), sequences set past the restored rows, then the migrations committed since the backup.
 */
export async function restoreBackup(
  database: Database,
  dataDir: string,
  source: string,
  mailQueue: { retryLimit: number; retryDelaySeconds: number },
): Promise<BackupManifest> {
  const manifest = JSON.parse(
    await fs.readFile(path.join(source, "manifest.json"), "utf8"),
  ) as BackupManifest;
  if (manifest.format !== 1) throw new Error(`unknown backup format ${String(manifest.format)}`);
  await inDirectTransaction(database.directUrl, async (client) => {
    if ((await migrationLevel(client)) !== manifest.migrationLevel) {
      throw new Error("the database is not at the backup's migration level");
    }
    await client.query("set local statement_timeout = 0");
    await client.query("set local session_replication_role = replica");
    const existing = new Set(await publicTables(client));
    for (const table of Object.keys(manifest.tables)) {
      if (!existing.has(table)) throw new Error(`the backup's table ${table} does not exist`);
      const { rows: present } = await client.query<{ n: string }>(
        `select count(*) as n from ${quoteIdent(table)}`,
      );
      if (Number(present[0]!.n) > 0 && !EPHEMERAL_TABLES.has(table)) {
        if (!SEEDED_TABLES.has(table)) {
          throw new Error(`table ${table} is not empty: restore into a fresh database`);
        }
        // A migration's first rows give way to the backup's (the admin's list as it was).
        await client.query(`delete from ${quoteIdent(table)}`);
      }
      const { rows: cols } = await client.query<{ name: string }>(
        `select column_name as name from information_schema.columns
         where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER'
         order by ordinal_position`,
        [table],
      );
      const list = cols.map((c) => quoteIdent(c.name)).join(", ");
      const insert = `insert into ${quoteIdent(table)} (${list}) overriding system value
        select ${list} from json_populate_recordset(null::${quoteIdent(table)}, $1::json)`;
      let batch: string[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        await client.query(insert, [`[${batch.join(",")}]`]);
        batch = [];
      };
      const lines = readline.createInterface({
        input: createReadStream(path.join(source, "tables", `${table}.jsonl`)),
        crlfDelay: Infinity,
      });
      for await (const line of lines) {
        if (!line || EPHEMERAL_TABLES.has(table)) continue;
        batch.push(line);
        if (batch.length >= BATCH) await flush();
      }
      await flush();
    }
    // Every sequence owned by a column goes past the largest value restored.
    const { rows: seqs } = await client.query<{ tbl: string; col: string; seq: string }>(
      `select c.relname as tbl, a.attname as col, pg_get_serial_sequence(quote_ident(c.relname), a.attname) as seq
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       where n.nspname = 'public' and c.relkind = 'r'
         and pg_get_serial_sequence(quote_ident(c.relname), a.attname) is not null`,
    );
    for (const s of seqs) {
      await client.query(
        `select setval($1, coalesce((select max(${quoteIdent(s.col)}) from ${quoteIdent(s.tbl)}), 0) + 1, false)`,
        [s.seq],
      );
    }
  });
  await migrateDatabase(database);
  await restoreQueuedMail(database, path.join(source, QUEUED_MAIL_FILE), mailQueue);
  await fs.mkdir(dataDir, { recursive: true });
  for (const area of areaNames) {
    if (!(await exists(path.join(source, area)))) continue;
    await fs.cp(path.join(source, area), path.join(dataDir, area), { recursive: true });
  }
  if (manifest.authSecret) {
    await fs.copyFile(path.join(source, "auth-secret"), path.join(dataDir, "auth-secret"));
    await fs.chmod(path.join(dataDir, "auth-secret"), 0o600);
  }
  return manifest;
}

const QUEUED_MAIL_FILE = "queued-mail.jsonl";
/** The keys of the stored files the backup's rows refer to, one a line. */
const FILES_LIST = "files.txt";

/**
 * The storage keys the database refers to: product images uploaded to the store (`/uploads/…`;
 * other addresses are someone else's), return photos and warranty photos.
 */
async function referencedFiles(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ key: string }>(
    `select 'uploads/' || substring(img from 10) as key from products where img like '/uploads/%'
     union select 'return-photos/' || file_name from return_photos
     union select 'warranty-photos/' || file_name from warranty_claim_photos
     order by key`,
  );
  return rows.map((r) => r.key);
}

/** The keys of `keys` that `storage` does not have. */
export async function missingFiles(storage: FileStorage, keys: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const key of keys) {
    try {
      parseKey(key);
    } catch {
      missing.push(key);
      continue;
    }
    if (!(await storage.head(key))) missing.push(key);
  }
  return missing;
}

/** The stored files a backup's rows refer to that `storage` lacks (after a restore: to copy back). */
export async function filesMissingAfterRestore(
  storage: FileStorage,
  source: string,
): Promise<string[] | undefined> {
  const list = path.join(source, FILES_LIST);
  if (!(await exists(list))) return undefined; // a backup made before files were listed
  const keys = (await fs.readFile(list, "utf8")).split("\n").filter(Boolean);
  return missingFiles(storage, keys);
}

/** The mail jobs not yet done (waiting, retrying or being sent), one JSON line each. */
async function writeQueuedMail(client: pg.ClientBase, file: string): Promise<number> {
  const { rows: schema } = await client.query("select 1 from pg_namespace where nspname = $1", [
    JOB_SCHEMA,
  ]);
  if (schema.length === 0) {
    await fs.writeFile(file, "", { mode: PRIVATE_FILE });
    return 0;
  }
  const { rows } = await client.query<{ j: string }>(
    `select json_build_object('id', id, 'data', data)::text as j
     from ${quoteIdent(JOB_SCHEMA)}.job
     where name = $1 and state in ('created', 'retry', 'active')
     order by created_on`,
    [MAIL_QUEUE],
  );
  await fs.writeFile(file, rows.map((r) => `${r.j}\n`).join(""), { mode: PRIVATE_FILE });
  return rows.length;
}

/**
 * Queues the backup's unsent emails again, under their own ids (so an email queued twice is
 * still sent once), through pg-boss itself: it creates its schema in the fresh database.
 */
async function restoreQueuedMail(
  database: Database,
  file: string,
  mailQueue: { retryLimit: number; retryDelaySeconds: number },
): Promise<void> {
  if (!(await exists(file))) return;
  const jobs = (await fs.readFile(file, "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: string; data: object });
  if (jobs.length === 0) return;
  const boss = new PgBoss({
    connectionString: database.directUrl,
    schema: JOB_SCHEMA,
    max: 2,
    schedule: false,
    supervise: false,
  });
  boss.on("error", () => {});
  await boss.start();
  try {
    await boss.createQueue(MAIL_QUEUE, mailQueueOptions(mailQueue));
    await boss.insert(jobs.map((j) => ({ name: MAIL_QUEUE, id: j.id, data: j.data })));
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

/** Every folder under `dir` (itself included) 0700, every file 0600; links are left alone. */
async function makePrivate(dir: string): Promise<void> {
  await fs.chmod(dir, PRIVATE_DIR);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await makePrivate(p);
    else if (entry.isFile()) await fs.chmod(p, PRIVATE_FILE);
  }
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}
