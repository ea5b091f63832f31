import { and, asc, eq } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  bulkMessages as say,
  type SyncInvoicesPage,
  type SyncOrdersPage,
  type SyncQuery,
} from "../../contract/bulk";
import type { Db } from "../db/database";
import { fieldError } from "../errors";
import { invoices } from "../invoices/tables";
import { toSummary } from "../invoices/service";
import { orders } from "../orders/tables";
import { withLines } from "../orders/service";

/**
 * Change cursors for systems that poll (docs/bulk-sync.md): orders and invoices changed since a
 * cursor, oldest change first. A row's place is (the transaction that last wrote it, its id):
 * `change_xid`, kept by migration 0062. A page lists only rows whose transaction ended before
 * every transaction still running began (below the snapshot's xmin), so a transaction that
 * commits late, whatever its start, only ever adds rows after the page's last one: a cursor
 * never skips a change. A row changed again moves to the end and is listed again.
 */

/** A place in the order of changes: the transaction id (decimal) and the row's id. */
interface Place {
  xid: string;
  id: string;
}

const START: Place = { xid: "0", id: "00000000-0000-0000-0000-000000000000" };
const VERSION = "c1";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The opaque cursor of a place (base64url; its inside is no promise). */
export const cursorOf = (p: Place) =>
  Buffer.from(`${VERSION}.${p.xid}.${p.id}`).toString("base64url");

/** The place a cursor names; a cursor this API did not give is a 400. */
export function placeOf(cursor: string | undefined): Place {
  if (cursor === undefined || cursor === "") return START;
  const bad = () => fieldError("cursor", say.cursor);
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  const [version, xid, id, ...rest] = Buffer.from(cursor, "base64url")
    .toString("latin1")
    .split(".");
  if (
    version !== VERSION ||
    rest.length > 0 ||
    !xid ||
    !/^\d{1,19}$/.test(xid) ||
    BigInt(xid) > 2n ** 63n - 1n ||
    !id ||
    !UUID.test(id)
  ) {
    throw bad();
  }
  return { xid, id };
}

/** Rows after `p` in change order, whose transactions have all ended (see above). */
const after = (table: typeof orders | typeof invoices, p: Place) =>
  sql`${table.changeXid} < pg_snapshot_xmin(pg_current_snapshot())
      and (${table.changeXid}, ${table.id}) > (${p.xid}::xid8, ${p.id}::uuid)`;

export function createSyncService(db: Db) {
  return {
    /** Orders changed since the cursor, as the admin's order list answers them. */
    async orders(query: SyncQuery): Promise<SyncOrdersPage> {
      const from = placeOf(query.cursor);
      const rows = await db
        .select()
        .from(orders)
        .where(after(orders, from))
        .orderBy(asc(orders.changeXid), asc(orders.id))
        .limit(query.limit + 1);
      const page = rows.slice(0, query.limit);
      const items = (await withLines(db, page)).map((o, i) => ({
        ...o,
        customerName: page[i]!.customerName,
      }));
      const last = page.at(-1);
      return {
        items,
        nextCursor: cursorOf(last ? { xid: last.changeXid, id: last.id } : from),
        hasMore: rows.length > query.limit,
      };
    },

    /** Invoices issued since the cursor (credit notes are not listed), as an order's invoice answer. */
    async invoices(query: SyncQuery): Promise<SyncInvoicesPage> {
      const from = placeOf(query.cursor);
      const rows = await db
        .select()
        .from(invoices)
        .where(and(eq(invoices.kind, "invoice"), after(invoices, from)))
        .orderBy(asc(invoices.changeXid), asc(invoices.id))
        .limit(query.limit + 1);
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        items: page.map(toSummary),
        nextCursor: cursorOf(last ? { xid: last.changeXid, id: last.id } : from),
        hasMore: rows.length > query.limit,
      };
    },
  };
}

export type SyncService = ReturnType<typeof createSyncService>;
