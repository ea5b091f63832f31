import { mkdtempSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/**
 * A folder of the test file's own in the system's temporary folder (its name starts with
 * `prefix`), made at once and removed with all it holds when the file's tests end (afterAll): a
 * store's DATA_DIR, say, set before the app starts.
 */
export function tempFolderForTests(prefix: string): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rm(folder, { recursive: true, force: true }));
  return folder;
}
