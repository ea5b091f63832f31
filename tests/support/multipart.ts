import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";

/** A 1x1 GIF89a: the smallest real image the upload accepts. */
export const tinyGif = Buffer.from(
  "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==",
  "base64",
);

/** A 1x1 PNG. */
export const tinyPng = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

interface FilePart {
  data: Buffer;
  filename: string;
  type: string;
  field?: string;
}

/** A multipart/form-data body with one file, for `app.inject()`. */
export function multipart(file: FilePart) {
  return multipartFiles([file]);
}

/** A multipart/form-data body with several files (field "image" unless named). */
export function multipartFiles(files: FilePart[]) {
  const boundary = `----test${randomUUID()}`;
  const parts = files.flatMap((file) => [
    Buffer.from(
      `--${boundary}\r\n` +
        `Content-Disposition: form-data; name="${file.field ?? "image"}"; filename="${file.filename}"\r\n` +
        `Content-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from("\r\n"),
  ]);
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

/** An upload sent as JSON (`{ file: "x" }`), not multipart, as `who`: the route should say 415. */
export const postNotMultipart = (app: FastifyInstance, who: { cookie: string }, url: string) =>
  app.inject({ method: "POST", url, payload: { file: "x" }, headers: { cookie: who.cookie } });
