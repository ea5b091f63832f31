import type { FastifyRequest } from "fastify";
import { CSV_FIELD } from "../../contract/product-csv";
import { HttpError } from "../errors";

/** What a route takes as its one uploaded file, and what it answers when it is not that. */
export interface OneFileRule {
  /** The multipart field the file comes in. */
  field: string;
  /** How the 415 names the file: "the image", "the CSV". */
  noun: string;
  /** The 400 for a request without the file: its message, and the field's. */
  missing: { message: string; field: string };
  /** The 413 for a file over the multipart plugin's `fileSize` limit. */
  tooLarge: () => HttpError;
}

/**
 * The one file of a multipart upload, in memory (at most the route's multipart `fileSize`): the
 * reader every single-file upload route shares (product images, the CSV files, quick order).
 */
export async function readOneFile(req: FastifyRequest, rule: OneFileRule): Promise<Buffer> {
  if (!req.isMultipart()) {
    throw new HttpError(
      415,
      "unsupported_media_type",
      `Send ${rule.noun} as multipart/form-data in a field named "${rule.field}"`,
    );
  }
  try {
    const part = await req.file();
    if (!part || part.fieldname !== rule.field) {
      part?.file.resume();
      throw new HttpError(400, "validation", rule.missing.message, {
        [rule.field]: rule.missing.field,
      });
    }
    const data = await part.toBuffer();
    if (part.file.truncated) throw rule.tooLarge();
    return data;
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw rule.tooLarge();
    throw err;
  }
}

/**
 * The one CSV file of an admin's upload (field `file`), at most `maxBytes`: the reader the
 * product and vehicle CSV imports share.
 */
export const readCsvUpload = (req: FastifyRequest, maxBytes: number): Promise<Buffer> =>
  readOneFile(req, {
    field: CSV_FIELD,
    noun: "the CSV",
    missing: { message: `Choose a CSV file (field "${CSV_FIELD}")`, field: "Choose a CSV file" },
    tooLarge: () =>
      new HttpError(413, "too_large", `The file must be ${maxBytes / 1024 / 1024} MiB or smaller`),
  });

/** The multipart limits of a route taking one CSV file of at most `maxBytes`. */
export const csvUploadLimits = (maxBytes: number) => ({
  fileSize: maxBytes,
  files: 1,
  fields: 2,
  fieldSize: 1024,
  parts: 3,
});
