import { formatCount } from "../../contract/count";
import { normalizePartNumber } from "../../contract/constants";
import type { CsvRowError } from "../../contract/product-csv";
import {
  MAX_SUPPLY_CSV_ROWS,
  SUPPLY_CSV_COLUMNS,
  SUPPLY_CSV_OPTIONAL_COLUMNS,
  SUPPLY_KINDS,
  supplyCreateSchema,
  supplyMessages,
  type SupplyImport,
  type SupplyKind,
} from "../../contract/supply";
import { recordAdminAction, type AuditActor } from "../audit/service";
import { headerErrors, readCsvRecords, unescapeCell } from "../csv/csv-file";
import type { Db } from "../db/database";
import { PG, postgresError } from "../db/postgres-errors";
import { sql } from "../db/sql";
import { sqlInts, sqlTexts, sqlUuids } from "../db/sql-arrays";
import { isDuplicateSupply } from "./supply";

type Column = (typeof SUPPLY_CSV_COLUMNS)[number] | (typeof SUPPLY_CSV_OPTIONAL_COLUMNS)[number];
const known = new Set<string>([...SUPPLY_CSV_COLUMNS, ...SUPPLY_CSV_OPTIONAL_COLUMNS]);

/** One row of the file, its cells checked on their own. */
interface SupplyCsvRow {
  line: number;
  kind: SupplyKind;
  reference: string;
  partNumber: string;
  locationCode: string;
  qty: number;
  expectedOn: string;
  note: string;
}

/** A cell's problem as the contract's schema words it. */
const problem = (
  result: { success: true } | { success: false; error: { issues: { message: string }[] } },
) => (result.success ? null : result.error.issues[0]!.message);

const fields = supplyCreateSchema.shape;

/**
 * Supply entered from an admin's CSV (docs/inventory.md "Incoming supply"): a row per run or PO
 * line, the part by its number and the location by its code. All or nothing: any problem (a
 * malformed cell, a part or location not found, a line the file or the store already has) writes
 * nothing, and every problem is listed with its line.
 */
