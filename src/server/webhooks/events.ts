import { orderNumberText } from "../../contract/orders";
import type { WebhookEventData } from "../../contract/webhooks";
import { sql, type SQL } from "../db/sql";
import { centsToUnits } from "../money";

/*
 * The `data` of each event (docs/webhooks.md lists them): ids, the human number, the status and
 * the money as the API shows it (currency units). Kept small: a receiver reads the API for more.
 */

/** An order's row, as much of it as its events say. */
export interface OrderForEvent {
  id: string;
  number: number;
  userId: string | null;
  status: string;
  totalCents: number;
  currency: string;
}

/** `order.placed`, `order.paid`, `order.approved`, `order.shipped`, `order.cancelled`. */
export function orderEventData(o: OrderForEvent, extra: WebhookEventData = {}): WebhookEventData {
  return {
    orderId: o.id,
    number: orderNumberText(o.number),
    customerId: o.userId,
    status: o.status,
    total: centsToUnits(o.totalCents),
    currency: o.currency,
    ...extra,
  };
}

/**
 * `order.placed` for the order path's one statement: the same fields, from the `placed` CTE (its
 * number is taken at the insert) and what the order was decided with.
 */
export function placedOrderDataSql(o: Omit<OrderForEvent, "number" | "id">): SQL {
  return sql`json_build_object(
    'orderId', placed.id, 'number', 'PW-' || placed.number, 'customerId', ${o.userId}::text,
    'status', ${o.status}::text, 'total', ${centsToUnits(o.totalCents)}::numeric,
    'currency', ${o.currency}::text)`;
}

/** `return.requested`, `return.received`, `return.refunded`. */
export function returnEventData(
  r: { id: string; orderId: string; rmaNumber: number; status: string; userId: string | null },
  extra: WebhookEventData = {},
): WebhookEventData {
  return {
    returnId: r.id,
    number: `RMA-${r.rmaNumber}`,
    orderId: r.orderId,
    customerId: r.userId,
    status: r.status,
    ...extra,
  };
}

/** `product.created`, `product.updated` (with `fields`: the names the change sent, comma-separated). */
export function productEventData(
  p: {
    id: string;
    partNumber: string;
    name: string;
    priceCents: number;
    availableQuantity: number;
  },
  extra: WebhookEventData = {},
): WebhookEventData {
  return {
    productId: p.id,
    partNumber: p.partNumber,
    name: p.name,
    price: centsToUnits(p.priceCents),
    availableQuantity: p.availableQuantity,
    ...extra,
  };
}
