import { randomUUID } from "node:crypto";
import { NO_REPLACEMENT, type Order } from "../../contract/orders";
import type { DbOrTx } from "../db/database";
import { conflict } from "../errors";
import type { StockMoves } from "../inventory/service";
import { toOrder } from "../orders/service";
import { settleWarrantyReplacement, type OrderItemRow, type OrderRow } from "../orders/state";
import { recordWebhookEvent } from "../webhooks/outbox";
import { orderEventData } from "../webhooks/events";
import { NOTHING_CHARGED } from "./decide";
import { writeOrder, type OrderToWrite } from "./write";

/** The order line a replacement replaces, and how many of it. */
export interface Replaced {
  order: OrderRow;
  item: OrderItemRow;
  qty: number;
  /** The claim's number (`WC-10023`): in the order's transaction id, and so on its words. */
  claim: string;
}

/**
 * A warranty claim's replacement (docs/warranty.md "Approval"): an order of the same part for the
 * claimed units, to the original order's customer and address, through the order path's write
 * (the order, its line, its stock taken in one statement: `write.ts`), at no charge (no price,
 * shipping or tax, so no limit or approval of a paid order applies; the product's minimum order
 * does not either), settled at once (`settleWarrantyReplacement`: `paid`, nothing owed) and
 * shipped as any order is. In the caller's transaction, which has locked the claim.
 */
export async function placeReplacement(
  tx: DbOrTx,
  stock: Pick<StockMoves, "takeWith" | "backorder">,
  { order, item, qty, claim }: Replaced,
): Promise<Order> {
  if (!order.userId) throw conflict(NO_REPLACEMENT.accountGone);
  if (!item.productId) throw conflict(NO_REPLACEMENT.productGone);
  const customer = { id: order.userId, email: order.orderEmail, name: order.customerName };
  const replacement: OrderToWrite = {
    id: randomUUID(),
    lines: [
      {
        productId: item.productId,
        qty,
        productName: item.productName,
        partNumber: item.partNumber,
        unitPriceCents: 0,
        taxCents: 0,
        coreDepositCents: 0,
      },
    ],
    charges: NOTHING_CHARGED,
    totalCents: 0,
    approval: null,
    delivery: {
      phone: order.phone,
      address: order.address,
      poReference: null,
      shipTo: order.shipTo,
    },
    currency: order.currency,
    // Settled in the same transaction: no hold runs.
    holdExpiresAt: new Date(),
    vehicles: [
      item.vehicleBaseVehicleId
        ? {
            baseVehicleId: item.vehicleBaseVehicleId,
            engineId: item.vehicleEngineId,
            label: item.vehicleLabel ?? "",
          }
        : null,
    ],
  };
  const { row, items } = await writeOrder(tx, stock, customer, replacement, {
    checkMinimum: false,
  });
  await recordWebhookEvent(tx, { type: "order.placed", data: orderEventData(row) });
  return toOrder(await settleWarrantyReplacement(tx, row.id, claim), items);
}
