import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBrokenS3, startS3Server } from "../../../tests/support/s3-server";
import { loadConfig } from "../config";
import { HttpError } from "../errors";
import { copyFiles } from "./copy";
import { createLocalStorage } from "./local";
import { createS3Storage } from "./s3";
import { readAll, storageKey, type FileStorage } from "./storage";

let dataDir: string;
let s3: Awaited<ReturnType<typeof startS3Server>>;
const logged: string[] = [];
const drivers: Record<"local" | "s3", FileStorage> = {} as never;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "storage-"));
  s3 = await startS3Server();
  drivers.local = await createLocalStorage(dataDir);
  drivers.s3 = createS3Storage(s3.settings(), (m) => logged.push(m));
});

afterAll(async () => {
  drivers.s3?.close();
  await s3?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const bytes = (n: number, seed = 1) => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed) & 0xff;
  return b;
};
const newKey = (area: "uploads" | "return-photos" = "uploads") =>
  storageKey(area, `${randomUUID()}.jpg`);
const statusOf = (p: Promise<unknown>) =>
  p.then(
    () => "resolved",
    (err: unknown) => (err instanceof HttpError ? err.statusCode : err),
  );

// The same suite against both drivers: what the store's code may count on from either.
describe.each(["local", "s3"] as const)("the %s driver", (name) => {
  const storage = () => drivers[name];

  test("a file put from a Buffer is read back whole, with its size", async () => {
    const key = newKey();
    const data = bytes(200_000);
    await storage().put(key, data, { contentType: "image/jpeg" });
    const file = await storage().get(key);
    expect(file.size).toBe(data.length);
    expect((await readAll(file)).equals(data)).toBe(true);
    expect(await storage().head(key)).toEqual({ size: data.length });
  });

  test("a file put from a stream (several chunks, larger than one part) is read back whole", async () => {
    const key = newKey("return-photos");
    const parts = [bytes(3 * 1024 * 1024, 2), bytes(3 * 1024 * 1024, 3), bytes(1000, 4)];
    await storage().put(key, Readable.from(parts), { contentType: "image/png" });
    const back = await readAll(await storage().get(key));
    expect(back.equals(Buffer.concat(parts))).toBe(true);
  });

  test("a missing file is 404 to get and undefined to head; removing it is no error", async () => {
    const key = newKey();
    expect(await statusOf(storage().get(key))).toBe(404);
    expect(await storage().head(key)).toBeUndefined();
    await storage().remove(key);
  });

  test("a removed file is gone", async () => {
    const key = newKey();
    await storage().put(key, bytes(10), { contentType: "image/jpeg" });
    await storage().remove(key);
    expect(await storage().head(key)).toBeUndefined();
  });

  test("an area lists its own files only, with their sizes", async () => {
    const mine = storageKey("warranty-photos", `${randomUUID()}.webp`);
    const other = newKey("uploads");
    await storage().put(mine, bytes(123), { contentType: "image/webp" });
    await storage().put(other, bytes(7), { contentType: "image/jpeg" });
    const listed = [];
    for await (const f of storage().list("warranty-photos")) listed.push(f);
    expect(listed).toContainEqual({ key: mine, size: 123 });
    expect(listed.map((f) => f.key)).not.toContain(other);
  });

  test("keys outside the store's areas, or with a path in the name, are refused", async () => {
    for (const key of ["postgres/x", "uploads/../auth-secret", "uploads/a/b.jpg", "uploads/.x"]) {
      await expect(storage().put(key, bytes(1), { contentType: "image/jpeg" })).rejects.toThrow(
        /not a stored file/,
      );
      await expect(storage().get(key)).rejects.toThrow(/not a stored file/);
    }
  });
});

test("the local driver keeps private areas 0700 and their files 0600", async () => {
  const key = newKey("return-photos");
  await drivers.local.put(key, bytes(10), { contentType: "image/jpeg" });
  const mode = async (p: string) => (await fs.stat(p)).mode & 0o777;
  expect(await mode(path.join(dataDir, "return-photos"))).toBe(0o700);
  expect(await mode(path.join(dataDir, key))).toBe(0o600);
});

