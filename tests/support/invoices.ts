import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../src/server/db/database";
import { orderItems, orders } from "../../src/server/orders/tables";
import type { InvoiceService } from "../../src/server/invoices/service";
import { invoices } from "../../src/server/invoices/tables";

/** The seller an invoice service of a test names: a name and one address line, no tax id or email. */
export const TEST_SELLER = { name: "Test Seller", address: ["1 Road"], taxId: null, email: null };

/** `n` unpaid one-line orders written straight into the database (bulk invoicing's orders). */
export async function unpaidOrders(db: Db, n: number): Promise<string[]> {
  const rows = await db
    .insert(orders)
    .values(
      Array.from({ length: n }, (_, i) => ({
        orderEmail: "bulk@example.com",
        customerName: "Bulk Buyer",
        totalCents: 1000 + i,
        currency: "USD",
        phone: "5550100",
        address: "1 Dock Road",
        holdExpiresAt: new Date(Date.now() + 3_600_000),
      })),
    )
    .returning({ id: orders.id, totalCents: orders.totalCents });
  await db.insert(orderItems).values(
    rows.map((r) => ({
      orderId: r.id,
      line: 1,
      productName: "Bulk part",
      partNumber: "BULK-1",
      unitPriceCents: r.totalCents,
      qty: 1,
    })),
  );
  return rows.map((r) => r.id);
}

/** What a paying transaction does to the order before its invoice (payments/service.ts markPaid). */
export async function markOrderPaid(tx: DbOrTx, orderId: string): Promise<void> {
  await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for("update");
  await tx
    .update(orders)
    .set({ status: "paid", transactionId: `pi_bulk_${orderId}`, paidAt: new Date() })
    .where(eq(orders.id, orderId));
}

/**
 * Pays every order, `parallel` payments at a time (each its own transaction: the order marked
 * paid, its invoice issued at `when`); answers the numbers given, in the order they were given.
 * The database pool must hold `parallel` connections for them to run at once.
 */
export async function payAllInParallel(
  db: Db,
  invoices: InvoiceService,
  orderIds: string[],
  parallel: number,
  when: Date,
): Promise<string[]> {
  const queue = [...orderIds];
  const issued: string[] = [];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let id = queue.pop(); id; id = queue.pop()) {
        const orderId = id;
        const invoice = await db.transaction(async (tx) => {
          await markOrderPaid(tx, orderId);
          return invoices.issue(tx, orderId, when);
        });
        issued.push(invoice.number);
      }
    }),
  );
  return issued;
}

/** The order's credit notes (its refunds' documents), as the database has them. */
export const creditNotesOf = (db: DbOrTx, orderId: string) =>
  db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, "credit_note")));
