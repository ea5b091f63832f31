// npm run backup -- FOLDER     a consistent backup of the store (running or not) into FOLDER
// npm run restore -- FOLDER    brings FOLDER back into a fresh DATA_DIR (or empty DATABASE_URL)
import fs from "node:fs/promises";
import path from "node:path";
import { ConfigError, loadConfig } from "../config";
import { openDatabase } from "../db/database";
import { createStorage } from "../storage/create";
import {
  filesMissingAfterRestore,
  restoreBackup,
  writeBackup,
  type BackupManifest,
} from "./backup";

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
      const storage = await createStorage(config.storage, config.dataDir, console.warn);
      try {
        const manifest = await writeBackup(database, config.dataDir, target, storage);
        report("backed up into", target, manifest);
        if (manifest.files?.missing) {
          console.warn(
            `${manifest.files.missing} of the files the database refers to are missing from the ${storage.driver} storage (their keys are in ${path.join(target, "files.txt")})`,
          );
        }
      } finally {
        storage.close();
      }
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
    // The files the rows refer to: copied back into DATA_DIR above (local), or still in the bucket.
    const storage = await createStorage(config.storage, config.dataDir, console.warn);
    try {
      const missing = await filesMissingAfterRestore(storage, target);
      if (missing === undefined) console.log("the backup lists no files (made before file lists)");
      else if (missing.length === 0)
        console.log(`every file the database refers to is in the ${storage.driver} storage`);
      else {
        console.warn(
          `${missing.length} files the database refers to are missing from the ${storage.driver} storage:`,
        );
        for (const key of missing) console.warn(`  ${key}`);
      }
    } finally {
      storage.close();
    }
    return 0;
  } finally {
    await database.close();
  }
}

function report(what: string, folder: string, m: BackupManifest) {
  const rows = Object.values(m.tables).reduce((a, b) => a + b, 0);
  console.log(
    `${what} ${folder}: ${Object.keys(m.tables).length} tables, ${rows} rows, ` +
      `${m.uploads} files copied, ${m.files?.referenced ?? "unlisted"} files referred to, ` +
      `${m.queuedMail ?? 0} unsent emails, ` +
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
