import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import type { TestAccount } from "../../../tests/support/accounts";
import { storeForTests } from "../../../tests/support/store";
import { tempFolderForTests } from "../../../tests/support/temp-folder";
import { multipartFiles, tinyGif, tinyPng } from "../../../tests/support/multipart";
import { shippedOrderOfNewPart } from "../../../tests/support/payments";
import { sessionHeaders } from "../../../tests/support/requests";
import { MAX_IMAGE_BYTES } from "../../contract/products";
import { returnMessages } from "../../contract/returns";
import { returnPhotos } from "./tables";
import { user } from "../users/tables";
import { startBrokenS3 } from "../../../tests/support/s3-server";
import { createLocalStorage } from "../storage/local";
import { createS3Storage } from "../storage/s3";
import { createReturnPhotoService } from "./photos";

/** Photos of returns (docs/returns.md, "Photos"): upload checks, storage, who may see them. */

// Photos go to DATA_DIR/return-photos: a folder of this file's own.
const dataDir = tempFolderForTests("return-photos-");
const photoDir = path.join(dataDir, "return-photos");
const { t, call, admin, customer, other } = storeForTests({
  admin: "photos-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "photos-customer@example.com", other: "photos-other@example.com" },
  env: { DATA_DIR: dataDir },
});

const jpegHead = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const webp = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBPVP8 ")]);
const png = (filename = "part.png") => ({ data: tinyPng, filename, type: "image/png" });

/** A requested return of the customer's, of a part they bought, paid and got shipped. */
async function customerReturn(): Promise<string> {
  const { orderId } = await shippedOrderOfNewPart(t, customer, admin, 1, {
    priceCents: 1000,
    availableQuantity: 20,
  });
  const asked = await call(customer, "POST", `/api/orders/${orderId}/returns`, {
    lines: [{ line: 1, qty: 1 }],
    reason: "damaged",
  });
  expect(asked.statusCode, asked.body).toBe(201);
  return asked.json().id as string;
}

type File = Parameters<typeof multipartFiles>[0][number];
const upload = (returnId: string, files: File[], who: TestAccount | null = customer) => {
  const body = multipartFiles(files.map((f) => ({ field: "photos", ...f })));
  return t.app.inject({
    method: "POST",
    url: `/api/returns/${returnId}/photos`,
    headers: { ...body.headers, ...sessionHeaders(who) },
    payload: body.payload,
  });
};
const get = (url: string, who?: TestAccount) => call(who, "GET", url);

const filesOnDisk = async () => (await fs.readdir(photoDir)).sort();
const rowsOf = (returnId: string) =>
  t.database.db.select().from(returnPhotos).where(eq(returnPhotos.returnId, returnId));

test("the customer adds photos; they and admins see them inline, nobody else", async () => {
  const id = await customerReturn();
  const res = await upload(id, [
    png(),
    { data: jpegHead, filename: "side.jpeg", type: "image/jpeg" },
    { data: webp, filename: "box.webp", type: "image/webp" },
  ]);
  expect(res.statusCode, res.body).toBe(201);
  const added = res.json();
  expect(added.map((p: { contentType: string }) => p.contentType)).toEqual([
    "image/png",
    "image/jpeg",
    "image/webp",
  ]);
  expect(added[0]).toMatchObject({ size: tinyPng.length });
  expect(added[0].url).toBe(`/api/returns/${id}/photos/${added[0].id}`);

  // The return lists them, for its customer and the admin.
  const mine = await get(`/api/orders/${(await rowsOfReturn(id)).orderId}/returns`, customer);
  expect(mine.json()[0].photos.map((p: { id: string }) => p.id)).toEqual(
    added.map((p: { id: string }) => p.id),
  );
  const listed = await get("/api/returns?status=requested&limit=100", admin);
  const inList = listed.json().find((r: { id: string }) => r.id === id);
  expect(inList.photos).toHaveLength(3);

  for (const who of [customer, admin]) {
    const photo = await get(added[0].url, who);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers["content-type"]).toBe("image/png");
    expect(photo.headers["x-content-type-options"]).toBe("nosniff");
    expect(photo.headers["content-disposition"]).toBe("inline");
    expect(photo.headers["cache-control"]).toBe("private, no-store");
    expect(photo.rawPayload.equals(tinyPng)).toBe(true);
  }
  expect((await get(added[1].url, customer)).headers["content-type"]).toBe("image/jpeg");
  expect((await get(added[0].url, other)).statusCode).toBe(404);
  expect((await get(added[0].url)).statusCode).toBe(401);
  // A photo id under another return is not found.
  const otherReturn = await customerReturn();
  expect(
    (await get(`/api/returns/${otherReturn}/photos/${added[0].id}`, customer)).statusCode,
  ).toBe(404);

  // Stored under DATA_DIR/return-photos, never in the public uploads folder.
  const rows = await rowsOf(id);
  expect(rows).toHaveLength(3);
  for (const row of rows) expect(await filesOnDisk()).toContain(row.fileName);
  expect((await get(`/uploads/${rows[0]!.fileName}`)).statusCode).toBe(404);
});

