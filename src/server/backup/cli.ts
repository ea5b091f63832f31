// npm run backup -- FOLDER     a consistent backup of the store (running or not) into FOLDER
// npm run restore -- FOLDER    brings FOLDER back into a fresh DATA_DIR (or empty DATABASE_URL)
import fs from "node:fs/promises";
import path from "node:path";
import { ConfigError, loadConfig } from "../config";
import { openDatabase } from "../db/database";
import { restoreBackup, writeBackup, type BackupManifest } from "./backup";

const usage = "usage: npm run backup -- FOLDER | npm run restore -- FOLDER";

async function run(args: string[]): Promise<number> {
  const [command, folder] = args;
  if ((command !== "backup" && command !== "restore") || !folder) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  const quiet = { info: () => {}, warn: (m: string) => console.warn(m) };
  const target = path.resolve(folder);
  if (command === "backup") {
    if (
      await fs.readdir(target).then(
        (f) => f.length > 0,
        () => false,
      )
    ) {
      console.error(`${target} is not empty: give a new folder`);
      return 1;
    }
    const database = await openDatabase({ ...config, attach: true }, quiet);
    try {
      report("backed up into", target, await writeBackup(database, config.dataDir, target));
      return 0;
    } finally {
      await database.close();
    }
  }
  const manifest = JSON.parse(
    await fs.readFile(path.join(target, "manifest.json"), "utf8"),
  ) as BackupManifest;
  if (
    !config.databaseUrl &&
    (await fs.readdir(config.dataDir).then(
      (f) => f.length > 0,
      () => false,
    ))
  ) {
    console.error(`${config.dataDir} is not empty: restore into a fresh DATA_DIR`);
    return 1;
  }
  const database = await openDatabase({ ...config, migrations: manifest.migrationLevel }, quiet);
  try {
    report(
      "restored from",
      target,
      await restoreBackup(database, config.dataDir, target, config.mail),
    );
    return 0;
  } finally {
    await database.close();
  }
}

function report(what: string, folder: string, m: BackupManifest) {
  const rows = Object.values(m.tables).reduce((a, b) => a + b, 0);
  console.log(
    `${what} ${folder}: ${Object.keys(m.tables).length} tables, ${rows} rows, ` +
      `${m.uploads} uploaded files, ${m.queuedMail ?? 0} unsent emails, ` +
      `auth secret ${m.authSecret ? "included" : "not kept in DATA_DIR"}`,
  );
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  },
);
