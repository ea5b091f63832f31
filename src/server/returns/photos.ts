import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { FastifyMultipartOptions } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { and, asc, count, eq, inArray } from "drizzle-orm";
import { MAX_IMAGE_BYTES } from "../../contract/products";
import {
  MAX_RETURN_PHOTOS,
  RETURN_PHOTO_FIELD,
  returnMessages,
  returnPhotoPath,
  type ReturnPhoto,
  type ReturnPhotoType,
} from "../../contract/returns";
import { detectImageExtension } from "../catalog/images";
import type { Db, DbOrTx } from "../db/database";
import { returnPhotos, returnRequests } from "./tables";
import { HttpError, notFound } from "../errors";
import type { Viewer } from "./service";

/** A photo as received: its bytes and the name the customer's file had (for messages only). */
export interface PhotoUpload {
  name: string;
  data: Buffer;
}

/** Passed to @fastify/multipart: up to MAX_RETURN_PHOTOS files of the store's image size. */
export const photoUploadLimits: FastifyMultipartOptions["limits"] = {
  fileSize: MAX_IMAGE_BYTES,
  files: MAX_RETURN_PHOTOS,
  fields: 0,
  parts: MAX_RETURN_PHOTOS,
};

// The types a return photo may have, by the bytes (GIF, which product images take, is not one).
const typeOf: Record<string, ReturnPhotoType> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};
const extOf: Record<ReturnPhotoType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
};

const badRequest = (message: string) =>
  new HttpError(400, "invalid_photo", message, { [RETURN_PHOTO_FIELD]: message });
const tooLarge = () =>
  new HttpError(413, "too_large", returnMessages.photoTooLarge(MAX_IMAGE_BYTES));

/**
 * Reads every file of a multipart upload into memory (at most MAX_RETURN_PHOTOS of
 * MAX_IMAGE_BYTES each): nothing is stored until all of them have arrived and been checked.
 */
export async function readPhotoUploads(req: FastifyRequest): Promise<PhotoUpload[]> {
  if (!req.isMultipart()) {
    throw new HttpError(415, "unsupported_media_type", returnMessages.noPhoto);
  }
  const photos: PhotoUpload[] = [];
  try {
    for await (const part of req.files()) {
      if (part.fieldname !== RETURN_PHOTO_FIELD) {
        part.file.resume();
        throw badRequest(returnMessages.noPhoto);
      }
      photos.push({ name: part.filename || "A file", data: await part.toBuffer() });
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge();
    if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT") {
      throw badRequest(returnMessages.tooManyPhotos(MAX_RETURN_PHOTOS));
    }
    throw err;
  }
  return photos;
}

const toPhoto = (row: typeof returnPhotos.$inferSelect): ReturnPhoto => ({
  id: row.id,
  contentType: row.contentType,
  size: row.sizeBytes,
  url: returnPhotoPath(row.returnId, row.id),
  createdAt: row.createdAt.toISOString(),
});

/** Photos of these returns, oldest first, by return id. */
export async function photosOfReturns(
  tx: DbOrTx,
  returnIds: string[],
): Promise<Map<string, ReturnPhoto[]>> {
  const byReturn = new Map<string, ReturnPhoto[]>();
  if (returnIds.length === 0) return byReturn;
  const rows = await tx
    .select()
    .from(returnPhotos)
    .where(inArray(returnPhotos.returnId, returnIds))
    .orderBy(asc(returnPhotos.createdAt), asc(returnPhotos.id));
  for (const row of rows) {
    byReturn.set(row.returnId, [...(byReturn.get(row.returnId) ?? []), toPhoto(row)]);
  }
  return byReturn;
}

/** A private folder's and its files' modes: the store's user alone reads them. */
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/**
 * Customers' photos of their returns: private, in DATA_DIR/return-photos, served only through the
 * API, the folder 0700 and every photo 0600 (chmod: mkdir's mode is cut by the umask and spares a
 * folder that exists; photos written by an older store, 0644, are tightened too).
 */
export async function returnPhotoFolder(dataDir: string): Promise<string> {
  const dir = path.join(dataDir, "return-photos");
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
  await fs.chmod(dir, PRIVATE_DIR);
  for (const name of await fs.readdir(dir)) await fs.chmod(path.join(dir, name), PRIVATE_FILE);
  return dir;
}

