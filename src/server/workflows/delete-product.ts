import { recordAdminAction, type AuditActor } from "../audit/service";
import { deleteProduct, lockProduct } from "../catalog/writes";
import type { Db } from "../db/database";
import { conflict, notFound } from "../errors";
import { productHeldByOrders } from "../orders/state";

export const unpaidOrdersMessage =
  "This product has unpaid orders; wait until they are paid or cancelled";

/**
 * An admin deletes a product, unless a customer still holds stock of it in an unpaid order. The
 * product row is locked first: placing an order updates that row, so no order can slip in
 * between the check and the delete. Paid orders keep their product name and price.
 */
export function createDeleteProduct(db: Db) {
  return async function removeProduct(id: string, actor?: AuditActor): Promise<void> {
    await db.transaction(async (tx) => {
      const row = await lockProduct(tx, id);
      if (!row) throw notFound("Product not found");
      if (await productHeldByOrders(tx, id)) throw conflict(unpaidOrdersMessage);
      await deleteProduct(tx, id);
      if (actor) {
        await recordAdminAction(tx, {
          actor,
          action: "product.delete",
          target: { type: "product", id },
          summary: `Deleted ${row.name} (${row.partNumber})`,
        });
      }
    });
  };
}
