import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/support/test-app";
import { EXPIRED_PREVIEW_MESSAGE, STOPPED_IMPORT_MESSAGE } from "./service";
import { catalogImports } from "./tables";

// The hourly sweep (sweep-job.ts) runs once as the store starts: imports written before it
// started are what it finds.
const dataDir = mkdtempSync(path.join(os.tmpdir(), "import-sweep-test-"));
const folder = path.join(dataDir, "imports");
const hoursAgo = (h: number) => new Date(Date.now() - h * 60 * 60 * 1000);
let t: TestApp;

const record = (fileName: string, fields: Partial<typeof catalogImports.$inferInsert>) => {
  writeFileSync(path.join(folder, `${fileName}.xml`), "<ACES/>");
  return {
    kind: "aces" as const,
    brand: "TSTB",
    fileName,
    storedFile: `${fileName}.xml`,
    status: "previewed" as const,
    createdById: "admin-id",
    createdBy: "admin@example.com",
    ...fields,
  };
};

beforeAll(async () => {
  mkdirSync(folder, { recursive: true });
  t = await createTestApp(
    { DATA_DIR: dataDir },
    {
      seed: async (db) => {
        await db.insert(catalogImports).values([
          record("running-3h", {
            status: "running",
            startedAt: hoursAgo(3),
            createdAt: hoursAgo(3),
          }),
          record("queued-3h", { status: "queued", startedAt: hoursAgo(3), createdAt: hoursAgo(5) }),
          record("running-10min", {
            status: "running",
            startedAt: hoursAgo(1 / 6),
            createdAt: hoursAgo(20),
          }),
          record("previewed-2d", { createdAt: hoursAgo(48) }),
          record("previewed-1h", { createdAt: hoursAgo(1) }),
        ]);
      },
    },
  );
});

afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test("imports stopped for good and uploads never imported are failed, saying why, their files removed; the others are left", async () => {
  const read = () =>
    t.database.db
      .select({
        fileName: catalogImports.fileName,
        status: catalogImports.status,
        failure: catalogImports.failure,
        storedFile: catalogImports.storedFile,
      })
      .from(catalogImports)
      .orderBy(asc(catalogImports.fileName));
  // The sweep fails them, then removes their files one by one: waited for as a whole.
  await expect.poll(read, { timeout: 20_000 }).toEqual([
    {
      fileName: "previewed-1h",
      status: "previewed",
      failure: null,
      storedFile: "previewed-1h.xml",
    },
    {
      fileName: "previewed-2d",
      status: "failed",
      failure: EXPIRED_PREVIEW_MESSAGE,
      storedFile: null,
    },
    { fileName: "queued-3h", status: "failed", failure: STOPPED_IMPORT_MESSAGE, storedFile: null },
    {
      fileName: "running-10min",
      status: "running",
      failure: null,
      storedFile: "running-10min.xml",
    },
    { fileName: "running-3h", status: "failed", failure: STOPPED_IMPORT_MESSAGE, storedFile: null },
  ]);
  expect(existsSync(path.join(folder, "running-3h.xml"))).toBe(false);
  expect(existsSync(path.join(folder, "queued-3h.xml"))).toBe(false);
  expect(existsSync(path.join(folder, "previewed-2d.xml"))).toBe(false);
  expect(existsSync(path.join(folder, "running-10min.xml"))).toBe(true);
});
