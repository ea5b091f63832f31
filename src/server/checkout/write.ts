import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../db/database";
import type { orderItems, orders, ShipToSnapshot } from "../db/schema";
import { sqlInts, sqlNullableInts, sqlTexts, sqlUuids } from "../db/sql-arrays";
import type { LineVehicle } from "../fitment/service";
import type { StockMoves } from "../inventory/service";
import type { Decision } from "./decide";

export interface Customer {
  id: string;
  email: string;
  name: string;
}

/** Where an order goes and how to reach the customer. */
export interface Delivery {
  phone: string;
  address: string;
  poReference?: string | null;
  /** The structured address shipping and tax were computed for, when there is one. */
  shipTo?: ShipToSnapshot | null;
}

type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;

/**
 * Writes a decided order and takes its stock in one statement: the order, its lines, the
 * account's hold windows, the stock (through the inventory's `takeWith`: the product rows locked
 * in id order, the rules re-checked in SQL, a line that no longer fits refusing the whole order)
 * and `also`, the caller's other writes (a checkout empties the cart here). The hold ends
 * `holdMs` from now, but never later than an open window of the same account on one of its
 * products (a deleted order's), so deleting and re-ordering does not renew a hold; windows open,
 * ending then, for its other products.
 */
export async function writeOrder(
  tx: DbOrTx,
  stock: Pick<StockMoves, "takeWith">,
  customer: Customer,
  order: Decision & {
    delivery: Delivery;
    currency: string;
    holdMs: number;
    /** The vehicle each line keeps, in the lines' order (null or absent: none). */
    vehicles?: (LineVehicle | null)[];
    /** More writes of the same statement: a data-modifying query (`delete from …`). */
    also?: SQL;
  },
): Promise<{ row: OrderRow; items: OrderItemRow[] }> {
  const { lines, delivery, charges } = order;
  const vehicles = lines.map((_, i) => order.vehicles?.[i] ?? null);
  const ids = sqlUuids(lines.map((l) => l.productId));
  const fresh = new Date(Date.now() + order.holdMs).toISOString();
  // Over a spending limit: the order waits for an owner, holding its stock as an unpaid one does.
  const status = order.approval ? ("awaiting_approval" as const) : ("unpaid" as const);
  const writes = sql`
    until as (
      select least(${fresh}::timestamptz, min(expires_at)) as t from hold_windows
       where user_id = ${customer.id} and product_id = any(${ids}) and expires_at > now()
    ),
    windows as (
      insert into hold_windows (user_id, product_id, expires_at)
      select ${customer.id}, p, (select t from until) from unnest(${ids}) as p
      on conflict (user_id, product_id) do update set expires_at =
        case when hold_windows.expires_at > now() then hold_windows.expires_at
             else excluded.expires_at end
    ),
    placed as (
      insert into orders (user_id, order_email, customer_name, total_cents, currency, phone,
                          address, po_reference, hold_expires_at, shipping_cents,
                          shipping_method, tax_cents, shipping_tax_cents, tax_name,
                          tax_rate_millipercent, tax_note, buyer_tax_id, ship_to, status)
      values (${customer.id}, ${customer.email}, ${customer.name}, ${order.totalCents},
              ${order.currency}, ${delivery.phone}, ${delivery.address},
              ${delivery.poReference ?? null}, (select t from until), ${charges.shippingCents},
              ${charges.shippingMethod}, ${charges.taxCents}, ${charges.shippingTaxCents},
              ${charges.taxName}, ${charges.taxRateMillipercent}, ${charges.taxNote ?? null},
              ${charges.buyerTaxId ?? null},
              ${delivery.shipTo ? JSON.stringify(delivery.shipTo) : null}::jsonb, ${status})
      returning id, created_at, hold_expires_at
    ),
    items as (
      insert into order_items (order_id, line, product_id, product_name, part_number,
                               unit_price_cents, qty, tax_cents, core_deposit_cents,
                               vehicle_base_vehicle_id, vehicle_engine_id, vehicle_label)
      select placed.id, l.line, l.product_id, l.name, l.part_number, l.price, l.qty, l.tax,
             l.core_deposit, l.vehicle_base_vehicle_id, l.vehicle_engine_id, l.vehicle_label
        from placed, unnest(${ids}, ${sqlTexts(lines.map((l) => l.productName))},
                            ${sqlTexts(lines.map((l) => l.partNumber))},
                            ${sqlInts(lines.map((l) => l.unitPriceCents))},
                            ${sqlInts(lines.map((l) => l.qty))},
                            ${sqlInts(lines.map((l) => l.taxCents))},
                            ${sqlInts(lines.map((l) => l.coreDepositCents))},
                            ${sqlNullableInts(vehicles.map((v) => v?.baseVehicleId ?? null))},
                            ${sqlNullableInts(vehicles.map((v) => v?.engineId ?? null))},
                            ${sqlTexts(vehicles.map((v) => v?.label ?? null))})
             with ordinality as l(product_id, name, part_number, price, qty, tax, core_deposit,
                                  vehicle_base_vehicle_id, vehicle_engine_id, vehicle_label,
                                  line)
    )${
      order.also
        ? sql`,
    also as (${order.also})`
        : sql``
    }`;
  const result = await stock.takeWith<{ id: string; created_at: string; hold_expires_at: string }>(
    lines,
    writes,
    sql`select id, created_at, hold_expires_at from placed`,
  );
  const placed = result[0]!;
  const row: OrderRow = {
    id: placed.id,
    userId: customer.id,
    orderEmail: customer.email,
    customerName: customer.name,
    totalCents: order.totalCents,
    shippingCents: charges.shippingCents,
    shippingMethod: charges.shippingMethod,
    taxCents: charges.taxCents,
    shippingTaxCents: charges.shippingTaxCents,
    taxName: charges.taxName,
    taxRateMillipercent: charges.taxRateMillipercent,
    taxNote: charges.taxNote ?? null,
    buyerTaxId: charges.buyerTaxId ?? null,
    shipTo: delivery.shipTo ?? null,
    currency: order.currency,
    phone: delivery.phone,
    address: delivery.address,
    poReference: delivery.poReference ?? null,
    status,
    transactionId: null,
    paidWith: null,
    createdAt: new Date(placed.created_at),
    holdExpiresAt: new Date(placed.hold_expires_at),
    paidAt: null,
    shippedAt: null,
    carrier: null,
    trackingNumber: null,
    cancelledAt: null,
    holdWarnedAt: null,
  };
  const items = lines.map((l, i) => ({
    orderId: placed.id,
    line: i + 1,
    productId: l.productId,
    productName: l.productName,
    partNumber: l.partNumber,
    unitPriceCents: l.unitPriceCents,
    qty: l.qty,
    taxCents: l.taxCents,
    coreDepositCents: l.coreDepositCents,
    vehicleBaseVehicleId: vehicles[i]?.baseVehicleId ?? null,
    vehicleEngineId: vehicles[i]?.engineId ?? null,
    vehicleLabel: vehicles[i]?.label ?? null,
  }));
  return { row, items };
}
