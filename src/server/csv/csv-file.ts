import { parse } from "csv-parse/sync";

/*
 * What the CSV files an admin uploads and downloads share (the product CSV, the vehicle CSV):
 * reading a file's records with their lines, and cells a spreadsheet would run as formulas.
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
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as typeof records;
  } catch (err) {
    const line = (err as { lines?: number }).lines ?? 1;
    return { problem: `Line ${line}: ${(err as Error).message}` };
  }
  const [header, ...body] = records;
  return {
    names: header!.record.map((h) => h.trim().toLowerCase()),
    body: body.map(({ record, info }) => ({
      cells: record,
      // info.lines is the line the record ends on; a quoted cell may span several.
      line: info.lines - record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0),
    })),
  };
}