test("a local write that fails half-way (a full disk) leaves no file", async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "storage-full-"));
  const full = await createLocalStorage(dir, {
    writeFile: (async (file: string, data: Buffer) => {
      await fs.writeFile(file, data.subarray(0, 5));
      throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
    }) as unknown as typeof fs.writeFile,
  });
  const key = newKey();
  await expect(full.put(key, bytes(100), { contentType: "image/jpeg" })).rejects.toThrow(/ENOSPC/);
  expect(await fs.readdir(path.join(dir, "uploads"))).toEqual([]);
  await fs.rm(dir, { recursive: true, force: true });
});

// A bucket that is down or slow answers 503 (never a hang, never a 500): each call is bounded.
describe.each(["down", "slow"] as const)("a bucket that is %s", (kind) => {
  test("answers 503 to uploads (Buffer and stream), downloads, look-ups and removals", async () => {
    const broken = await startBrokenS3(kind);
    const messages: string[] = [];
    const storage = createS3Storage(broken.settings(300), (m) => messages.push(m));
    try {
      const key = newKey();
      expect(await statusOf(storage.put(key, bytes(1000), { contentType: "image/jpeg" }))).toBe(
        503,
      );
      expect(
        await statusOf(
          storage.put(key, Readable.from([bytes(1000)]), { contentType: "image/jpeg" }),
        ),
      ).toBe(503);
      expect(await statusOf(storage.get(key))).toBe(503);
      expect(await statusOf(storage.head(key))).toBe(503);
      expect(await statusOf(storage.remove(key))).toBe(503);
      // Said in the log without the settings' secrets.
      expect(messages.length).toBeGreaterThan(0);
      expect(messages.join("\n")).not.toContain("S3RVER");
      if (kind === "slow") expect(broken.connections()).toBeGreaterThan(0);
    } finally {
      storage.close();
      await broken.close();
    }
  });
});

test("the copy to the bucket copies every area's files once, and again copies nothing", async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "storage-copy-"));
  const local = await createLocalStorage(dir);
  const keys = [newKey("uploads"), newKey("return-photos"), storageKey("warranty-photos", "a.png")];
  for (const [i, key] of keys.entries()) {
    await local.put(key, bytes(1000 + i, i), { contentType: "image/jpeg" });
  }
  // A file the store did not write is not copied.
  await fs.writeFile(path.join(dir, "uploads", ".DS_Store"), "x");
  const bucket = createS3Storage(s3.settings());
  // One of them already there, cut short by an earlier copy: replaced whole.
  await bucket.put(keys[2]!, bytes(10), { contentType: "image/png" });
  try {
    expect(await copyFiles(local, bucket)).toEqual({ copied: 3, skipped: 0, bytes: 3003 });
    for (const [i, key] of keys.entries()) {
      expect((await readAll(await bucket.get(key))).equals(bytes(1000 + i, i))).toBe(true);
    }
    expect(await copyFiles(local, bucket)).toEqual({ copied: 0, skipped: 3, bytes: 0 });
    // Stored with the type its name says.
    expect((await bucket.get(keys[0]!)).contentType).toBe("image/jpeg");
  } finally {
    bucket.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test("the storage settings: local by default; s3 needs a bucket, both keys or neither, a timeout inside the deadline", () => {
  expect(loadConfig({}).storage).toEqual({ driver: "local" });
  expect(
    loadConfig({
      STORAGE_DRIVER: "s3",
      S3_BUCKET: "store-files",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "true",
    }).storage,
  ).toEqual({
    driver: "s3",
    bucket: "store-files",
    endpoint: "http://127.0.0.1:9000",
    region: "us-east-1",
    credentials: { accessKeyId: "id", secretAccessKey: "secret" },
    forcePathStyle: true,
    timeoutMs: 5000,
  });
  expect(() => loadConfig({ STORAGE_DRIVER: "s3" })).toThrow(/STORAGE_DRIVER=s3 needs S3_BUCKET/);
  expect(() => loadConfig({ S3_ACCESS_KEY_ID: "id" })).toThrow(/set both or neither/);
  expect(() =>
    loadConfig({ STORAGE_DRIVER: "s3", S3_BUCKET: "files", S3_TIMEOUT_SECONDS: "20" }),
  ).toThrow(/less than half of REQUEST_TIMEOUT_SECONDS/);
});
