import { randomUUID } from "node:crypto";

/** A 1x1 GIF89a: the smallest real image the upload accepts. */
export const tinyGif = Buffer.from(
  "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==",
  "base64",
);

/** A multipart/form-data body with one file, for `app.inject()`. */
export function multipart(file: { data: Buffer; filename: string; type: string; field?: string }) {
  const boundary = `----test${randomUUID()}`;
  const head =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="${file.field ?? "image"}"; filename="${file.filename}"\r\n` +
    `Content-Type: ${file.type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file.data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}
