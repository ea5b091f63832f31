import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FastifyRequest } from "fastify";
import { IMPORT_FILE_FIELD, importWords, type ImportKind } from "../../contract/imports";
import { HttpError } from "../errors";
import { formatBytes } from "./xml-stream";

/**
 * Uploaded catalog data files wait in the data folder (`imports/`, beside the product images'
 * `uploads/`) from the upload until their import ends: the preview and the job read them from
 * there, as a stream. Every process of the store shares the data folder, as it shares uploads.
 */
export async function importFolder(dataDir: string): Promise<string> {
  const folder = path.join(dataDir, "imports");
  await fs.mkdir(folder, { recursive: true });
  return folder;
}

export const tooLarge = (maxBytes: number) =>
  new HttpError(
    413,
    "too_large",
    `The file is larger than ${formatBytes(maxBytes)}, the most one import takes`,
  );

/** A file of the upload, on disk: its name there and the name it had on the admin's computer. */
export interface StoredUpload {
  storedFile: string;
  fileName: string;
}

/**
 * The one file of a multipart upload (field `file`), streamed to the folder as it arrives and
 * counted on the way: past `maxBytes` the upload is cut off (413) and nothing is kept.
 */
export async function saveUpload(
  req: FastifyRequest,
  folder: string,
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
  const target = path.join(folder, storedFile);
  try {
    await pipeline(
      part.file as Readable,
      countBytes(maxBytes, () => req.raw.destroy()),
      createWriteStream(target, { flags: "wx" }),
    );
    if (part.file.truncated) throw tooLarge(maxBytes);
  } catch (err) {
    await fs.rm(target, { force: true });
    part.file.resume();
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
