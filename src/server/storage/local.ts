import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import {
  areaNames,
  fileNotFound,
  parseKey,
  storageAreas,
  storageKey,
  type FileStorage,
  type StorageArea,
} from "./storage";

/** A private area's folder and files: the store's user alone reads them. */
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

const isMissing = (err: unknown) => (err as { code?: string }).code === "ENOENT";

/** Writes files; replaceable in tests, to fail a write half-way as a full disk does. */
export interface LocalIo {
  writeFile: typeof fs.writeFile;
}

/**
 * The local driver: each area is a folder of `dataDir` (`uploads/`, `return-photos/`,
 * `warranty-photos/`), as the store kept its files before the storage module. Private areas are
 * 0700 with files 0600 (chmod at start: mkdir's mode is cut by the umask and spares a folder that
 * exists; files written by an older store, 0644, are tightened too).
 */
export async function createLocalStorage(
  dataDir: string,
  io: LocalIo = { writeFile: fs.writeFile },
): Promise<FileStorage & { folder(area: StorageArea): string }> {
  const folder = (area: StorageArea) => path.join(dataDir, area);
  for (const area of areaNames) {
    const dir = folder(area);
    if (!storageAreas[area].private) {
      await fs.mkdir(dir, { recursive: true });
      continue;
    }
    await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
    await fs.chmod(dir, PRIVATE_DIR);
    for (const file of await fs.readdir(dir)) await fs.chmod(path.join(dir, file), PRIVATE_FILE);
  }
  const fileOf = (key: string) => {
    const { area, name } = parseKey(key);
    return {
      file: path.join(folder(area), name),
      mode: storageAreas[area].private ? 0o600 : 0o644,
    };
  };

  return {
    driver: "local",
    folder,

    async put(key, body) {
      const { file, mode } = fileOf(key);
      try {
        // "wx": a fresh random name, never an overwrite.
        if (Buffer.isBuffer(body)) await io.writeFile(file, body, { flag: "wx", mode });
        else await pipeline(body, createWriteStream(file, { flags: "wx", mode }));
      } catch (err) {
        // A write cut short (a full disk: answered 507) leaves no partial file behind; a name
        // already taken is not ours to remove.
        if ((err as { code?: string }).code !== "EEXIST") await fs.rm(file, { force: true });
        throw err;
      }
    },

    async get(key) {
      const { file } = fileOf(key);
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(file, "r");
      } catch (err) {
        if (isMissing(err)) throw fileNotFound();
        throw err;
      }
      const { size } = await handle.stat();
      return { body: handle.createReadStream(), size };
    },

    async head(key) {
      try {
        return { size: (await fs.stat(fileOf(key).file)).size };
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },

    async remove(key) {
      await fs.rm(fileOf(key).file, { force: true });
    },

    async *list(area) {
      const dir = folder(area);
      for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
        if (!entry.isFile()) continue;
        let key: string;
        try {
          key = storageKey(area, entry.name);
        } catch {
          continue; // not a file the store wrote (a stray editor backup, a dot file)
        }
        yield { key, size: (await fs.stat(path.join(dir, entry.name))).size };
      }
    },

    close() {},
  };
}