/**
 * The customer's photos of their returns: files in `dir` (under DATA_DIR, not served statically),
 * a row each in return_photos. Shown only to the return's customer and admins.
 */
export function createReturnPhotoService(
  db: Db,
  dir: string,
  // Replaceable in tests, to fail a write half-way as a full disk does.
  io: { writeFile: typeof fs.writeFile } = { writeFile: fs.writeFile },
) {
  /** The return, when the viewer may see it (its customer or an admin); otherwise 404. */
  async function visibleReturn(tx: DbOrTx, id: string, viewer: Viewer, lock = false) {
    const q = tx.select().from(returnRequests).where(eq(returnRequests.id, id));
    const [row] = lock ? await q.for("update") : await q;
    if (!row || (row.userId !== viewer.id && viewer.role !== "admin")) {
      throw notFound("Return not found");
    }
    return row;
  }

  return {
    /**
     * The return's customer adds photos while it awaits the store's answer (`requested`), up to
     * MAX_RETURN_PHOTOS in all. Every photo is checked (type by its bytes, size) before any is
     * written; a refusal or a failed write (a full disk) leaves no file and no row behind.
     */
    async add(returnId: string, viewer: Viewer, uploads: PhotoUpload[]): Promise<ReturnPhoto[]> {
      if (uploads.length === 0) throw badRequest(returnMessages.noPhoto);
      if (uploads.length > MAX_RETURN_PHOTOS) {
        throw badRequest(returnMessages.tooManyPhotos(MAX_RETURN_PHOTOS));
      }
      const checked = uploads.map((u) => {
        if (u.data.length > MAX_IMAGE_BYTES) throw tooLarge();
        const ext = detectImageExtension(u.data);
        const type = ext ? typeOf[ext] : undefined;
        if (!type) throw badRequest(returnMessages.photoType(u.name));
        return { type, data: u.data, fileName: `${randomUUID()}.${extOf[type]}` };
      });
      const written: string[] = [];
      try {
        return await db.transaction(async (tx) => {
          // Locked: two uploads at once cannot pass the count together.
          const ret = await visibleReturn(tx, returnId, viewer, true);
          if (ret.userId !== viewer.id) throw notFound("Return not found");
          if (ret.status !== "requested") {
            throw new HttpError(409, "return_closed", returnMessages.photosClosed);
          }
          const [had] = await tx
            .select({ n: count() })
            .from(returnPhotos)
            .where(eq(returnPhotos.returnId, returnId));
          const left = MAX_RETURN_PHOTOS - (had?.n ?? 0);
          const at = Date.now();
          if (checked.length > left) throw badRequest(returnMessages.tooManyPhotos(left));
          for (const c of checked) {
            const file = path.join(dir, c.fileName);
            written.push(file);
            // "wx": a fresh random name, never an overwrite.
            await io.writeFile(file, c.data, { flag: "wx", mode: PRIVATE_FILE });
          }
          const rows = await tx
            .insert(returnPhotos)
            .values(
              // A millisecond apart: listed in the order they were sent.
              checked.map((c, i) => ({
                returnId,
                fileName: c.fileName,
                contentType: c.type,
                sizeBytes: c.data.length,
                createdAt: new Date(at + i),
              })),
            )
            .returning();
          return rows.map(toPhoto);
        });
      } catch (err) {
        // A refusal, a full disk mid-write or a failed commit: no file stays without its row.
        await Promise.all(written.map((f) => fs.rm(f, { force: true })));
        throw err;
      }
    },

    /** One photo's bytes and type, for the return's customer or an admin. */
    async read(returnId: string, photoId: string, viewer: Viewer) {
      await visibleReturn(db, returnId, viewer);
      const [row] = await db
        .select()
        .from(returnPhotos)
        .where(and(eq(returnPhotos.id, photoId), eq(returnPhotos.returnId, returnId)));
      if (!row) throw notFound("Photo not found");
      try {
        const bytes = await fs.readFile(path.join(dir, row.fileName));
        return { contentType: row.contentType, bytes };
      } catch (err) {
        if ((err as { code?: string }).code === "ENOENT") throw notFound("Photo not found");
        throw err;
      }
    },
  };
}

export type ReturnPhotoService = ReturnType<typeof createReturnPhotoService>;
