import type { BackorderQueueQuery, QueuedBackorder } from "../../contract/backorder-queue";
import { orderNumberText, parseOrderNumber } from "../../contract/orders";
import type { DbOrTx } from "../db/database";
import { containsPattern } from "../db/like";
import { pageOf } from "../db/page";
import { sql, type SQL } from "../db/sql";
import { backorders } from "./tables";

/*
 * The admin's backorder queue (docs/inventory.md "The backorder queue"): the order lines with
 * units still waiting for supply, across all parts, in the order supply fills them (first placed
 * first: `fill_backorders`' order, migration 0073). Read only; the orders, buyers and companies
 * are read by name, as the inventory reads the catalog's products.
 */

/** A waiting line with its order, buyer, company and part, as the queue reads it. */
type QueueRow = {
  id: string;
  order_id: string;
  number: number;
  line: number;
  customer_name: string;
  order_email: string;
  company_name: string | null;
  product_id: string;
  product_name: string;
  part_number: string;
  qty: number;
  waiting: number;
  promised_on: string | null;
  placed_at: Date | string;
  ship_complete: boolean;
};

/** The buyer's company: the one they order for now, else the company on the order's ship-to. */
const companyOf = sql`coalesce(
  (select c.name from company_members m join companies c on c.id = m.company_id
    where m.user_id = o.user_id),
  nullif(btrim(o.ship_to->>'company'), ''))`;

/**
 * The queue's filter, on `backorders` unaliased (pageOf counts that table with it): waiting
 * lines, of one part, matching the search (the order's number, the buyer's name or email, the
 * company, the part's number or name).
 */
function queueFilter(query: BackorderQueueQuery): SQL {
  const filters: SQL[] = [sql`backorders.waiting > 0`];
  if (query.productId) filters.push(sql`backorders.product_id = ${query.productId}`);
  if (query.q) {
    const like = containsPattern(query.q);
    const number = parseOrderNumber(query.q);
    filters.push(sql`(
      exists (select 1 from orders o
               where o.id = backorders.order_id
                 and (${number === null ? sql`false` : sql`o.number = ${number}`}
                      or lower(o.customer_name) like ${like}
                      or lower(o.order_email) like ${like}
                      or lower(${companyOf}) like ${like}))
      or exists (select 1 from products p
                  where p.id = backorders.product_id
                    and (lower(p.part_number) like ${like} or lower(p.name) like ${like})))`);
  }
  return sql.join(filters, sql` and `);
}

const toQueued = (r: QueueRow): QueuedBackorder => ({
  id: r.id,
  orderId: r.order_id,
  orderNumber: orderNumberText(r.number),
  line: r.line,
  customerName: r.customer_name,
  customerEmail: r.order_email,
  companyName: r.company_name,
  productId: r.product_id,
  productName: r.product_name,
  partNumber: r.part_number,
  qty: r.qty,
  waiting: r.waiting,
  promisedOn: r.promised_on,
  placedAt: new Date(r.placed_at).toISOString(),
  shipComplete: r.ship_complete,
});

/** A page of the queue, first placed first (the order supply fills it), and its length in lines. */
export async function backorderQueue(
  db: DbOrTx,
  query: BackorderQueueQuery,
): Promise<{ items: QueuedBackorder[]; total: number }> {
  const where = queueFilter(query);
  const rows = {
    limit: (limit: number) => ({
      offset: async (offset: number) =>
        (
          await db.execute<QueueRow>(sql`
            select backorders.id, backorders.order_id, o.number, backorders.line,
                   o.customer_name, o.order_email, ${companyOf} as company_name,
                   backorders.product_id, p.name as product_name, p.part_number,
                   backorders.qty, backorders.waiting,
                   to_char(backorders.promised_on, 'YYYY-MM-DD') as promised_on,
                   o.created_at as placed_at, o.ship_complete
              from backorders
              join orders o on o.id = backorders.order_id
              join products p on p.id = backorders.product_id
             where ${where}
             order by backorders.created_at, backorders.id
             limit ${limit} offset ${offset}`)
        ).rows,
    }),
  };
  const page = await pageOf(db, rows, backorders, where, query);
  return { items: page.rows.map(toQueued), total: page.total };
}

/** The units waiting on backorder across all parts, and in how many order lines (the Today page). */
export async function waitingBackorders(db: DbOrTx): Promise<{ units: number; lines: number }> {
  const rows = await db.execute<{ units: number; lines: number }>(sql`
    select coalesce(sum(waiting), 0)::int as units, count(*)::int as lines
      from backorders where waiting > 0`);
  return rows.rows[0]!;
}
