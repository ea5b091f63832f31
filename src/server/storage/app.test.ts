import { readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { TestAccount } from "../../../tests/support/accounts";
import { startImportAndWait, uploadImport } from "../../../tests/support/imports";
import { multipart, tinyPng } from "../../../tests/support/multipart";
import { startBrokenS3, startS3Server } from "../../../tests/support/s3-server";
import { testAppWithAdmin } from "../../../tests/support/store";
import type { TestApp } from "../../../tests/support/test-app";
import type { ImportRecord } from "../../contract/imports";
import { catalogImports } from "../imports/tables";
import { importKey } from "../imports/upload";
import { createS3Storage } from "./s3";
import { readAll, STORAGE_UNAVAILABLE_MESSAGE } from "./storage";

/**
 * The store on STORAGE_DRIVER=s3 (docs/storage.md): product images go to the bucket and back,
 * and catalog data files wait there for their import.
 */

let s3: Awaited<ReturnType<typeof startS3Server>>;
let down: Awaited<ReturnType<typeof startBrokenS3>>;
let t: TestApp;
let admin: TestAccount;
let away: TestApp;
let awayAdmin: TestAccount;

const s3Env = (settings: ReturnType<typeof s3.settings>) => ({
  STORAGE_DRIVER: "s3",
  S3_ENDPOINT: settings.endpoint!,
  S3_BUCKET: settings.bucket,
  S3_ACCESS_KEY_ID: settings.credentials!.accessKeyId,
  S3_SECRET_ACCESS_KEY: settings.credentials!.secretAccessKey,
  S3_FORCE_PATH_STYLE: "true",
  S3_TIMEOUT_SECONDS: String(settings.timeoutMs / 1000),
});

beforeAll(async () => {
  s3 = await startS3Server();
  down = await startBrokenS3("down");
  ({ t, admin } = await testAppWithAdmin("s3-admin@example.com", s3Env(s3.settings())));
  ({ t: away, admin: awayAdmin } = await testAppWithAdmin(
    "s3-away-admin@example.com",
    s3Env(down.settings(300)),
  ));
});
afterAll(async () => {
  await t?.close();
  await away?.close();
  await down?.close();
  await s3?.close();
});

const uploadImage = (app: TestApp, who: TestAccount) => {
  const body = multipart({
    field: "image",
    filename: "part.png",
    type: "image/png",
    data: tinyPng,
  });
  return app.app.inject({
    method: "POST",
    url: "/api/products/images",
    headers: { ...body.headers, cookie: who.cookie },
    payload: body.payload,
  });
};

test("a product image goes to the bucket and is served at /uploads/ with a year's caching", async () => {
  const res = await uploadImage(t, admin);
  expect(res.statusCode, res.body).toBe(201);
  const url = res.json().url as string;
  expect(url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
  // In the bucket, under the same key as under DATA_DIR.
  const bucket = createS3Storage(s3.settings());
  try {
    expect((await readAll(await bucket.get(url.slice(1)))).equals(tinyPng)).toBe(true);
  } finally {
    bucket.close();
  }
  const served = await t.app.inject({ method: "GET", url });
  expect(served.statusCode).toBe(200);
  expect(served.headers["content-type"]).toBe("image/png");
  expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(served.rawPayload.equals(tinyPng)).toBe(true);
});

test("a name that is not an uploaded image's is 404, never a bucket key", async () => {
  for (const url of [
    "/uploads/00000000-0000-0000-0000-000000000000.png",
    "/uploads/..%2Fauth-secret",
    "/uploads/x.svg",
  ]) {
    expect((await t.app.inject({ method: "GET", url })).statusCode, url).toBe(404);
  }
});

test("a bucket that is away: the upload and the image answer 503, said plainly", async () => {
  const res = await uploadImage(away, awayAdmin);
  expect(res.statusCode, res.body).toBe(503);
  expect(res.json().message).toBe(STORAGE_UNAVAILABLE_MESSAGE);
  const served = await away.app.inject({
    method: "GET",
    url: "/uploads/00000000-0000-0000-0000-000000000000.png",
  });
  expect(served.statusCode).toBe(503);
});

test("a catalog data file waits in the bucket from its upload until its import ends, so any node can run the import", async () => {
  const pies = readFileSync(
    path.join(import.meta.dirname, "..", "imports", "fixtures", "pies-good.xml"),
    "utf8",
  );
  const res = await uploadImport(t, "pies", pies, admin, "catalog.xml");
  expect(res.statusCode, res.body).toBe(201);
  const record = res.json<ImportRecord>();
  const [row] = await t.database.db
    .select({ storedFile: catalogImports.storedFile })
    .from(catalogImports)
    .where(eq(catalogImports.id, record.id));
  const bucket = createS3Storage(s3.settings());
  const key = importKey(row!.storedFile!);
  expect((await bucket.head(key))?.size).toBe(Buffer.byteLength(pies));

  const done = await startImportAndWait(t, admin, record.id);
  expect(done.status, done.failure ?? "").toBe("done");
  expect(await bucket.head(key)).toBeUndefined();
  bucket.close();
});
