import { randomUUID } from "node:crypto";
import type { FastifyMultipartOptions } from "@fastify/multipart";
import type { FastifyReply, FastifyRequest } from "fastify";
import { MAX_IMAGE_BYTES } from "../../contract/products";
import { detectImageExtension } from "../catalog/images";
import { HttpError, notFound } from "../errors";
import {
  storageKey,
  type FileStorage,
  type StorageArea,
  type StoredFile,
} from "../storage/storage";

/**
 * Customers' private photos (a return's, a warranty claim's): read from a multipart upload, checked
 * by their bytes, written to a private area of the file storage (src/server/storage: a folder of
 * DATA_DIR never served statically, or the bucket), and read back only through the owning module's
 * checks. The module keeps the rows; this keeps the files.
 */

export const privatePhotoTypes = ["image/jpeg", "image/png", "image/webp"] as const;
export type PrivatePhotoType = (typeof privatePhotoTypes)[number];

/** A photo as received: its bytes and the name the customer's file had (for messages only). */
export interface PhotoUpload {
  name: string;
  data: Buffer;
}

/** A photo checked and named, ready to write. */
export interface CheckedPhoto {
  type: PrivatePhotoType;
  data: Buffer;
  fileName: string;
}

/** What an owning module's photos answer when something is wrong, in its own words. */
export interface PhotoRule {
  /** The multipart field the photos come in. */
  field: string;
  /** At most this many photos per record. */
  max: number;
  messages: {
    noPhoto: string;
    photoType: (name: string) => string;
    photoTooLarge: (max: number) => string;
    tooManyPhotos: (left: number) => string;
  };
}

/** Passed to @fastify/multipart: up to `max` files of the store's image size. */
export const photoUploadLimits = (max: number): FastifyMultipartOptions["limits"] => ({
  fileSize: MAX_IMAGE_BYTES,
  files: max,
  fields: 0,
  parts: max,
});

// The types a private photo may have, by the bytes (GIF, which product images take, is not one).
const typeOf: Record<string, PrivatePhotoType> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};
const extOf: Record<PrivatePhotoType, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
};

export const photoRefused = (rule: PhotoRule, message: string) =>
  new HttpError(400, "invalid_photo", message, { [rule.field]: message });
const tooLarge = (rule: PhotoRule) =>
  new HttpError(413, "too_large", rule.messages.photoTooLarge(MAX_IMAGE_BYTES));

/**
 * Reads every file of a multipart upload into memory (at most `rule.max` of MAX_IMAGE_BYTES
 * each): nothing is stored until all of them have arrived and been checked.
 */
export async function readPhotoUploads(
  req: FastifyRequest,
  rule: PhotoRule,
): Promise<PhotoUpload[]> {
  if (!req.isMultipart()) {
    throw new HttpError(415, "unsupported_media_type", rule.messages.noPhoto);
  }
  const photos: PhotoUpload[] = [];
  try {
    for await (const part of req.files()) {
      if (part.fieldname !== rule.field) {
        part.file.resume();
        throw photoRefused(rule, rule.messages.noPhoto);
      }
      photos.push({ name: part.filename || "A file", data: await part.toBuffer() });
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge(rule);
    if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT") {
      throw photoRefused(rule, rule.messages.tooManyPhotos(rule.max));
    }
    throw err;
  }
  return photos;
}

/** Checks every photo (how many, size, type by its bytes) and names each, before any is written. */
export function checkPhotoUploads(uploads: PhotoUpload[], rule: PhotoRule): CheckedPhoto[] {
  if (uploads.length === 0) throw photoRefused(rule, rule.messages.noPhoto);
  if (uploads.length > rule.max) {
    throw photoRefused(rule, rule.messages.tooManyPhotos(rule.max));
  }
  return uploads.map((u) => {
    if (u.data.length > MAX_IMAGE_BYTES) throw tooLarge(rule);
    const ext = detectImageExtension(u.data);
    const type = ext ? typeOf[ext] : undefined;
    if (!type) throw photoRefused(rule, rule.messages.photoType(u.name));
    return { type, data: u.data, fileName: `${randomUUID()}.${extOf[type]}` };
  });
}

/**
 * Refuses the checked photos when they and the `held` ones the record has come to more than
 * `rule.max` (the message says how many are left). Counted with the record locked, two uploads
 * at once cannot pass it together.
 */
export function refuseBeyondMax(rule: PhotoRule, photos: CheckedPhoto[], held: number): void {
  const left = rule.max - held;
  if (photos.length > left) throw photoRefused(rule, rule.messages.tooManyPhotos(left));
}

/**
 * The checked photos as their table's rows (the caller adds the record's column), a millisecond
 * apart from `at`: listed in the order they were sent.
 */
export const photoRows = (photos: CheckedPhoto[], at: number) =>
  photos.map((p, i) => ({
    fileName: p.fileName,
    contentType: p.type,
    sizeBytes: p.data.length,
    createdAt: new Date(at + i),
  }));

/**
 * Stores the checked photos in `area` of the file storage, then runs `record` (the owner's rows,
 * in its transaction, which also counts what is left). The objects are written first, when
 * `record` calls `write` (after its checks, before its insert), and removed should a write or
 * `record` fail (a refusal, a full disk, a bucket away, a failed commit): no file stays without its
 * row, and no row is ever committed without its file.
 */
export async function storePhotos<T>(
  storage: FileStorage,
  area: StorageArea,
  photos: CheckedPhoto[],
  record: (write: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const written: string[] = [];
  try {
    return await record(async () => {
      for (const c of photos) {
        const key = storageKey(area, c.fileName);
        written.push(key);
        await storage.put(key, c.data, { contentType: c.type });
      }
    });
  } catch (err) {
    // Best effort: a bucket that failed the upload may fail the removal too (a random name no
    // row refers to, never served).
    await Promise.all(written.map((k) => storage.remove(k).catch(() => {})));
    throw err;
  }
}

/** One stored photo, as a stream (404 when its file is gone). */
export async function openPhoto(
  storage: FileStorage,
  area: StorageArea,
  fileName: string,
): Promise<StoredFile> {
  try {
    return await storage.get(storageKey(area, fileName));
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 404) throw notFound("Photo not found");
    throw err;
  }
}

/** A photo's row as its record's read found it (none: 404), opened: its type and its stream. */
export async function photoOfRow<T extends string>(
  storage: FileStorage,
  area: StorageArea,
  row: { contentType: T; fileName: string } | undefined,
): Promise<{ contentType: T; file: StoredFile }> {
  if (!row) throw notFound("Photo not found");
  return { contentType: row.contentType, file: await openPhoto(storage, area, row.fileName) };
}

/** Answers one private photo, streamed: shown inline, never kept by a cache on the way. */
export const sendPrivatePhoto = (
  reply: FastifyReply,
  photo: { contentType: PrivatePhotoType; file: StoredFile },
) =>
  reply
    .type(photo.contentType)
    .header("content-length", photo.file.size)
    .header("x-content-type-options", "nosniff")
    .header("content-disposition", "inline")
    .header("cache-control", "private, no-store")
    .send(photo.file.body);
