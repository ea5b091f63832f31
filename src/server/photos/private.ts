import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { FastifyMultipartOptions } from "@fastify/multipart";
import type { FastifyReply, FastifyRequest } from "fastify";
import { MAX_IMAGE_BYTES } from "../../contract/products";
import { detectImageExtension } from "../catalog/images";
import { HttpError, notFound } from "../errors";

/**
 * Customers' private photos (a return's, a warranty claim's): read from a multipart upload, checked
 * by their bytes, written to a folder of DATA_DIR that is never served statically, and read back
 * only through the owning module's checks. The module keeps the rows; this keeps the files.
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

/** A private folder's and its files' modes: the store's user alone reads them. */
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/**
 * The private folder `name` under DATA_DIR: 0700, every photo in it 0600 (chmod: mkdir's mode is
 * cut by the umask and spares a folder that exists; photos written by an older store, 0644, are
 * tightened too).
 */
export async function privatePhotoFolder(dataDir: string, name: string): Promise<string> {
  const dir = path.join(dataDir, name);
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
  await fs.chmod(dir, PRIVATE_DIR);
  for (const file of await fs.readdir(dir)) await fs.chmod(path.join(dir, file), PRIVATE_FILE);
  return dir;
}

/** Writes files; replaceable in tests, to fail a write half-way as a full disk does. */
export interface PhotoIo {
  writeFile: typeof fs.writeFile;
}

/**
 * Writes the checked photos into `dir`, then runs `record` (the owner's rows, in its transaction,
 * which also counts what is left): should a write or `record` fail (a refusal, a full disk, a
 * failed commit), no file stays without its row.
 */
export async function storePhotos<T>(
  dir: string,
  photos: CheckedPhoto[],
  record: (write: () => Promise<void>) => Promise<T>,
  io: PhotoIo = { writeFile: fs.writeFile },
): Promise<T> {
  const written: string[] = [];
  try {
    return await record(async () => {
      for (const c of photos) {
        const file = path.join(dir, c.fileName);
        written.push(file);
        // "wx": a fresh random name, never an overwrite.
        await io.writeFile(file, c.data, { flag: "wx", mode: PRIVATE_FILE });
      }
    });
  } catch (err) {
    await Promise.all(written.map((f) => fs.rm(f, { force: true })));
    throw err;
  }
}

/** One stored photo's bytes (404 when its file is gone). */
export async function readPhotoFile(dir: string, fileName: string): Promise<Buffer> {
  try {
    return await fs.readFile(path.join(dir, fileName));
  } catch (err) {
    if ((err as { code?: string }).code === "ENOENT") throw notFound("Photo not found");
    throw err;
  }
}

/** Answers one private photo: shown inline, never kept by a cache on the way. */
export const sendPrivatePhoto = (
  reply: FastifyReply,
  photo: { contentType: PrivatePhotoType; bytes: Buffer },
) =>
  reply
    .type(photo.contentType)
    .header("x-content-type-options", "nosniff")
    .header("content-disposition", "inline")
    .header("cache-control", "private, no-store")
    .send(photo.bytes as unknown as string);
