import { stringify } from "csv-stringify/sync";
import {
  bodySizeProblem,
  cellCountError,
  escapeCell,
  headerErrors,
  readCsvRecords,
  unescapeCell,
} from "../csv/csv-file";
import { normalizePartNumber } from "../../contract/constants";
import { attributeMessages, type ProductAttribute } from "../../contract/attributes";
import {
  ATTRIBUTES_COLUMN,
  crossReferenceCodes,
  dimensionColumnsTogether,
  dimensionCsvColumns,
  FITMENT_COLUMN,
  MAX_CSV_ROWS,
  STOCK_AT_EXPORT_COLUMN,
  optionalProductCsvColumns,
  productCsvColumns,
  type CsvRowError,
  type ProductCsvColumn,
} from "../../contract/product-csv";
import {
  bothPackFieldsValid,
  dimensionsTogether,
  dimensionsValid,
  minimumInPacks,
  productFieldsSchema,
  type AdminProduct,
  type CrossReferenceInput,
  type ProductCreate,
} from "../../contract/products";

/*
 * One row of the product CSV, read and checked without the database. Each column says how it is
 * written (export) and read (import) below, so a new column (say `fitment`, once the vehicle
 * tables exist) is one more entry in `columns` plus its field in `ProductRow`; the service writes
 * the rows' related records (cross-references today) after upserting the products.
 */

/** A checked row: the product as the admin form would send it, and the line it starts on. */
export interface ProductRow {
  line: number;
  product: ProductCreate & { crossReferences: CrossReferenceInput[] };
  /** The `stock_at_export` cell: `stock` is then a change from it (STOCK_AT_EXPORT_COLUMN). */
  stockAtExport?: number;
  /** The `fitment` cell read (undefined when the file has no such column: fitment untouched). */
  fitment?: FitmentEntry[];
  /**
   * The `attributes` cell read, by name (undefined when the file has no such column: values
   * untouched); the service checks them against the row's category's definitions.
   */
  attributes?: AttributeEntry[];
}

/** One `Name=Value` of the `attributes` cell. */
export interface AttributeEntry {
  name: string;
  value: string;
}

const escapeAttributeText = (text: string) => text.replace(/[\\;=]/g, (c) => `\\${c}`);

/** The cell of `parseAttributes` from a product's values (the export): `Diameter=280; Vent type=Vented`. */
export function attributesCell(attributes: Pick<ProductAttribute, "name" | "value">[]): string {
  return attributes
    .map((a) => `${escapeAttributeText(a.name)}=${escapeAttributeText(a.value)}`)
    .join("; ");
}

/**
 * `Diameter=280; Vent type=Vented` → the entries (names and values trimmed; `\;`, `\=` and `\\`
 * stand for the character). A name given twice or an entry without `=` throws.
 */
export function parseAttributes(cell: string): AttributeEntry[] {
  const entries: AttributeEntry[] = [];
  const seen = new Set<string>();
  let name = "";
  let value = "";
  let inValue = false;
  let raw = "";
  const finish = () => {
    if (raw.trim() === "") return;
    if (!inValue || name.trim() === "")
      throw new Error(`"${raw.trim()}" ${attributeMessages.csvFormat}`);
    const entry = { name: name.trim(), value: value.trim() };
    if (seen.has(entry.name.toLowerCase())) throw new Error(attributeMessages.csvTwice(entry.name));
    seen.add(entry.name.toLowerCase());
    entries.push(entry);
  };
  for (let i = 0; i < cell.length; i++) {
    let c = cell[i]!;
    if (c === ";") {
      finish();
      name = value = raw = "";
      inValue = false;
      continue;
    }
    raw += c;
    if (c === "=" && !inValue) {
      inValue = true;
      continue;
    }
    if (c === "\\" && i + 1 < cell.length) {
      c = cell[++i]!;
      raw += c;
    }
    if (inValue) value += c;
    else name += c;
  }
  finish();
  return entries;
}

