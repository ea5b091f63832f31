import { Readable } from "node:stream";
import { parse } from "csv-parse";
import {
  BULK_CSV,
  BULK_NDJSON,
  bulkMessages as say,
  MAX_BULK_BYTES,
  MAX_BULK_LINE_CHARS,
  MAX_BULK_LINES,
} from "../../contract/bulk";
import { HttpError } from "../errors";

/**
 * A bulk request's body read as it arrives (docs/bulk-sync.md): bytes counted (past
 * MAX_BULK_BYTES the reading stops: 413), decoded as UTF-8, split into lines (CSV by csv-parse's
 * stream parser, NDJSON by line), and each line handed on at once as its fields by name, so no
 * more of the body than one chunk and one line is held at a time.
 */

export type BulkFormat = "csv" | "ndjson";

/** The format of a content type (parameters such as charset ignored); undefined: not ours. */
export function formatOf(contentType: string | undefined): BulkFormat | undefined {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  if (type === BULK_CSV) return "csv";
  if (type === BULK_NDJSON) return "ndjson";
  return undefined;
}

export const tooLarge = () => new HttpError(413, "too_large", say.tooLarge);
export const tooManyLines = () => new HttpError(413, "too_large", say.tooManyLines);

/** One line of the body: its number, and its fields by name or what is wrong with it. */
export type BodyLine =
  | { line: number; fields: Record<string, unknown> }
  | { line: number; problem: string; fields?: Record<string, unknown> };

/** What a kind of line is: its CSV header (in order), and how many trailing columns may be left out. */
export interface LineShape {
  header: readonly string[];
  optionalTrailing: number;
}

/** The body's text, chunk by chunk: counted, then decoded (refused when not UTF-8). */
async function* textOf(body: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let seen = 0;
  try {
    for await (const chunk of body) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      seen += bytes.length;
      if (seen > MAX_BULK_BYTES) throw tooLarge();
      yield decoder.decode(bytes, { stream: true });
    }
    yield decoder.decode();
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (err instanceof TypeError) throw new HttpError(400, "bad_request", say.notUtf8);
    throw err;
  }
}

/** The lines of the body, in order; at most MAX_BULK_LINES (then 413). */
export async function* readBodyLines(
  body: AsyncIterable<Buffer | string>,
  format: BulkFormat,
  shape: LineShape,
): AsyncGenerator<BodyLine> {
  let count = 0;
  const lines = format === "csv" ? csvLines(body, shape) : ndjsonLines(body);
  for await (const line of lines) {
    if (++count > MAX_BULK_LINES) throw tooManyLines();
    yield line;
  }
  if (count === 0) throw new HttpError(400, "bad_request", say.empty);
}

async function* ndjsonLines(body: AsyncIterable<Buffer | string>): AsyncGenerator<BodyLine> {
  let rest = "";
  let line = 0;
  let tooLong = false;
  const one = (text: string): BodyLine | undefined => {
    line++;
    const trimmed = text.trim();
    if (trimmed === "") return undefined;
    if (trimmed.length > MAX_BULK_LINE_CHARS) return { line, problem: say.lineTooLong };
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      return { line, problem: say.notJson };
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return { line, problem: say.notJson };
    }
    return { line, fields: value as Record<string, unknown> };
  };
  for await (const text of textOf(body)) {
    let from = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", from)) {
      const piece = rest + text.slice(from, nl);
      rest = "";
      from = nl + 1;
      if (tooLong) {
        tooLong = false;
        line++;
        yield { line, problem: say.lineTooLong };
        continue;
      }
      const got = one(piece.replace(/^\uFEFF/, ""));
      if (got) yield got;
    }
    if (!tooLong) rest += text.slice(from);
    // A line longer than any good one is not kept whole: it is that line's error.
    if (rest.length > MAX_BULK_LINE_CHARS) {
      tooLong = true;
      rest = "";
    }
  }
  if (tooLong) yield { line: line + 1, problem: say.lineTooLong };
  else {
    const last = one(rest);
    if (last) yield last;
  }
}

async function* csvLines(
  body: AsyncIterable<Buffer | string>,
  shape: LineShape,
): AsyncGenerator<BodyLine> {
  const source = Readable.from(textOf(body));
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    max_record_size: MAX_BULK_LINE_CHARS,
  });
  // A failure of the body (too large, not UTF-8) ends the parser with it.
  source.on("error", (err) => parser.destroy(err));
  source.pipe(parser);
  let names: string[] | undefined;
  const wanted = shape.header.map((h) => h.toLowerCase());
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      // info.lines is the line the record ends on; a quoted cell may span several.
      const line = info.lines - record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
      if (!names) {
        names = record.map((h) => h.trim().toLowerCase());
        const fits =
          names.length <= wanted.length &&
          names.length >= wanted.length - shape.optionalTrailing &&
          names.every((n, i) => n === wanted[i]);
        if (!fits) throw new HttpError(400, "bad_request", say.header(shapeKind(shape)));
        continue;
      }
      const fields = Object.fromEntries(names.map((n, i) => [shape.header[i]!, record[i] ?? ""]));
      if (record.length !== names.length) {
        yield { line, problem: say.cells(names.length, record.length), fields };
      } else yield { line, fields };
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const e = err as { code?: string; lines?: number; message?: string };
    if (typeof e.code === "string" && e.code.startsWith("CSV_")) {
      throw new HttpError(400, "bad_request", say.csvBroken(e.lines ?? 1, e.message ?? e.code));
    }
    throw err;
  } finally {
    source.destroy();
  }
  if (!names) throw new HttpError(400, "bad_request", say.empty);
}

const shapeKind = (shape: LineShape) => (shape.header.includes("stock") ? "stock" : "prices");
