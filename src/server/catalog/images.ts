import { randomUUID } from "node:crypto";
import path from "node:path";
import type { FastifyMultipartOptions } from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { MAX_IMAGE_BYTES } from "../../contract/products";
import { HttpError, notFound } from "../errors";
import { readOneFile } from "../http/upload";
import { storageKey, type FileStorage } from "../storage/storage";

export const IMAGE_FIELD = "image";

/** Passed to @fastify/multipart: one small file and hardly anything else per request. */
export const imageUploadLimits: FastifyMultipartOptions["limits"] = {
  fileSize: MAX_IMAGE_BYTES,
  files: 1,
  fields: 5,
  fieldSize: 1024,
  parts: 6,
};

interface ImageKind {
  ext: "png" | "jpg" | "webp" | "gif";
  matches(head: Buffer): boolean;
}

const startsWith = (head: Buffer, bytes: number[], at = 0) =>
  head.length >= at + bytes.length && bytes.every((b, i) => head[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

// Only raster formats a browser shows as a picture. SVG is refused: it is a document that can
// carry script, and an upload must never become a page on our origin.
const kinds: ImageKind[] = [
  { ext: "png", matches: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { ext: "jpg", matches: (h) => startsWith(h, [0xff, 0xd8, 0xff]) },
  { ext: "gif", matches: (h) => startsWith(h, ascii("GIF87a")) || startsWith(h, ascii("GIF89a")) },
  { ext: "webp", matches: (h) => startsWith(h, ascii("RIFF")) && startsWith(h, ascii("WEBP"), 8) },
];

/** The image format by its magic bytes; the declared type and the file name are not trusted. */
export function detectImageExtension(data: Buffer): ImageKind["ext"] | undefined {
  return kinds.find((k) => k.matches(data))?.ext;
}

const tooLarge = () =>
  new HttpError(
    413,
    "too_large",
    `The image must be ${MAX_IMAGE_BYTES / 1024 / 1024} MiB or smaller`,
  );
const unsupported = () =>
  new HttpError(415, "unsupported_image", "Upload a PNG, JPEG, WebP or GIF image");

/** Reads the one file of a multipart upload into memory (at most MAX_IMAGE_BYTES). */
export const readImageUpload = (req: FastifyRequest): Promise<Buffer> =>
  readOneFile(req, {
    field: IMAGE_FIELD,
    noun: "the image",
    missing: {
      message: `Choose an image file (field "${IMAGE_FIELD}")`,
      field: "Choose an image file",
    },
    tooLarge,
  });

/** Keeps uploaded product images in the storage's `uploads` area, served by the app at /uploads/. */
export function createImageStore(storage: FileStorage) {
  return {
    /** Stores the image under a fresh random name and answers the path it is served at. */
    async save(data: Buffer): Promise<string> {
      if (data.length === 0) throw unsupported();
      if (data.length > MAX_IMAGE_BYTES) throw tooLarge();
      const ext = detectImageExtension(data);
      if (!ext) throw unsupported();
      const name = `${randomUUID()}.${ext}`;
      // A write cut short (a full disk: 507; a bucket away: 503) leaves nothing behind.
      await storage.put(storageKey("uploads", name), data, { contentType: imageTypes[ext] });
      return `/uploads/${name}`;
    },
  };
}

export type ImageStore = ReturnType<typeof createImageStore>;

const imageTypes: Record<ImageKind["ext"], string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
};
/** A year: an image's name is never reused (a new image gets a new name). */
const IMAGE_CACHE = "public, max-age=31536000, immutable";
const IMAGE_NAME = /^[0-9a-f-]{36}\.(png|jpg|webp|gif)$/;

/**
 * Product images uploaded by admins, served to everyone at /uploads/ and cached for a year. On
 * the local disk (DATA_DIR/uploads) by @fastify/static, as before the storage module; from the
 * bucket by a route that streams the object (never a public bucket URL: the store's own address,
 * its headers, and a bucket that needs no public access).
 */
export async function serveProductImages(
  app: FastifyInstance,
  storage: FileStorage,
  dataDir: string,
): Promise<void> {
  if (storage.driver === "local") {
    await app.register(fastifyStatic, {
      root: path.join(dataDir, "uploads"),
      prefix: "/uploads/",
      decorateReply: false,
      setHeaders: (reply) => reply.header("cache-control", IMAGE_CACHE),
    });
    return;
  }
  app.get<{ Params: { name: string } }>(
    "/uploads/:name",
    { schema: { hide: true } },
    async (req, reply) => {
      const { name } = req.params;
      if (!IMAGE_NAME.test(name)) throw notFound();
      const file = await storage.get(storageKey("uploads", name));
      const ext = path.extname(name).slice(1) as ImageKind["ext"];
      return reply
        .type(imageTypes[ext])
        .header("content-length", file.size)
        .header("cache-control", IMAGE_CACHE)
        .header("x-content-type-options", "nosniff")
        .send(file.body);
    },
  );
}