/** One application of the `fitment` cell, by names (the service finds the vehicles). */
export interface FitmentEntry {
  yearFrom: number;
  yearTo: number;
  make: string;
  model: string;
  engine?: string;
  position?: string;
  quantity: number;
  note?: string;
}

const FITMENT_FORMAT =
  "is not YEARS;Make;Model[;Engine[;Position[;Quantity[;Note]]]] (YEARS is 2016 or 2014-2018; entries split by |)";

/** `2014-2018;Volkswagen;Golf;1.4 TSI;Front;2;with A/C|2019;Skoda;Octavia` → the list. */
export function parseFitment(cell: string): FitmentEntry[] {
  if (cell.trim() === "") return [];
  return cell.split("|").map((entry) => {
    const [years = "", make = "", model = "", engine, position, quantity, ...note] = entry
      .split(";")
      .map((x) => x.trim());
    const range = /^(\d{4})(?:\s*-\s*(\d{4}))?$/.exec(years);
    const qty = quantity === undefined || quantity === "" ? 1 : Number(quantity);
    if (!range || !make || !model || !Number.isInteger(qty) || qty < 1 || qty > 100) {
      throw new Error(`"${entry.trim()}" ${FITMENT_FORMAT}`);
    }
    const yearFrom = Number(range[1]);
    const yearTo = Number(range[2] ?? range[1]);
    if (yearTo < yearFrom) throw new Error(`"${entry.trim()}": the years run backwards`);
    return {
      yearFrom,
      yearTo,
      make,
      model,
      quantity: qty,
      ...(engine && { engine }),
      ...(position && { position }),
      ...(note.join(";") && { note: note.join(";") }),
    };
  });
}

/** The cell of `parseFitment` from entries (the export). */
export function fitmentCell(entries: FitmentEntry[]): string {
  return entries
    .map((e) => {
      const fields = [
        e.yearFrom === e.yearTo ? `${e.yearFrom}` : `${e.yearFrom}-${e.yearTo}`,
        e.make,
        e.model,
        e.engine ?? "",
        e.position ?? "",
        String(e.quantity),
        e.note ?? "",
      ];
      while (
        fields.length > 3 &&
        (fields.at(-1) === "" || (fields.length === 6 && fields[5] === "1"))
      )
        fields.pop();
      return fields.join(";");
    })
    .join("|");
}

interface Column {
  /** The product field the column fills (its errors name the column). */
  field: keyof ProductCreate;
  toCell(p: AdminProduct): string;
  fromCell(cell: string): unknown;
}

const kindCode = Object.fromEntries(
  Object.entries(crossReferenceCodes).map(([code, kind]) => [kind, code]),
) as Record<string, string>;

/** A number cell: empty stays undefined (the schema says "… is Required"), text stays text. */
const numberCell = (cell: string) => {
  if (cell.trim() === "") return undefined;
  const n = Number(cell.trim());
  return Number.isFinite(n) ? n : cell;
};

/** `OE:Toyota:04465-02220|COMP:Bosch:0 986 494 055` → the list; a malformed entry throws. */
export function parseCrossReferences(cell: string): CrossReferenceInput[] {
  if (cell.trim() === "") return [];
  return cell.split("|").map((entry) => {
    // KIND before the first colon, the number after the last (numbers hold no colon): a brand
    // may hold one.
    const first = entry.indexOf(":");
    const last = entry.lastIndexOf(":");
    const parts = [entry.slice(0, first), entry.slice(first + 1, last), entry.slice(last + 1)];
    const kind =
      crossReferenceCodes[parts[0]!.trim().toUpperCase() as keyof typeof crossReferenceCodes];
    if (first < 0 || first === last || !kind) {
      throw new Error(
        `"${entry.trim()}" is not KIND:Brand:Number (KIND is OE, COMP or SUP; entries split by |)`,
      );
    }
    return { kind, brand: parts[1]!.trim(), number: parts[2]!.trim() };
  });
}

