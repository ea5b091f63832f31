import type { Readable } from "node:stream";
import { HttpError, notFound } from "../errors";

/**
 * The store's files (docs/storage.md): product images, customers' private photos and catalog
 * data files waiting to be imported, kept by one
 * of two drivers chosen by STORAGE_DRIVER: the local disk under DATA_DIR (`local.ts`, the default)
 * or an S3-compatible bucket (`s3.ts`). A file's key is `<area>/<name>`: the same path under
 * DATA_DIR and in the bucket, so the copy command (`copy.ts`) moves files one to one.
 */

/** The folders (local) or key prefixes (bucket) files live in, and whether each is private. */
export const storageAreas = {
  /** Product images, served to everyone at /uploads/ and cached for a year. */
  uploads: { private: false },
  /** Customers' photos of their returns, read only through the returns' checks. */
  "return-photos": { private: true },
  /** Claimants' photos of failed parts, read only through the warranty's checks. */
  "warranty-photos": { private: true },
  /** Catalog data files (ACES, PIES) from their upload until their import ends (imports/). */
  imports: { private: true },
} as const;
export type StorageArea = keyof typeof storageAreas;
export const areaNames = Object.keys(storageAreas) as StorageArea[];

/** A file as read: its bytes as a stream (read it to the end, or destroy it) and its size. */
export interface StoredFile {
  body: Readable;
  size: number;
  /** The content type it was stored with, when the driver keeps one. */
  contentType?: string;
}

export interface PutOptions {
  contentType: string;
}

/** One driver: every call ends within the driver's timeout (S3) or the disk's own time (local). */
export interface FileStorage {
  readonly driver: "local" | "s3";
  /**
   * Stores a file under `key` (a fresh, random name: never an overwrite). A Buffer goes in one
   * request; a stream goes as it comes (a multipart upload on S3). On failure nothing is left
   * under `key`.
   */
  put(key: string, body: Buffer | Readable, opts: PutOptions): Promise<void>;
  /** The file under `key`; 404 (`notFound`) when there is none. */
  get(key: string): Promise<StoredFile>;
  /** The file's size, or undefined when there is none. */
  head(key: string): Promise<{ size: number } | undefined>;
  /** Removes the file (nothing when it is already gone). */
  remove(key: string): Promise<void>;
  /** Every file of an area, in no particular order. */
  list(area: StorageArea): AsyncIterable<{ key: string; size: number }>;
  /** Frees the driver's connections. */
  close(): void;
}

/** A file's name within its area: what the store makes (a UUID and an extension), nothing else. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** The key of `name` in `area`, checked: no path, no dot-dot, nothing outside the known areas. */
export function storageKey(area: StorageArea, name: string): string {
  if (!NAME.test(name) || name.includes("..")) {
    throw new Error(`not a stored file's name: ${JSON.stringify(name)}`);
  }
  return `${area}/${name}`;
}

/** A key's area and name, checked as `storageKey` makes them. */
export function parseKey(key: string): { area: StorageArea; name: string } {
  const slash = key.indexOf("/");
  const area = key.slice(0, slash) as StorageArea;
  const name = key.slice(slash + 1);
  if (slash < 0 || !Object.hasOwn(storageAreas, area)) {
    throw new Error(`not a stored file's key: ${JSON.stringify(key)}`);
  }
  storageKey(area, name);
  return { area, name };
}

/** What an upload or a download hears while the bucket is away or too slow. */
export const STORAGE_UNAVAILABLE_MESSAGE =
  "The store's file storage is not answering. Nothing was saved; please try again in a moment.";
export const storageUnavailable = () =>
  new HttpError(503, "unavailable", STORAGE_UNAVAILABLE_MESSAGE);

export const fileNotFound = () => notFound("File not found");

/** Reads a stored file to the end (small files: photos, images). */
export async function readAll(file: StoredFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
