import { createHash } from "node:crypto";
import { backorderMessages, promisedWords } from "../../contract/backorders";
import { orderNumberText } from "../../contract/orders";
import { paths } from "../../contract/paths";
import type { DbOrTx } from "../db/database";
import { sql } from "../db/sql";
import { sqlUuids } from "../db/sql-arrays";
import { hello, layout, STORE } from "../mail/layout";
import type { Mailer } from "../mail/mailer";

/** A waiting backorder whose promised date changed (the inventory's `PromiseChange`). */
interface DateChange {
  orderId: string;
  backorderId: string;
  was: string | null;
  now: string | null;
}

/**
 * "A new date for your backordered parts": one email per order whose lines' promised dates
 * changed (supply re-dated, received or cancelled; the queue moved), queued in the transaction
 * that changed them. Cancelled orders are not told.
 */
export function createBackorderDateMail(
  mailer: Pick<Mailer, "sendIn">,
  publicUrl: string,
): (tx: DbOrTx, changes: DateChange[]) => Promise<void> {
  return async (tx, changes) => {
    if (changes.length === 0) return;
    const rows = await tx.execute<{
      backorder_id: string;
      order_id: string;
      number: number;
      order_email: string;
      customer_name: string;
      product_name: string;
      waiting: number;
    }>(sql`
      select b.id as backorder_id, o.id as order_id, o.number, o.order_email, o.customer_name,
             i.product_name, b.waiting
        from backorders b
        join orders o on o.id = b.order_id
        join order_items i on i.order_id = b.order_id and i.line = b.line
       where b.id = any(${sqlUuids(changes.map((c) => c.backorderId))})
         and o.status not in ('cancelled', 'shipped') and b.waiting > 0
       order by o.id, b.line`);
    const byId = new Map(changes.map((c) => [c.backorderId, c]));
    const orders = new Map<string, typeof rows.rows>();
    for (const r of rows.rows) orders.set(r.order_id, [...(orders.get(r.order_id) ?? []), r]);
    for (const [orderId, lines] of orders) {
      const first = lines[0]!;
      const number = orderNumberText(first.number);
      const mail = layout({
        subject: `A new date for your backordered parts on ${STORE} order ${number}`,
        greeting: hello(first.customer_name),
        paragraphs: [
          `The date we expect the backordered parts of your order ${number} has changed:`,
          ...lines.map((l) => {
            const change = byId.get(l.backorder_id)!;
            return (
              `${l.product_name}: ${backorderMessages.waiting(l.waiting, change.now)}` +
              ` (before: ${promisedWords(change.was)}).`
            );
          }),
          "What is in stock ships as usual; the rest ships as soon as it arrives.",
        ],
        action: { label: "View your order", url: `${publicUrl}${paths.order.to(orderId)}` },
        publicUrl,
      });
      // Once per order and set of new dates (a retried transaction queues it once).
      const dates = lines.map((l) => `${l.backorder_id}@${byId.get(l.backorder_id)!.now}`);
      const key = createHash("sha256").update(dates.join(",")).digest("hex").slice(0, 32);
      await mailer.sendIn(tx, { to: first.order_email, ...mail }, `backorder-date:${key}`);
    }
  };
}