/** A side of the product's box in mm; an empty cell is none (null), as in the export. */
const dimensionColumn = (field: "lengthMm" | "widthMm" | "heightMm"): Column => ({
  field,
  toCell: (p) => (p[field] === null ? "" : String(p[field])),
  fromCell: (c) => numberCell(c) ?? null,
});

/**
 * A row as the admin form would send it: each field's rules, the three sides together, and the
 * trade minimum in whole packs (a file without `pack_size`: checked against the product's own by
 * the service).
 */
const rowSchema = productFieldsSchema
  .superRefine(dimensionsTogether, { when: dimensionsValid })
  .superRefine(minimumInPacks, { when: (payload) => bothPackFieldsValid(payload.value) });

const columns: Record<ProductCsvColumn, Column> = {
  part_number: { field: "partNumber", toCell: (p) => p.partNumber, fromCell: (c) => c },
  name: { field: "name", toCell: (p) => p.name, fromCell: (c) => c },
  description: {
    field: "shortDescription",
    toCell: (p) => p.shortDescription,
    fromCell: (c) => c,
  },
  category: { field: "category", toCell: (p) => p.category, fromCell: (c) => c.trim() },
  price: { field: "price", toCell: (p) => p.price.toFixed(2), fromCell: numberCell },
  stock: {
    field: "availableQuantity",
    toCell: (p) => String(p.availableQuantity),
    fromCell: numberCell,
  },
  minimum_order: {
    field: "minimumOrder",
    toCell: (p) => String(p.minimumOrder),
    fromCell: numberCell,
  },
  // Empty is 1, as a product added without them (docs/admin.md); the columns are optional.
  retail_minimum: {
    field: "retailMinimum",
    toCell: (p) => String(p.retailMinimum),
    fromCell: (c) => numberCell(c) ?? 1,
  },
  pack_size: {
    field: "packSize",
    toCell: (p) => String(p.packSize),
    fromCell: (c) => numberCell(c) ?? 1,
  },
  warranty_months: { field: "warranty", toCell: (p) => String(p.warranty), fromCell: numberCell },
  weight_grams: {
    field: "weightGrams",
    toCell: (p) => String(p.weightGrams),
    // Empty is 0 g, as a product added without a weight: the column is optional, its cells too.
    fromCell: (c) => numberCell(c) ?? 0,
  },
  length_mm: dimensionColumn("lengthMm"),
  width_mm: dimensionColumn("widthMm"),
  height_mm: dimensionColumn("heightMm"),
  image_url: { field: "img", toCell: (p) => p.img, fromCell: (c) => c },
  cross_references: {
    field: "crossReferences",
    toCell: (p) =>
      p.crossReferences.map((r) => `${kindCode[r.kind]}:${r.brand}:${r.number}`).join("|"),
    fromCell: parseCrossReferences,
  },
};

/** The catalogue as CSV text (UTF-8, header first, `\r\n` line ends, quoted where needed). */
export function toCsv(products: (AdminProduct & { fitment: FitmentEntry[] })[]): string {
  return stringify(
    products.map((p) => [
      ...productCsvColumns.map((c) => escapeCell(columns[c].toCell(p))),
      escapeCell(attributesCell(p.attributes)),
      escapeCell(fitmentCell(p.fitment)),
      String(p.availableQuantity),
    ]),
    {
      header: true,
      columns: [...productCsvColumns, ATTRIBUTES_COLUMN, FITMENT_COLUMN, STOCK_AT_EXPORT_COLUMN],
      record_delimiter: "\r\n",
    },
  );
}

const fieldToColumn = Object.fromEntries(
  productCsvColumns.map((c) => [columns[c].field, c]),
) as Record<string, ProductCsvColumn>;

export interface ParsedCsv {
  rows: ProductRow[];
  errors: CsvRowError[];
  /** Every line's readable `fitment` cell, rows with other errors included (checked in full). */
  fitmentByLine: Map<number, FitmentEntry[]>;
}

/**
 * Reads and checks a whole file. Nothing here touches the database: the errors are every
 * problem of every row (with its line), and the rows are what an import would write.
 */
