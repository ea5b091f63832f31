import { formatCount } from "../../contract/count";
import type { CsvRowError } from "../../contract/product-csv";
import { recountShippedUnits } from "./sales";
import { orderNumberText, parseOrderNumber } from "../../contract/orders";
import {
  LOT_CSV_COLUMNS,
  MAX_LOT_CSV_ROWS,
  lotSchema,
  type LotImport,
} from "../../contract/shipments";
import { recordAdminAction, type AuditActor } from "../audit/service";
import { headerErrors, readCsvRecords, unescapeCell } from "../csv/csv-file";
import type { Db } from "../db/database";
import { sql } from "../db/sql";
import { sqlInts, sqlTexts } from "../db/sql-arrays";

/** One row of the file, read and checked on its own. */
interface LotRow {
  line: number;
  orderNumber: number;
  orderLine: number;
  lot: string;
}

/**
 * Sets the production lots of lines already shipped from an admin's CSV (docs/warranty.md
 * "Lots"): every shipment of the order line gets the row's lot. All or nothing: any problem (a
 * malformed cell, an order or a line that has not shipped, a line named twice) writes nothing.
 */
export async function importLots(db: Db, file: Buffer, actor: AuditActor): Promise<LotImport> {
  const read = readCsvRecords(file);
  if ("problem" in read)
    return { applied: false, rows: 0, errors: [{ line: 1, message: read.problem }] };
  const missing = LOT_CSV_COLUMNS.filter((c) => !read.names.includes(c));
  const header = headerErrors(read.names, missing, (n) =>
    (LOT_CSV_COLUMNS as readonly string[]).includes(n),
  );
  if (header.length > 0) return { applied: false, rows: read.body.length, errors: header };
  if (read.body.length > MAX_LOT_CSV_ROWS) {
    const message = `At most ${formatCount(MAX_LOT_CSV_ROWS)} rows per file`;
    return { applied: false, rows: read.body.length, errors: [{ line: 1, message }] };
  }
  const cell = (cells: string[], column: (typeof LOT_CSV_COLUMNS)[number]) =>
    unescapeCell(cells[read.names.indexOf(column)] ?? "").trim();
  const errors: CsvRowError[] = [];
  const rows: LotRow[] = [];
  const seen = new Set<string>();
  for (const { cells, line } of read.body) {
    const orderNumber = parseOrderNumber(cell(cells, "order"));
    const orderLine = Number(cell(cells, "line"));
    const lot = lotSchema.safeParse(cell(cells, "lot"));
    if (orderNumber === null)
      errors.push({ line, column: "order", message: "Enter an order number such as PW-100234" });
    if (!Number.isInteger(orderLine) || orderLine < 1 || orderLine > 1000) {
      errors.push({
        line,
        column: "line",
        message: "Enter the order's line as a number (1 = the first)",
      });
    }
    if (!lot.success) errors.push({ line, column: "lot", message: lot.error.issues[0]!.message });
    if (orderNumber === null || !lot.success || !Number.isInteger(orderLine)) continue;
    const key = `${orderNumber}:${orderLine}`;
    if (seen.has(key)) {
      errors.push({
        line,
        message: `${orderNumberText(orderNumber)} line ${orderLine} is in the file twice`,
      });
      continue;
    }
    seen.add(key);
    rows.push({ line, orderNumber, orderLine, lot: lot.data });
  }
  if (errors.length > 0 || rows.length === 0) {
    if (rows.length === 0 && errors.length === 0)
      errors.push({ line: 1, message: "The file has no rows" });
    return { applied: false, rows: read.body.length, errors };
  }
  try {
    await db.transaction(async (tx) => {
      // Every row's lot on each shipment of its line, in one statement; a row it finds nothing
      // for (an order that does not exist, a line not shipped) undoes the whole file.
      const updated = await tx.execute<{ number: number; line: number; order_id: string }>(sql`
        with wanted as (
          select * from unnest(${sqlInts(rows.map((r) => r.orderNumber))},
                               ${sqlInts(rows.map((r) => r.orderLine))},
                               ${sqlTexts(rows.map((r) => r.lot))}) as w(number, line, lot)
        )
        update shipment_lines sl set lot = w.lot
        from wanted w join orders o on o.number = w.number
        where sl.order_id = o.id and sl.line = w.line
        returning w.number, w.line, o.id as order_id
      `);
      const found = new Set(updated.rows.map((r) => `${r.number}:${r.line}`));
      const notShipped = rows.filter((r) => !found.has(`${r.orderNumber}:${r.orderLine}`));
      if (notShipped.length > 0) throw new NotShipped(notShipped);
      // What the report counts as sold per lot follows.
      await recountShippedUnits(tx, [...new Set(updated.rows.map((r) => r.order_id))]);
      await recordAdminAction(tx, {
        actor,
        action: "order.set-lots",
        target: { type: "shipment-lots", id: "csv" },
        summary: `Set the production lots of ${rows.length} shipped order line${rows.length === 1 ? "" : "s"} from a CSV file`,
      });
    });
  } catch (err) {
    if (!(err instanceof NotShipped)) throw err;
    return {
      applied: false,
      rows: read.body.length,
      errors: err.rows.map((r) => ({
        line: r.line,
        message: `${orderNumberText(r.orderNumber)} has no line ${r.orderLine} shipped`,
      })),
    };
  }
  return { applied: true, rows: rows.length, errors: [] };
}

/** The rows whose order line has not shipped: the transaction is undone, and they are said. */
class NotShipped extends Error {
  constructor(readonly rows: LotRow[]) {
    super("not shipped");
  }
}
