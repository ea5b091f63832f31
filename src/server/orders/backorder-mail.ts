import { backorderMessages, promisedWords } from "../../contract/backorders";
import { orderNumberText } from "../../contract/orders";
import { paths } from "../../contract/paths";
import type { Db, DbOrTx } from "../db/database";
import { sql } from "../db/sql";
import { sqlUuids } from "../db/sql-arrays";
import { markTold, untoldDates, type UntoldDate } from "../inventory/backorders";
import { hello, layout, STORE } from "../mail/layout";
import type { Mailer } from "../mail/mailer";

/** Orders told per transaction of the job (each order's lines locked while its email is queued). */
const BATCH = 200;

/**
 * "A new date for your backordered parts" (docs/inventory.md "Backorders"): the recurring
 * "backorder-dates" job emails every buyer whose waiting lines' promised dates moved since they
 * were last told (supply re-dated, received or cancelled; the queue moved), one email per order,
 * and records what they were told. The transaction that moved the dates writes no email, so one
 * receipt can date ten thousand lines at once. Cancelled and shipped orders are not told.
 */
export function createBackorderDateMail(
  db: Db,
  mailer: Pick<Mailer, "sendIn">,
  publicUrl: string,
): { sweep(): Promise<number> } {
  /** One batch, in its own transaction: how many orders were told. */
  async function batch(): Promise<number> {
    return db.transaction(async (tx) => {
      const moved = await untoldDates(tx, BATCH);
      if (moved.length === 0) return 0;
      const facts = await orderFacts(
        tx,
        moved.map((m) => m.backorderId),
      );
      const byOrder = new Map<string, UntoldDate[]>();
      for (const m of moved) byOrder.set(m.orderId, [...(byOrder.get(m.orderId) ?? []), m]);
      for (const [orderId, lines] of byOrder) {
        const order = facts.get(lines[0]!.backorderId);
        if (!order || order.status === "cancelled" || order.status === "shipped") continue;
        const number = orderNumberText(order.number);
        const mail = layout({
          subject: `A new date for your backordered parts on ${STORE} order ${number}`,
          greeting: hello(order.customerName),
          paragraphs: [
            `The date we expect the backordered parts of your order ${number} has changed:`,
            ...lines.map(
              (l) =>
                `${facts.get(l.backorderId)!.productName}: ${backorderMessages.waiting(l.waiting, l.now)}` +
                ` (before: ${promisedWords(l.was)}).`,
            ),
            "What is in stock ships as usual; the rest ships as soon as it arrives.",
          ],
          action: { label: "View your order", url: `${publicUrl}${paths.order.to(orderId)}` },
          publicUrl,
        });
        // Once per line and date told (a batch run again queues nothing new).
        const key = lines.map((l) => `${l.backorderId}@${l.now}`).join(",");
        await mailer.sendIn(tx, { to: order.email, ...mail }, `backorder-date:${key}`);
      }
      await markTold(tx, moved);
      return byOrder.size;
    });
  }

  return {
    async sweep() {
      let told = 0;
      for (;;) {
        const n = await batch();
        told += n;
        if (n < BATCH) return told;
      }
    },
  };
}

/** Each backorder's order (number, status, buyer) and part name. */
async function orderFacts(tx: DbOrTx, backorderIds: string[]) {
  const rows = await tx.execute<{
    id: string;
    number: number;
    status: string;
    order_email: string;
    customer_name: string;
    product_name: string;
  }>(sql`
    select b.id, o.number, o.status, o.order_email, o.customer_name, i.product_name
      from backorders b
      join orders o on o.id = b.order_id
      join order_items i on i.order_id = b.order_id and i.line = b.line
     where b.id = any(${sqlUuids(backorderIds)})`);
  return new Map(
    rows.rows.map((r) => [
      r.id,
      {
        number: r.number,
        status: r.status,
        email: r.order_email,
        customerName: r.customer_name,
        productName: r.product_name,
      },
    ]),
  );
}