export async function importSupply(db: Db, file: Buffer, actor: AuditActor): Promise<SupplyImport> {
  const read = readCsvRecords(file);
  if ("problem" in read) {
    return { applied: false, rows: 0, errors: [{ line: 1, message: read.problem }] };
  }
  const missing = SUPPLY_CSV_COLUMNS.filter((c) => !read.names.includes(c));
  const header = headerErrors(read.names, missing, (n) => known.has(n));
  if (header.length > 0) return { applied: false, rows: read.body.length, errors: header };
  if (read.body.length > MAX_SUPPLY_CSV_ROWS) {
    const message = `At most ${formatCount(MAX_SUPPLY_CSV_ROWS)} rows per file`;
    return { applied: false, rows: read.body.length, errors: [{ line: 1, message }] };
  }
  const cell = (cells: string[], column: Column) => {
    const at = read.names.indexOf(column);
    return at < 0 ? "" : unescapeCell(cells[at] ?? "").trim();
  };

  const errors: CsvRowError[] = [];
  const rows: SupplyCsvRow[] = [];
  for (const { cells, line } of read.body) {
    const wrong = (column: Column, message: string | null) => {
      if (message) errors.push({ line, column, message });
      return message !== null;
    };
    const kind = cell(cells, "kind").toLowerCase();
    const reference = cell(cells, "reference");
    const partNumber = cell(cells, "part_number");
    const locationCode = cell(cells, "location_code");
    const qtyText = cell(cells, "qty");
    const qty = /^\d{1,9}$/.test(qtyText) ? Number(qtyText) : Number.NaN;
    const expectedOn = cell(cells, "expected_on");
    const note = cell(cells, "note");
    const bad = [
      wrong(
        "kind",
        (SUPPLY_KINDS as readonly string[]).includes(kind)
          ? null
          : `${supplyMessages.kind}: production or purchase_order`,
      ),
      wrong("reference", problem(fields.reference.safeParse(reference))),
      wrong("part_number", partNumber === "" ? "Enter the part number" : null),
      wrong("location_code", locationCode === "" ? "Enter the location's code" : null),
      wrong(
        "qty",
        Number.isNaN(qty)
          ? "Enter the units as a whole number"
          : problem(fields.qty.safeParse(qty)),
      ),
      wrong("expected_on", problem(fields.expectedOn.safeParse(expectedOn))),
      wrong("note", problem(fields.note.safeParse(note))),
    ].some(Boolean);
    if (!bad) {
      rows.push({
        line,
        kind: kind as SupplyKind,
        reference,
        partNumber,
        locationCode,
        qty,
        expectedOn,
        note,
      });
    }
  }
  if (rows.length === 0 && errors.length === 0) {
    return { applied: false, rows: 0, errors: [{ line: 1, message: "The file has no rows" }] };
  }

  try {
    return await db.transaction(async (tx) => {
      // Each row's part and location, and whether its run or PO already brings that part.
      const found = await tx.execute<{
        line: number;
        product_id: string | null;
        part_number: string | null;
        location_id: string | null;
        already: boolean;
      }>(sql`
        with wanted as (
          select * from unnest(${sqlInts(rows.map((r) => r.line))},
                               ${sqlTexts(rows.map((r) => r.kind))},
                               ${sqlTexts(rows.map((r) => r.reference))},
                               ${sqlTexts(rows.map((r) => normalizePartNumber(r.partNumber)))},
                               ${sqlTexts(rows.map((r) => r.locationCode))})
                 as w(line, kind, reference, part_key, location_code)
        )
        select w.line, p.id as product_id, p.part_number, l.id as location_id,
               exists (select 1 from incoming_supply s
                        where s.kind = w.kind and upper(s.reference) = upper(w.reference)
                          and s.product_id = p.id and s.status <> 'cancelled') as already
          from wanted w
          left join products p on p.part_number_normalized = w.part_key and w.part_key <> ''
          left join stock_locations l on upper(l.code) = upper(w.location_code)`);
      const byLine = new Map(found.rows.map((r) => [r.line, r]));
      const seen = new Map<string, number>();
      const ready: { row: SupplyCsvRow; productId: string; locationId: string }[] = [];
      for (const row of rows) {
        const match = byLine.get(row.line)!;
        if (!match.product_id) {
          errors.push({
            line: row.line,
            column: "part_number",
            message: `No part numbered ${row.partNumber}`,
          });
        }
        if (!match.location_id) {
          errors.push({
            line: row.line,
            column: "location_code",
            message: `No location with the code ${row.locationCode}`,
          });
        }
        if (!match.product_id || !match.location_id) continue;
        const key = `${row.kind}:${row.reference.toUpperCase()}:${match.product_id}`;
        const first = seen.get(key);
        if (match.already || first !== undefined) {
          const duplicate = supplyMessages.duplicate(row.kind, row.reference, match.part_number!);
          errors.push({
            line: row.line,
            message: first === undefined ? duplicate : `${duplicate} (line ${first} of the file)`,
          });
          continue;
        }
        seen.set(key, row.line);
        ready.push({ row, productId: match.product_id, locationId: match.location_id });
      }
      if (errors.length > 0) {
        errors.sort((a, b) => a.line - b.line);
        return { applied: false, rows: read.body.length, errors };
      }
      await tx.execute(sql`
        insert into incoming_supply
          (kind, reference, product_id, location_id, qty, expected_on, note)
        select * from unnest(${sqlTexts(ready.map((r) => r.row.kind))},
                             ${sqlTexts(ready.map((r) => r.row.reference))},
                             ${sqlUuids(ready.map((r) => r.productId))},
                             ${sqlUuids(ready.map((r) => r.locationId))},
                             ${sqlInts(ready.map((r) => r.row.qty))},
                             ${sqlTexts(ready.map((r) => r.row.expectedOn))}::date[],
                             ${sqlTexts(ready.map((r) => r.row.note))})`);
      const units = ready.reduce((sum, r) => sum + r.row.qty, 0);
      await recordAdminAction(tx, {
        actor,
        action: "supply.import",
        target: { type: "incoming-supply", id: "csv" },
        summary: `Added ${ready.length} incoming ${ready.length === 1 ? "supply" : "supplies"} (${units} units) from a CSV file`,
      });
      return { applied: true, rows: ready.length, errors: [] };
    });
  } catch (err) {
    // Another admin entered one of these lines, or deleted one of its parts, while it was read.
    const deleted = postgresError(err)?.code === PG.foreignKeyViolation;
    if (!deleted && !isDuplicateSupply(err)) throw err;
    const what = deleted ? "A part of the file was deleted" : "Some of these lines were entered";
    return {
      applied: false,
      rows: read.body.length,
      errors: [{ line: 1, message: `${what} meanwhile: upload the file again to see which` }],
    };
  }
}
