import { parse } from "csv-parse/sync";
import { formatCount } from "../../contract/count";
import type { CsvRowError } from "../../contract/product-csv";

/*
 * What the CSV files an admin uploads and downloads share (the product CSV, the vehicle CSV):
 * reading a file's records with their lines, the header's problems, and cells a spreadsheet would
 * run as formulas. The price-list and tax-rate imports parse their text the same way (`parseCsv`).
 */

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return) is
 * written with a leading `'`, and read back without it, so the round trip keeps the text; a cell
 * that itself starts with `'` gets one more, for the same reason.
 */
const formulaStart = /^[=+\-@\t\r']/;
export const escapeCell = (cell: string) => (formulaStart.test(cell) ? `'${cell}` : cell);
export const unescapeCell = (cell: string) =>
  cell.startsWith("'") && formulaStart.test(cell.slice(1)) ? cell.slice(1) : cell;

/** One record of the file after its header: its cells and the line it starts on. */
export interface CsvRecord {
  cells: string[];
  line: number;
}

/** A file's header (names trimmed, lower case) and records, or why the file cannot be read. */
export type CsvRecords = { names: string[]; body: CsvRecord[] } | { problem: string };

/** A record as the parser gives it: its cells, and `info.lines`, the line it ends on. */
export interface ParsedCsvRecord {
  record: string[];
  info: { lines: number };
}

/**
 * Parses CSV text as every upload does (a byte order mark allowed, records of any length, empty
 * lines skipped): its records, header first, or the parser's message and the line it stopped on.
 */
export function parseCsv(
  text: string,
): { records: ParsedCsvRecord[] } | { line: number; message: string } {
  try {
    const records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as ParsedCsvRecord[];
    return { records };
  } catch (err) {
    return { line: (err as { lines?: number }).lines ?? 1, message: (err as Error).message };
  }
}

/**
 * Reads a CSV file (UTF-8, a byte order mark allowed, empty lines skipped): its header and its
 * records, or the one problem of a file that is not UTF-8, empty, or not CSV (with its line).
 */
export function readCsvRecords(data: Buffer): CsvRecords {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return { problem: "The file is not UTF-8 text: save it as “CSV UTF-8” and upload it again" };
  }
  if (text.replace(/^\uFEFF/, "").trim() === "") return { problem: "The file is empty" };
  const parsed = parseCsv(text);
  if ("message" in parsed) return { problem: `Line ${parsed.line}: ${parsed.message}` };
  const [header, ...body] = parsed.records;
  return {
    names: header!.record.map((h) => h.trim().toLowerCase()),
    body: body.map(({ record, info }) => ({
      cells: record,
      // info.lines is the line the record ends on; a quoted cell may span several.
      line: info.lines - record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0),
    })),
  };
}

/**
 * A header's problems, each on line 1: the columns `missing`, then the file's own `alsoWrong`,
 * the columns not `known`, and the columns named twice.
 */
export function headerErrors(
  names: string[],
  missing: readonly string[],
  known: (name: string) => boolean,
  alsoWrong: CsvRowError[] = [],
): CsvRowError[] {
  return [
    ...missing.map((c) => ({ line: 1, column: c, message: `Missing column ${c}` })),
    ...alsoWrong,
    ...names
      .filter((n) => !known(n))
      .map((c) => ({ line: 1, column: c, message: `Unknown column ${c}` })),
    ...names
      .filter((n, i) => names.indexOf(n) !== i)
      .map((c) => ({ line: 1, column: c, message: `Column ${c} appears twice` })),
  ];
}

/**
 * The problem of a file with no records after its header, or more than `max` (`noun`: what a
 * record is, "products"; `unit`: what the limit counts, by default the same); null for neither.
 */
export function bodySizeProblem(
  body: CsvRecord[],
  max: number,
  noun: string,
  unit = noun,
): string | null {
  if (body.length === 0) return `The file has a header but no ${noun}`;
  if (body.length <= max) return null;
  return `The file has ${formatCount(body.length)} ${unit}; import at most ${formatCount(max)} at a time`;
}

/** A record's problem when it has another number of cells than the header has names; or null. */
export const cellCountError = (
  cells: string[],
  line: number,
  names: string[],
): CsvRowError | null =>
  cells.length === names.length
    ? null
    : { line, message: `Has ${cells.length} cells where the header has ${names.length}` };
