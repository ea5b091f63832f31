import { randomUUID } from "node:crypto";
import path from "node:path";
import { pipeline as streamPipeline, Transform, type Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import { IMPORT_FILE_FIELD, importWords, type ImportKind } from "../../contract/imports";
import { HttpError } from "../errors";
import { storageKey, type FileStorage } from "../storage/storage";
import { formatBytes } from "./xml-stream";

/**
 * Uploaded catalog data files wait in the store's file storage (area `imports`: under DATA_DIR, or
 * in the bucket) from the upload until their import ends: the preview and the job, on whichever
 * node runs them, read them from there as a stream.
 */
export const importKey = (storedFile: string) => storageKey("imports", storedFile);

export const tooLarge = (maxBytes: number) =>
  new HttpError(
    413,
    "too_large",
    `The file is larger than ${formatBytes(maxBytes)}, the most one import takes`,
  );

/** A file of the upload, stored: its name there and the name it had on the admin's computer. */
export interface StoredUpload {
  storedFile: string;
  fileName: string;
}

/**
 * The one file of a multipart upload (field `file`), streamed to the storage as it arrives and
 * counted on the way: past `maxBytes` the upload is cut off (413) and nothing is kept.
 */
export async function saveUpload(
  req: FastifyRequest,
  storage: FileStorage,
  maxBytes: number,
  kind: ImportKind = "aces",
): Promise<StoredUpload> {
  if (!req.isMultipart()) {
    throw new HttpError(
      415,
      "unsupported_media_type",
      `Send the file as multipart/form-data in a field named "${IMPORT_FILE_FIELD}"`,
    );
  }
  // A body declared larger than the limit (and the form's few bytes) is refused before reading.
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > maxBytes + 64 * 1024) throw tooLarge(maxBytes);
  const missing = () =>
    new HttpError(
      400,
      "validation",
      `${importWords.chooseFileOf[kind]} (field "${IMPORT_FILE_FIELD}")`,
      { [IMPORT_FILE_FIELD]: importWords.chooseFileOf[kind] },
    );
  let part;
  try {
    part = await req.file();
  } catch (err) {
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge(maxBytes);
    throw err;
  }
  if (!part || part.fieldname !== IMPORT_FILE_FIELD) {
    part?.file.resume();
    throw missing();
  }
  const storedFile = `${randomUUID()}.xml`;
  // Counted on its way to the storage: past the limit the write fails and leaves nothing.
  let over = false;
  const counted = countBytes(maxBytes, () => req.raw.destroy());
  const body = streamPipeline(part.file as Readable, counted, (err) => {
    if (err instanceof HttpError) over = true;
  });
  try {
    await storage.put(importKey(storedFile), body, { contentType: "application/xml" });
    if (part.file.truncated) {
      await storage.remove(importKey(storedFile));
      throw tooLarge(maxBytes);
    }
  } catch (err) {
    part.file.resume();
    if (over) throw tooLarge(maxBytes);
    if (err instanceof HttpError) throw err;
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge(maxBytes);
    throw err;
  }
  const fileName = path.basename(part.filename || `${kind}.xml`).slice(0, 200);
  return { storedFile, fileName };
}

/**
 * An upload is not bound by the request timeout (a large file takes minutes to send), but it may
 * not stall: this long without a byte and the connection is closed (nothing is kept).
 */
export const UPLOAD_STALL_MS = 60_000;

/**
 * Passes bytes on until there are more than `maxBytes`, then fails with the 413; calls `stalled`
 * when no bytes came for UPLOAD_STALL_MS.
 */
function countBytes(maxBytes: number, stalled: () => void) {
  let seen = 0;
  let timer = setTimeout(stalled, UPLOAD_STALL_MS);
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      clearTimeout(timer);
      timer = setTimeout(stalled, UPLOAD_STALL_MS);
      seen += chunk.length;
      if (seen > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
    },
    flush(done) {
      clearTimeout(timer);
      done();
    },
    destroy(err, done) {
      clearTimeout(timer);
      done(err);
    },
  });
}
