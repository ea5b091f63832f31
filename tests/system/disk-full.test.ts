import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { DISK_FULL_MESSAGE, UNAVAILABLE_MESSAGE } from "../../src/server/errors";
import { HttpCustomer } from "../support/http-customer";
import { eventually } from "../support/mailbox";
import { multipart, tinyGif } from "../support/multipart";
import { startServerProcess, type ServerProcess } from "../support/server-process";

// The store's whole data folder (embedded PostgreSQL and uploads) on a small tmpfs, filled to the
// last byte while it runs: writes are refused with a clear 507 (or 503 while PostgreSQL
// recovers), never a 500; a refused upload leaves no file; reads go on; and once space is freed
// the store takes writes again by itself. Mounting needs root, which CI has here.
let mountPoint: string | undefined;
let mounted = false;
let server: ServerProcess | undefined;

afterAll(async () => {
  await server?.stop();
  if (mounted) execFileSync("umount", [mountPoint!]);
  if (mountPoint) await fs.rm(mountPoint, { recursive: true, force: true });
});

/** Writes `file` until the disk refuses more; answers how many bytes went in. */
async function fill(file: string): Promise<number> {
  const handle = await fs.open(file, "a");
  let written = 0;
  try {
    for (const size of [1 << 20, 1 << 12, 1 << 9]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          written += (await handle.write(chunk)).bytesWritten;
        } catch (err) {
          if ((err as { code?: string }).code === "ENOSPC") break;
          throw err;
        }
      }
    }
  } finally {
    await handle.close().catch(() => {});
  }
  return written;
}

test("a full disk: 507 for writes, no partial upload, reads go on, and writes work again once space is freed", async () => {
  mountPoint = await fs.mkdtemp(path.join(os.tmpdir(), "store-disk-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=160m,mode=0755", "tmpfs", mountPoint]);
  } catch (err) {
    throw new Error(
      `this test mounts a small tmpfs and needs root (CI runs as root here): ${String(err)}`,
    );
  }
  mounted = true;
  const dataDir = path.join(mountPoint, "data");
  server = await startServerProcess({
    DATA_DIR: dataDir,
    SEED_DEMO_DATA: "true",
    DEMO_IDENTITY_PROVIDER: "false",
    LOG_LEVEL: "fatal",
    AUTH_RATE_LIMIT_PER_IP: "100000",
    HOLD_NEW_CUSTOMER_SHARE: "1",
    // While the disk is full PostgreSQL may fail to restart: keep trying (every 5 s at most)
    // rather than exit, so that the store recovers once space is freed.
    EMBEDDED_POSTGRES_RESTARTS: "100",
  });
  const url = server.url;
  const admin = new HttpCustomer(url, "admin@example.com", "admin123");
  expect(
    (
      await admin.request("POST", "/api/auth/sign-in/email", {
        email: "admin@example.com",
        password: "admin123",
      })
    ).status,
  ).toBe(200);
  const upload = () => {
    const form = multipart({ data: tinyGif, filename: "part.gif", type: "image/gif" });
    return fetch(`${url}/api/products/images`, {
      method: "POST",
      headers: { ...form.headers, cookie: admin.cookie },
      body: form.payload,
    });
  };
  const uploads = path.join(dataDir, "uploads");
  const before = await fs.readdir(uploads);

  const filler = path.join(mountPoint, "filler");
  const filled = await fill(filler);
  const statvfs = await fs.statfs(mountPoint);
  console.log(
    `disk filled: ${(filled / 2 ** 20).toFixed(1)} MiB written, ${statvfs.bavail} blocks left`,
  );

  // An upload: 507 with the message, and no file left behind. PostgreSQL may free a little space
  // of its own meanwhile (a WAL segment recycled, a temporary file removed): then the upload fits
  // and is stored whole (201); it is removed, the disk topped up again, and the upload retried.
  let refused = await upload();
  for (let attempt = 1; refused.status === 201 && attempt < 5; attempt++) {
    const { url: stored } = (await refused.json()) as { url: string };
    await fs.rm(path.join(uploads, path.basename(stored)));
    await fill(filler);
    refused = await upload();
  }
  expect(refused.status).toBe(507);
  expect(await refused.json()).toEqual({
    error: "insufficient_storage",
    message: DISK_FULL_MESSAGE,
  });
  expect(await fs.readdir(uploads)).toEqual(before);

  // Reads go on.
  expect((await fetch(`${url}/api/products`)).status).toBe(200);

  // Database writes (sign-ups: several rows each) until one is refused: each is either done or
  // refused clearly, never a 500.
  const statuses: number[] = [];
  for (let i = 0; i < 200 && !statuses.some((s) => s !== 200); i++) {
    const res = await new HttpCustomer(url, `full-${i}@example.com`).request(
      "POST",
      "/api/auth/sign-up/email",
      { email: `full-${i}@example.com`, password: "Rotor-Caliper-42", name: `Full ${i}` },
    );
    statuses.push(res.status);
    if (res.status !== 200) {
      const body = (await res.json()) as { message: string };
      expect([DISK_FULL_MESSAGE, UNAVAILABLE_MESSAGE]).toContain(body.message);
    }
  }
  const refusedWrite = statuses.find((s) => s !== 200);
  console.log(`sign-ups on the full disk: ${statuses.length - 1} done, then ${refusedWrite}`);
  expect([507, 503]).toContain(refusedWrite);

  // Space freed: the store takes writes again by itself (no restart of the store).
  await fs.rm(filler);
  const freedAt = Date.now();
  await eventually(
    async () => {
      const res = await new HttpCustomer(url, `after-${Date.now()}@example.com`).request(
        "POST",
        "/api/auth/sign-up/email",
        { email: `after-${Date.now()}@example.com`, password: "Rotor-Caliper-42", name: "After" },
      );
      return res.status === 200 ? true : undefined;
    },
    "a sign-up to succeed once space is freed",
    60_000,
  );
  const writesBackMs = Date.now() - freedAt;
  const accepted = await upload();
  expect(accepted.status).toBe(201);
  const list = await fetch(`${url}/api/products`);
  expect(list.status).toBe(200);
  console.log(`space freed: writes work again after ${writesBackMs} ms`);
}, 180_000);
