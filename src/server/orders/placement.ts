import type { SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import { sqlInts, sqlNullableInts, sqlTexts, sqlUuids } from "../db/sql-arrays";
import type { LineVehicle } from "../vehicles/service";
import type { OrderItemRow, OrderRow } from "./state";
import type { ShipToSnapshot } from "./tables";

/** One line of a new order: the product as it is sold. */
export interface NewOrderLine {
  productId: string;
  productName: string;
  partNumber: string | null;
  unitPriceCents: number;
  qty: number;
  taxCents: number;
  coreDepositCents: number;
  /** The line's share of the discount code (absent: none). */
  discountCents?: number;
}

/** An order as it is placed: decided by the checkout, its id chosen before it is written. */
export interface NewOrder {
  id: string;
  lines: NewOrderLine[];
  /** The vehicle each line keeps, in the lines' order (null or absent: none). */
  vehicles?: (LineVehicle | null)[];
  totalCents: number;
  currency: string;
  /**
   * One unit of the store's currency in `currency`, the rate its market priced it at
   * (docs/pricing.md "The order's rate"); absent: 1, the store's currency.
   */
  exchangeRate?: number;
  charges: {
    shippingCents: number;
    shippingMethod: string | null;
    taxCents: number;
    shippingTaxCents: number;
    taxName: string | null;
    taxRateMillipercent: number | null;
    taxNote?: string | null;
    buyerTaxId?: string | null;
    /** Gross prices, the tax contained (docs/tax.md); absent: net, tax added. */
    pricesIncludeTax?: boolean;
  };
  delivery: {
    phone: string;
    address: string;
    poReference?: string | null;
    shipTo?: ShipToSnapshot | null;
  };
  /** Over a spending limit, the order waits for an owner, holding its stock as an unpaid one. */
  approval: unknown;
  /** Units on backorder, and the buyer wants the order in one go (absent: false). */
  shipComplete?: boolean;
  holdExpiresAt: Date;
  /** The discount code it used and what it took off (absent: none). */
  discount?: { code: string; totalCents: number } | null;
}

/** Who places it. */
export interface Orderer {
  id: string;
  email: string;
  name: string;
}

const statusOf = (order: NewOrder) =>
  order.approval ? ("awaiting_approval" as const) : ("unpaid" as const);

/** Each line's vehicle, in the lines' order (null: none). */
const lineVehicles = (order: NewOrder) => order.lines.map((_, i) => order.vehicles?.[i] ?? null);

/**
 * The new order's number in a message queued by its placement statement (an entry after
 * `placed`), which the insert takes from the sequence (orders_number_seq).
 */
export const PLACED_NUMBER = {
  token: "[[order-number]]",
  sql: sql`(select number::text from placed)`,
};

/**
 * The order and its lines as entries of a placement statement's `with` (the placement writes
 * its hold windows, stock and more in the same statement): `placed` answers the order's id and
 * `created_at`.
 */
export function insertOrderCtes(customer: Orderer, order: NewOrder): SQL {
  const { lines, delivery, charges } = order;
  const vehicles = lineVehicles(order);
  const ids = sqlUuids(lines.map((l) => l.productId));
  return sql`
    placed as (
      insert into orders (id, user_id, order_email, customer_name, total_cents, currency, phone,
                          address, po_reference, hold_expires_at, shipping_cents,
                          shipping_method, tax_cents, shipping_tax_cents, tax_name,
                          tax_rate_millipercent, tax_note, buyer_tax_id, ship_to, status,
                          ship_complete, discount_code, discount_cents, exchange_rate,
                          prices_include_tax)
      values (${order.id}, ${customer.id}, ${customer.email}, ${customer.name},
              ${order.totalCents}, ${order.currency}, ${delivery.phone}, ${delivery.address},
              ${delivery.poReference ?? null}, ${order.holdExpiresAt.toISOString()}::timestamptz,
              ${charges.shippingCents}, ${charges.shippingMethod}, ${charges.taxCents},
              ${charges.shippingTaxCents}, ${charges.taxName}, ${charges.taxRateMillipercent},
              ${charges.taxNote ?? null}, ${charges.buyerTaxId ?? null},
              ${delivery.shipTo ? JSON.stringify(delivery.shipTo) : null}::jsonb,
              ${statusOf(order)}, ${order.shipComplete ?? false},
              ${order.discount?.code ?? null}, ${order.discount?.totalCents ?? 0},
              ${order.exchangeRate ?? 1}, ${charges.pricesIncludeTax ?? false})
      returning id, number, created_at
    ),
    items as (
      insert into order_items (order_id, line, product_id, product_name, part_number,
                               unit_price_cents, qty, tax_cents, core_deposit_cents,
                               vehicle_base_vehicle_id, vehicle_engine_id, vehicle_label,
                               discount_cents)
      select placed.id, l.line, l.product_id, l.name, l.part_number, l.price, l.qty, l.tax,
             l.core_deposit, l.vehicle_base_vehicle_id, l.vehicle_engine_id, l.vehicle_label,
             l.discount
        from placed, unnest(${ids}, ${sqlTexts(lines.map((l) => l.productName))},
                            ${sqlTexts(lines.map((l) => l.partNumber))},
                            ${sqlInts(lines.map((l) => l.unitPriceCents))},
                            ${sqlInts(lines.map((l) => l.qty))},
                            ${sqlInts(lines.map((l) => l.taxCents))},
                            ${sqlInts(lines.map((l) => l.coreDepositCents))},
                            ${sqlNullableInts(vehicles.map((v) => v?.baseVehicleId ?? null))},
                            ${sqlNullableInts(vehicles.map((v) => v?.engineId ?? null))},
                            ${sqlTexts(vehicles.map((v) => v?.label ?? null))},
                            ${sqlInts(lines.map((l) => l.discountCents ?? 0))})
             with ordinality as l(product_id, name, part_number, price, qty, tax, core_deposit,
                                  vehicle_base_vehicle_id, vehicle_engine_id, vehicle_label,
                                  discount, line)
      returning line
    )`;
}

/**
 * The order and its lines as `insertOrderCtes` writes them, created at `createdAt` with the
 * `number` the sequence gave it (0 before the write: the number is taken at the insert).
 */
export function newOrderRows(
  customer: Orderer,
  order: NewOrder,
  createdAt: Date,
  number = 0,
): { row: OrderRow; items: OrderItemRow[] } {
  const { lines, delivery, charges } = order;
  const vehicles = lineVehicles(order);
  const row: OrderRow = {
    id: order.id,
    number,
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
    exchangeRate: order.exchangeRate ?? 1,
    pricesIncludeTax: charges.pricesIncludeTax ?? false,
    phone: delivery.phone,
    address: delivery.address,
    poReference: delivery.poReference ?? null,
    status: statusOf(order),
    transactionId: null,
    paidWith: null,
    createdAt,
    holdExpiresAt: order.holdExpiresAt,
    paidAt: null,
    shippedAt: null,
    partlyShippedAt: null,
    shipComplete: order.shipComplete ?? false,
    carrier: null,
    trackingNumber: null,
    cancelledAt: null,
    cancelReason: null,
    holdWarnedAt: null,
    accountInvoiceNumber: null,
    accountDueAt: null,
    accountSettledAt: null,
    accountCreditedInFull: false,
    discountCode: order.discount?.code ?? null,
    discountCents: order.discount?.totalCents ?? 0,
    updatedAt: createdAt,
    // Set by the database at the insert (the change cursors read it from there, never from here).
    changeXid: "0",
  };
  const items = lines.map((l, i) => ({
    orderId: order.id,
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
    discountCents: l.discountCents ?? 0,
  }));
  return { row, items };
}