export function readProductCsv(data: Buffer): ParsedCsv {
  const fitmentByLine = new Map<number, FitmentEntry[]>();
  const fileError = (message: string): ParsedCsv => ({
    rows: [],
    errors: [{ line: 1, message }],
    fitmentByLine,
  });
  const read = readCsvRecords(data);
  if ("problem" in read) return fileError(read.problem);
  const { names, body } = read;
  const missing = productCsvColumns.filter(
    (c) => !names.includes(c) && !optionalProductCsvColumns.includes(c),
  );
  const known = (n: string) =>
    n === FITMENT_COLUMN ||
    n === ATTRIBUTES_COLUMN ||
    n === STOCK_AT_EXPORT_COLUMN ||
    (productCsvColumns as readonly string[]).includes(n);
  const someDimensions = dimensionCsvColumns.some((c) => names.includes(c));
  const missingDimensions = dimensionCsvColumns.filter((c) => someDimensions && !names.includes(c));
  const header = headerErrors(
    names,
    missing,
    known,
    missingDimensions.map((c) => ({ line: 1, column: c, message: dimensionColumnsTogether(c) })),
  );
  if (header.length > 0) return { rows: [], errors: header, fitmentByLine };
  const size = bodySizeProblem(body, MAX_CSV_ROWS, "products");
  if (size) return fileError(size);

  const rows: ProductRow[] = [];
  const errors: CsvRowError[] = [];
  const firstLineOf = new Map<string, number>();
  for (const { cells: record, line } of body) {
    const cellCount = cellCountError(record, line, names);
    if (cellCount) {
      errors.push(cellCount);
      continue;
    }
    const input: Record<string, unknown> = {};
    let rowOk = true;
    let fitment: FitmentEntry[] | undefined;
    let attributes: AttributeEntry[] | undefined;
    let stockAtExport: number | undefined;
    names.forEach((name, i) => {
      if (name === STOCK_AT_EXPORT_COLUMN) {
        const cell = record[i]!.trim();
        if (cell === "") return;
        if (!/^\d{1,9}$/.test(cell)) {
          rowOk = false;
          errors.push({ line, column: name, message: "Enter a whole number of 0 or more" });
        } else stockAtExport = Number(cell);
        return;
      }
      if (name === ATTRIBUTES_COLUMN) {
        try {
          attributes = parseAttributes(unescapeCell(record[i]!));
        } catch (err) {
          rowOk = false;
          errors.push({ line, column: name, message: (err as Error).message });
        }
        return;
      }
      if (name === FITMENT_COLUMN) {
        try {
          fitment = parseFitment(unescapeCell(record[i]!));
          fitmentByLine.set(line, fitment);
        } catch (err) {
          rowOk = false;
          errors.push({ line, column: name, message: (err as Error).message });
        }
        return;
      }
      const column = columns[name as ProductCsvColumn];
      try {
        input[column.field] = column.fromCell(unescapeCell(record[i]!));
      } catch (err) {
        rowOk = false;
        errors.push({ line, column: name, message: (err as Error).message });
      }
    });
    // Without the form's minimum-within-stock rule: orders leave sold-out products (stock 0) that an
    // export must re-import as they are.
    const checked = rowSchema.safeParse(input);
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0] ?? "");
        errors.push({ line, column: fieldToColumn[field], message: issue.message });
      }
      continue;
    }
    if (!rowOk) continue;
    const key = normalizePartNumber(checked.data.partNumber);
    const earlier = firstLineOf.get(key);
    if (earlier !== undefined) {
      errors.push({
        line,
        column: "part_number",
        message: `Part number ${checked.data.partNumber.toUpperCase()} is also on line ${earlier}`,
      });
      continue;
    }
    firstLineOf.set(key, line);
    rows.push({
      line,
      product: { ...checked.data, crossReferences: checked.data.crossReferences ?? [] },
      ...(fitment && { fitment }),
      ...(attributes && { attributes }),
      ...(stockAtExport !== undefined && { stockAtExport }),
    });
  }
  return { rows, errors, fitmentByLine };
}
