import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { insertProduct } from "../../../tests/support/factories";
import { createLocalStorage } from "../storage/local";
import { filesMissingAfterRestore, restoreBackup, writeBackup } from "./backup";

let database: TestDatabase;
let tmp: string;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "store-backup-modes-"));
  // A data folder whose files are readable by everyone, as a umask of 022 leaves them.
  dataDir = path.join(tmp, "data");
  await fs.mkdir(path.join(dataDir, "uploads", "products"), { recursive: true, mode: 0o755 });
  await fs.writeFile(path.join(dataDir, "uploads", "products", "a.png"), "png", { mode: 0o644 });
  await fs.writeFile(path.join(dataDir, "auth-secret"), "secret", { mode: 0o644 });
});
afterAll(async () => {
  await database?.close();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

/** Every entry under `dir` (itself included), relative path → permission bits. */
async function modes(dir: string): Promise<Record<string, number>> {
  const found: Record<string, number> = { ".": (await fs.stat(dir)).mode & 0o777 };
  for (const entry of await fs.readdir(dir, { recursive: true })) {
    found[entry] = (await fs.lstat(path.join(dir, entry))).mode & 0o777;
  }
  return found;
}

test.each([
  ["a new folder", false],
  ["an existing folder open to everyone", true],
])(
  "a backup into %s is its owner's alone (folders 0700, files 0600), even with a umask of 000",
  async (name, exists) => {
    const target = path.join(tmp, `backup-${exists ? "existing" : "new"}`);
    if (exists) {
      await fs.mkdir(target);
      await fs.chmod(target, 0o777);
    }
    const umask = process.umask(0o000);
    try {
      await writeBackup(database, dataDir, target);
    } finally {
      process.umask(umask);
    }
    const found = await modes(target);
    for (const entry of [
      "manifest.json",
      "auth-secret",
      "queued-mail.jsonl",
      path.join("tables", "products.jsonl"),
      path.join("tables", "user.jsonl"),
      path.join("uploads", "products", "a.png"),
    ]) {
      expect(found, name).toHaveProperty([entry]);
    }
    const folders = [".", "tables", "uploads", path.join("uploads", "products")];
    for (const [entry, mode] of Object.entries(found)) {
      const want = folders.includes(entry) ? 0o700 : 0o600;
      expect(mode.toString(8), `${name}: ${entry}`).toBe(want.toString(8));
    }
  },
);

test("rate-limit counters are neither backed up nor restored (also from a backup that holds them)", async () => {
  const counters = async (db: TestDatabase) =>
    (await db.db.execute<{ n: number }>(sql`select count(*)::int as n from rate_limit`)).rows[0]!.n;
  await database.db.execute(
    sql`insert into rate_limit (key, window_start, count) values ('auth:ip:203.0.113.9', now(), 999)`,
  );
  expect(await counters(database)).toBe(1);
  const target = path.join(tmp, "backup-counters");
  const manifest = await writeBackup(database, dataDir, target);
  expect(manifest.tables.rate_limit).toBe(0);
  const file = path.join(target, "tables", "rate_limit.jsonl");
  expect(await fs.readFile(file, "utf8")).toBe("");

  // A backup made before counters were left out holds them: the restore loads none.
  await fs.writeFile(
    file,
    `${JSON.stringify({ key: "auth:ip:203.0.113.9", window_start: new Date().toISOString(), count: 999 })}\n`,
  );
  const fresh = await createTestDatabase();
  try {
    await restoreBackup(fresh, path.join(tmp, "restored-counters"), target, {
      retryLimit: 1,
      retryDelaySeconds: 1,
    });
    expect(await counters(fresh)).toBe(0);
  } finally {
    await fresh.close();
  }
});

test("a backup lists the stored files the database refers to, and a restore tells which are missing", async () => {
  const data = path.join(tmp, "data-files");
  const storage = await createLocalStorage(data);
  await storage.put("uploads/present.png", Buffer.from("png"), { contentType: "image/png" });
  await storage.put("return-photos/kept.jpg", Buffer.from("jpg"), { contentType: "image/jpeg" });
  const present = await insertProduct(database.db, {});
  const gone = await insertProduct(database.db, {});
  const elsewhere = await insertProduct(database.db, {});
  for (const [p, img] of [
    [present, "/uploads/present.png"],
    [gone, "/uploads/gone.png"],
    [elsewhere, "https://cdn.example.com/x.png"],
  ] as const) {
    await database.db.execute(sql`update products set img = ${img} where id = ${p.id}`);
  }
  const target = path.join(tmp, "backup-files");
  const manifest = await writeBackup(database, data, target, storage);
  expect(manifest.files).toEqual({ referenced: 2, missing: 1 });
  expect(await fs.readFile(path.join(target, "files.txt"), "utf8")).toBe(
    "uploads/gone.png\nuploads/present.png\n",
  );
  // The private photos are copied too (not only the product images).
  expect(await fs.readFile(path.join(target, "return-photos", "kept.jpg"), "utf8")).toBe("jpg");

  const fresh = await createTestDatabase();
  const restored = path.join(tmp, "restored-files");
  try {
    await restoreBackup(fresh, restored, target, { retryLimit: 1, retryDelaySeconds: 1 });
    const again = await createLocalStorage(restored);
    expect(await filesMissingAfterRestore(again, target)).toEqual(["uploads/gone.png"]);
    expect(await again.head("return-photos/kept.jpg")).toEqual({ size: 3 });
  } finally {
    await fresh.close();
  }
});