async function rowsOfReturn(id: string) {
  const res = await get("/api/returns?limit=100", admin);
  return res.json().find((r: { id: string }) => r.id === id) as { orderId: string };
}

test("the type is sniffed from the bytes: a text file named .jpg, a GIF, an SVG are refused", async () => {
  const id = await customerReturn();
  const before = await filesOnDisk();
  const refused = [
    {
      data: Buffer.from("just some text, not a picture"),
      filename: "fake.jpg",
      type: "image/jpeg",
    },
    { data: tinyGif, filename: "part.gif", type: "image/gif" },
    {
      data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>'),
      filename: "part.svg",
      type: "image/svg+xml",
    },
  ];
  for (const file of refused) {
    // With a good photo in the same upload: nothing of it is kept either.
    const res = await upload(id, [png(), file]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(returnMessages.photoType(file.filename));
  }
  expect(await rowsOf(id)).toHaveLength(0);
  expect(await filesOnDisk()).toEqual(before);
});

test("too big: 413; too many at once or in all: 400; nothing written", async () => {
  const id = await customerReturn();
  const before = await filesOnDisk();
  const big = Buffer.concat([tinyPng, Buffer.alloc(MAX_IMAGE_BYTES)]);
  const tooBig = await upload(id, [png(), { data: big, filename: "big.png", type: "image/png" }]);
  expect(tooBig.statusCode).toBe(413);
  expect(tooBig.json().message).toBe(returnMessages.photoTooLarge(MAX_IMAGE_BYTES));

  const four = await upload(id, [png("1.png"), png("2.png"), png("3.png"), png("4.png")]);
  expect(four.statusCode, four.body).toBe(400);
  expect(four.json().message).toBe(returnMessages.tooManyPhotos(3));
  expect(await rowsOf(id)).toHaveLength(0);
  expect(await filesOnDisk()).toEqual(before);

  // Two, then two more: the second upload would make four.
  expect((await upload(id, [png(), png()])).statusCode).toBe(201);
  const more = await upload(id, [png(), png()]);
  expect(more.statusCode).toBe(400);
  expect(more.json().message).toBe(returnMessages.tooManyPhotos(1));
  expect(await rowsOf(id)).toHaveLength(2);
  expect((await filesOnDisk()).length).toBe(before.length + 2);
  expect((await upload(id, [png()])).statusCode).toBe(201);
  expect((await upload(id, [png()])).json().message).toBe(returnMessages.tooManyPhotos(0));

  // No file at all, or a JSON body.
  expect((await upload(id, [])).statusCode).toBe(400);
  const json = await call(customer, "POST", `/api/returns/${id}/photos`, { photos: [] });
  expect(json.statusCode).toBe(415);
  expect(json.json().message).toBe(returnMessages.noPhoto);
});

test("only the return's customer adds photos, only while it awaits an answer", async () => {
  const id = await customerReturn();
  expect((await upload(id, [png()], null)).statusCode).toBe(401);
  expect((await upload(id, [png()], other)).statusCode).toBe(404);
  expect((await upload(id, [png()], admin)).statusCode).toBe(404);
  expect((await upload("00000000-0000-4000-8000-000000000000", [png()])).statusCode).toBe(404);
  const decided = await call(admin, "POST", `/api/returns/${id}/decision`, { decision: "approve" });
  expect(decided.statusCode).toBe(200);
  const late = await upload(id, [png()]);
  expect(late.statusCode).toBe(409);
  expect(late.json().message).toBe(returnMessages.photosClosed);
  expect(await rowsOf(id)).toHaveLength(0);
});

test("a disk that fills up half-way: the written files are removed, no row stays", async () => {
  const id = await customerReturn();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "return-photos-full-"));
  let writes = 0;
  const storage = await createLocalStorage(dir, {
    // The first photo is written; the second gets a few bytes in, then the disk is full.
    writeFile: (async (file: string, data: Buffer, opts: object) => {
      if (++writes === 1) return fs.writeFile(file, data, opts);
      await fs.writeFile(file, data.subarray(0, 4), opts);
      throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
    }) as typeof fs.writeFile,
  });
  const photos = createReturnPhotoService(t.database.db, storage);
  const [me] = await t.database.db.select().from(user).where(eq(user.email, customer.email));
  const viewer = { id: me!.id, role: me!.role ?? "user" };
  await expect(
    photos.add(id, viewer, [
      { name: "a.png", data: tinyPng },
      { name: "b.png", data: tinyPng },
    ]),
  ).rejects.toMatchObject({ code: "ENOSPC" });
  expect(writes).toBe(2);
  expect(await fs.readdir(path.join(dir, "return-photos"))).toEqual([]);
  expect(await rowsOf(id)).toHaveLength(0);
  await fs.rm(dir, { recursive: true, force: true });
});

