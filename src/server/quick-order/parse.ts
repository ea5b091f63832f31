import { parse } from "csv-parse/sync";
/*
 * Quick order's reading of pasted text and CSV files (docs/quick-order.md "Accepted formats"):
 * pure functions, no database. A line is `number qty`, `number,qty`, `number;qty` or
 * `number<TAB>qty`; blank lines are left out, a header row is recognised and left out.
 */

import { MAX_ORDER_QTY } from "../../contract/orders";

/** One line read: where it was, the number as written, the quantity as written. */
export interface ParsedLine {
  line: number;
  number: string;
  /** The quantity as written ("" when the line had none: it then means 1). */
  qtyText: string;
  /**
   * For a line split only by spaces ("5Q0 615 301 G 2"), the whole line read as one number with
   * quantity 1: numbers may hold spaces ("0 451 103 316"), so when the number before the last
   * word is not ours but the whole line is, the whole line is meant.
   */
  whole?: string;
}

/** A quantity as written: a whole number from 1 to the order limit, else null. */
export function readQty(value: unknown): number | null {
  if (value === undefined || value === null || value === "") return 1;
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= 1 && value <= MAX_ORDER_QTY ? value : null;
  }
  const s = String(value).trim();
  if (s === "") return 1;
  if (!/^\d{1,7}$/.test(s)) return null;
  const n = Number(s);
  return n >= 1 && n <= MAX_ORDER_QTY ? n : null;
}

/**
 * Splits one line by `delimiter`, honouring double quotes ("a,b" stays one cell; "" is "), with
 * the CSV reader the product import uses. A line whose quotes do not close is split as it is.
 */
export function splitCells(line: string, delimiter: string): string[] {
  try {
    const [cells] = parse(line, {
      delimiter,
      relax_quotes: true,
      relax_column_count: true,
      trim: true,
    }) as string[][];
    return cells ?? [""];
  } catch {
    return line.split(delimiter).map((cell) => cell.trim());
  }
}

/** The delimiter a line uses: a tab, else a semicolon, else a comma, else none (spaces). */
function delimiterOf(line: string): string | undefined {
  return ["\t", ";", ","].find((d) => line.includes(d));
}

const NUMBER_HEADER =
  /^(part|parts|part ?(no|nr|number|#)|item|sku|number|no|nr|article|code|product|oe|ref|reference)\.?$/i;
const QTY_HEADER = /^(qty|quantity|quantities|amount|count|pcs|pieces|units|menge|anzahl)\.?$/i;

/** Whether the first line is a header ("part number;qty", "SKU,Quantity"). */
export function isHeader(cells: string[]): boolean {
  const [first = "", second = ""] = cells;
  if (/^\d+$/.test(second)) return false;
  return NUMBER_HEADER.test(first) || QTY_HEADER.test(second);
}

/** One line of text into its number and quantity (undefined for a blank line). */
export function parseLine(raw: string, line: number): ParsedLine | undefined {
  const text = raw.trim();
  if (text === "") return undefined;
  const delimiter = delimiterOf(text);
  if (delimiter) {
    const cells = splitCells(text, delimiter);
    if (cells.every((c) => c === "")) return undefined;
    return { line, number: cells[0] ?? "", qtyText: cells[1] ?? "" };
  }
  const words = text.split(/\s+/);
  const last = words.at(-1)!;
  if (words.length >= 2 && /^\d+$/.test(last)) {
    return { line, number: words.slice(0, -1).join(" "), qtyText: last, whole: text };
  }
  return { line, number: text, qtyText: "" };
}

/** Pasted text or a CSV file's text: its lines, blank lines and a header row left out. */
export function parseText(input: string): ParsedLine[] {
  const text = input.replace(/^\uFEFF/, "");
  const out: ParsedLine[] = [];
  const rows = text.split(/\r\n|\r|\n/);
  let first = true;
  for (const [i, row] of rows.entries()) {
    const parsed = parseLine(row, i + 1);
    if (!parsed) continue;
    if (first) {
      first = false;
      const delimiter = delimiterOf(row.trim());
      const cells = delimiter ? splitCells(row.trim(), delimiter) : row.trim().split(/\s+/);
      if (isHeader(cells) || isHeader([cells.slice(0, -1).join(" "), cells.at(-1) ?? ""])) {
        continue;
      }
    }
    out.push(parsed);
  }
  return out;
}

/** A CSV upload's bytes as text: UTF-8 (a BOM is dropped); null when it is not text at all. */
export function decodeCsv(data: Buffer): string | null {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(data);
  // eslint-disable-next-line no-control-regex -- a NUL byte means a binary file, not CSV
  if (/\u0000/.test(text)) return null;
  return text;
}