test("photos are private on disk: 0600 in a 0700 folder, also an older store's 0644 photo", async () => {
  const res = await upload(await customerReturn(), [png()]);
  expect(res.statusCode, res.body).toBe(201);
  const mode = async (p: string) => (await fs.stat(p)).mode & 0o777;
  expect(await mode(photoDir)).toBe(0o700);
  const names = await fs.readdir(photoDir);
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) expect(await mode(path.join(photoDir, name))).toBe(0o600);

  // A folder left by an older store (0755, a 0644 photo) is made private at the next start.
  const older = await fs.mkdtemp(path.join(os.tmpdir(), "return-photos-old-"));
  const oldDir = path.join(older, "return-photos");
  await fs.mkdir(oldDir, { mode: 0o755 });
  await fs.chmod(oldDir, 0o755);
  await fs.writeFile(path.join(oldDir, "old.png"), tinyPng, { mode: 0o644 });
  await fs.chmod(path.join(oldDir, "old.png"), 0o644);
  await createLocalStorage(older);
  expect(await mode(oldDir)).toBe(0o700);
  expect(await mode(path.join(oldDir, "old.png"))).toBe(0o600);
  await fs.rm(older, { recursive: true, force: true });
});

test("a bucket that is away: the upload is 503 and leaves no row", async () => {
  const id = await customerReturn();
  const down = await startBrokenS3("down");
  const storage = createS3Storage(down.settings(300));
  try {
    const photos = createReturnPhotoService(t.database.db, storage);
    const [me] = await t.database.db.select().from(user).where(eq(user.email, customer.email));
    const viewer = { id: me!.id, role: me!.role ?? "user" };
    await expect(photos.add(id, viewer, [{ name: "a.png", data: tinyPng }])).rejects.toMatchObject({
      statusCode: 503,
    });
    expect(await rowsOf(id)).toHaveLength(0);
  } finally {
    storage.close();
    await down.close();
  }
});
