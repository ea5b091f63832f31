import { addShippedUnits } from "./sales";
import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  shipmentMessages,
  type OrderShipments,
  type Shipment,
  type ShipmentCreate,
} from "../../contract/shipments";
import {
  shippingCarrierLabels,
  trackingUrl,
  type ShippingCarrier,
} from "../../contract/shipping-carriers";
import type { Order } from "../../contract/orders";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { rowsForKeys } from "../db/sql-arrays";
import { orderItems, type orders } from "../orders/tables";
import { visibleOrder, type OrderViewer } from "../orders/service";
import { isPartlyShipped, lockOrder, markOrderShipped, markPartlyShipped } from "../orders/state";
import { shipmentLines, shipments } from "./tables";
import { stockLocations } from "../inventory/tables";
import { backordersOf, type LineBackorder } from "../inventory/backorders";
import { backorderMessages } from "../../contract/backorders";
import {
  allocationsOf,
  homeLocation,
  shipAllocated,
  type Allocation,
} from "../inventory/allocations";
import { notFound, unprocessable } from "../errors";
import { type Clock, systemClock } from "../clock";

type OrderRow = typeof orders.$inferSelect;
type OrderItemRow = typeof orderItems.$inferSelect;

/** Told of each shipment inside its transaction (the email commits or rolls back with it). */
export interface ShipmentNotifier {
  shipmentSent(
    tx: DbOrTx,
    facts: {
      order: Order;
      customerName: string;
      shipment: Shipment;
      /** Lines (and units) still to ship after this one; empty: the order is complete. */
      stillToShip: { productName: string; qty: number }[];
    },
  ): Promise<void>;
}

/** Units of each order line shipped so far, and when the line last shipped. */
export async function shippedByLine(
  tx: DbOrTx,
  orderId: string,
): Promise<Map<number, { qty: number; lastAt: Date }>> {
  const rows = await tx
    .select({
      line: shipmentLines.line,
      qty: sql<number>`sum(${shipmentLines.qty})::int`,
      lastAt: sql<Date>`max(${shipments.shippedAt})`.mapWith(shipments.shippedAt),
    })
    .from(shipmentLines)
    .innerJoin(shipments, eq(shipments.id, shipmentLines.shipmentId))
    .where(eq(shipmentLines.orderId, orderId))
    .groupBy(shipmentLines.line);
  return new Map(rows.map((r) => [r.line, { qty: r.qty, lastAt: r.lastAt }]));
}

/** A line of a shipment: the order line, its product (none once deleted) and the units. */
interface ShippedLine {
  line: number;
  productId: string | null;
  qty: number;
  lot?: string;
}

/**
 * Writes one shipment of these units from a location, and takes them from what the order has
 * allocated there (the inventory's). The caller holds the order row's lock and has checked the
 * quantities and that they wait there (or ships exactly what is left).
 */
export async function recordShipment(
  tx: DbOrTx,
  orderId: string,
  locationId: string,
  lines: ShippedLine[],
  tracking: { carrier: ShippingCarrier; trackingNumber: string } | null,
  at: Date,
): Promise<string> {
  await shipAllocated(
    tx,
    orderId,
    locationId,
    lines.flatMap((l) => (l.productId ? [{ productId: l.productId, qty: l.qty }] : [])),
  );
  const [row] = await tx
    .insert(shipments)
    .values({
      orderId,
      locationId,
      carrier: tracking?.carrier ?? null,
      trackingNumber: tracking?.trackingNumber ?? null,
      shippedAt: at,
    })
    .returning({ id: shipments.id });
  await tx.insert(shipmentLines).values(
    lines.map((l) => ({
      line: l.line,
      qty: l.qty,
      lot: l.lot ?? null,
      orderId,
      shipmentId: row!.id,
    })),
  );
  await addShippedUnits(tx, row!.id);
  return row!.id;
}

/**
 * Ships whatever of the order is still to ship (the admin's "Mark shipped" of the whole order):
 * a shipment from each location where units wait, each with the tracking given; units nothing
 * allocated (a product deleted since) ship with the home location's. Nothing is written when
 * nothing is left.
 */
export async function shipTheRest(
  tx: DbOrTx,
  orderId: string,
  tracking: { carrier: ShippingCarrier; trackingNumber: string } | null,
  at: Date,
): Promise<void> {
  const items = await tx
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.line));
  const shipped = await shippedByLine(tx, orderId);
  const allocations = await allocationsOf(tx, orderId);
  const waiting = await notShippable(tx, orderId);
  const home = await homeLocation(tx);
  const byLocation = new Map<string, ShippedLine[]>();
  for (const i of items) {
    let left = i.qty - (shipped.get(i.line)?.qty ?? 0) - (waiting.get(i.line) ?? 0);
    for (const a of allocations.filter((a) => a.productId === i.productId)) {
      const qty = Math.min(left, a.qty);
      if (qty <= 0) break;
      byLocation.set(a.locationId, [
        ...(byLocation.get(a.locationId) ?? []),
        { line: i.line, productId: i.productId, qty },
      ]);
      left -= qty;
    }
    if (left > 0) {
      byLocation.set(home.id, [
        ...(byLocation.get(home.id) ?? []),
        { line: i.line, productId: null, qty: left },
      ]);
    }
  }
  for (const [locationId, lines] of byLocation) {
    await recordShipment(tx, orderId, locationId, lines, tracking, at);
  }
}

/**
 * Where a shipment of these lines ships from: the location asked for, or else the first (home
 * first, then by priority) where every unit of them waits; every line's units must wait there,
 * unless nothing of its product was allocated (a product deleted since): those ship from anywhere.
 */
async function shipFrom(
  tx: DbOrTx,
  asked: string | undefined,
  lines: ShippedLine[],
  allocations: Allocation[],
): Promise<string> {
  const waiting = (locationId: string, productId: string | null) =>
    allocations
      .filter((a) => a.locationId === locationId && a.productId === productId)
      .reduce((n, a) => n + a.qty, 0);
  const allocated = lines.filter((l) => allocations.some((a) => a.productId === l.productId));
  const fits = (locationId: string) =>
    allocated.every((l) => waiting(locationId, l.productId) >= l.qty);
  if (asked) {
    const [location] = await tx
      .select({ name: stockLocations.name })
      .from(stockLocations)
      .where(eq(stockLocations.id, asked));
    if (!location) throw unprocessable(shipmentMessages.noSuchLocation);
    const short = allocated.find((l) => waiting(asked, l.productId) < l.qty);
    if (short) {
      throw unprocessable(
        shipmentMessages.notThere(short.line, waiting(asked, short.productId), location.name),
      );
    }
    return asked;
  }
  const candidates = [...new Set(allocations.map((a) => a.locationId))];
  if (allocated.length === 0) return candidates[0] ?? (await homeLocation(tx)).id;
  const found = candidates.find(fits);
  if (!found) throw unprocessable(shipmentMessages.chooseLocation);
  return found;
}

/** Units of a line that cannot ship now: on backorder (waiting for supply) or cancelled. */
const unshippable = (b: LineBackorder | undefined) => (b ? b.waiting + b.cancelled : 0);

/** Units of each of the order's lines that cannot ship now (`unshippable`), by line. */
async function notShippable(tx: DbOrTx, orderId: string): Promise<Map<number, number>> {
  const backorders = (await backordersOf(tx, [orderId])).get(orderId) ?? [];
  return new Map(backorders.map((b) => [b.line, unshippable(b)]));
}

async function view(tx: DbOrTx, order: OrderRow): Promise<OrderShipments> {
  // One after the other: `tx` may be a transaction's one connection.
  const allocations = await allocationsOf(tx, order.id);
  const items = await tx
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.line));
  const shipmentRows = await tx
    .select({
      shipment: shipments,
      from: { id: stockLocations.id, code: stockLocations.code, name: stockLocations.name },
    })
    .from(shipments)
    .leftJoin(stockLocations, eq(stockLocations.id, shipments.locationId))
    .where(eq(shipments.orderId, order.id))
    .orderBy(asc(shipments.shippedAt), asc(shipments.id));
  const lineRows = await rowsForKeys(
    shipmentRows.map((s) => s.shipment.id),
    (ids) => tx.select().from(shipmentLines).where(inArray(shipmentLines.shipmentId, ids)),
  );
  const backorders = (await backordersOf(tx, [order.id])).get(order.id) ?? [];
  const itemOf = new Map<number, OrderItemRow>(items.map((i) => [i.line, i]));
  const shippedOf = new Map<number, number>();
  for (const l of lineRows) shippedOf.set(l.line, (shippedOf.get(l.line) ?? 0) + l.qty);
  const lines = items.map((i) => {
    const shipped = shippedOf.get(i.line) ?? 0;
    const backorder = backorders.find((b) => b.line === i.line);
    return {
      line: i.line,
      productName: i.productName,
      partNumber: i.partNumber,
      ordered: i.qty,
      shipped,
      // What can ship now: units on backorder wait for supply, cancelled ones never ship.
      toShip: Math.max(0, i.qty - shipped - unshippable(backorder)),
      backorder: backorder
        ? {
            qty: backorder.qty,
            waiting: backorder.waiting,
            cancelled: backorder.cancelled,
            promisedOn: backorder.promisedOn,
          }
        : null,
      waitingAt: allocations
        .filter((a) => a.productId === i.productId)
        .map((a) => ({ id: a.locationId, code: a.code, name: a.name, qty: a.qty })),
    };
  });
  return {
    orderId: order.id,
    status: order.status,
    partiallyShipped: isPartlyShipped(order),
    shipComplete: order.shipComplete,
    shipments: shipmentRows.map(({ shipment: s, from }) => ({
      id: s.id,
      from,
      orderId: s.orderId,
      carrier: s.carrier,
      trackingNumber: s.trackingNumber,
      trackingUrl: trackingUrl(s.carrier, s.trackingNumber),
      shippedAt: s.shippedAt.toISOString(),
      lines: lineRows
        .filter((l) => l.shipmentId === s.id)
        .sort((a, b) => a.line - b.line)
        .map((l) => ({
          line: l.line,
          productName: itemOf.get(l.line)?.productName ?? "",
          partNumber: itemOf.get(l.line)?.partNumber ?? null,
          qty: l.qty,
          lot: l.lot,
        })),
    })),
    lines,
  };
}

export function createShipmentService(
  db: Db,
  opts: {
    /** The order on the wire (orders' `withLines`), for the email. */
    toOrder: (tx: DbOrTx, row: OrderRow) => Promise<Order>;
    notify?: ShipmentNotifier;
    now?: Clock;
  },
) {
  const now = opts.now ?? systemClock;

  return {
    /** An order's shipments and what is still to ship (its owner or an admin; others: 404). */
    async list(orderId: string, viewer: OrderViewer): Promise<OrderShipments> {
      return view(db, await visibleOrder(db, orderId, viewer));
    },

    /**
     * Admin: ships some lines (and part quantities) of a paid order. The order row is locked
     * while the quantities are checked and written, so two shipments at once cannot ship the
     * same units. The last units shipped make the order "shipped".
     */
    async ship(orderId: string, input: ShipmentCreate, actor: AuditActor): Promise<OrderShipments> {
      return db.transaction(async (tx) => {
        const order = await lockOrder(tx, orderId);
        if (!order) throw notFound("Order not found");
        if (order.status !== "paid") throw unprocessable(shipmentMessages.notPaid(order.status));
        const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId));
        const shipped = await shippedByLine(tx, orderId);
        const backorders = (await backordersOf(tx, [orderId])).get(orderId) ?? [];
        const waitingUnits = backorders.reduce((n, b) => n + b.waiting, 0);
        // The buyer wants it in one go: nothing ships while units wait (docs/inventory.md).
        if (order.shipComplete && waitingUnits > 0) {
          throw unprocessable(backorderMessages.shipsComplete(waitingUnits));
        }
        const seen = new Set<number>();
        for (const l of input.lines) {
          const item = items.find((i) => i.line === l.line);
          if (!item) throw unprocessable(shipmentMessages.noSuchLine(l.line));
          if (seen.has(l.line)) throw unprocessable(shipmentMessages.twice(l.line));
          seen.add(l.line);
          // Returned units were shipped first (docs/returns.md), so they are inside `shipped`.
          const backorder = backorders.find((b) => b.line === l.line);
          const left = item.qty - (shipped.get(l.line)?.qty ?? 0) - unshippable(backorder);
          if (l.qty > left && backorder?.waiting && l.qty <= left + backorder.waiting) {
            throw unprocessable(backorderMessages.notYet(l.line, backorder.waiting));
          }
          if (l.qty > left) throw unprocessable(shipmentMessages.tooMany(l.line, left));
        }
        const tracking =
          input.carrier && input.trackingNumber
            ? { carrier: input.carrier, trackingNumber: input.trackingNumber }
            : null;
        const at = now();
        const lines = [...input.lines]
          .sort((a, b) => a.line - b.line)
          .map((l) => ({ ...l, productId: items.find((i) => i.line === l.line)!.productId }));
        const from = await shipFrom(tx, input.locationId, lines, await allocationsOf(tx, orderId));
        const shipmentId = await recordShipment(tx, orderId, from, lines, tracking, at);
        const stillToShip = items
          .sort((a, b) => a.line - b.line)
          .map((i) => ({
            productName: i.productName,
            qty:
              i.qty -
              (shipped.get(i.line)?.qty ?? 0) -
              (backorders.find((b) => b.line === i.line)?.cancelled ?? 0) -
              (input.lines.find((l) => l.line === i.line)?.qty ?? 0),
          }))
          .filter((l) => l.qty > 0);
        let current = order;
        if (stillToShip.length > 0) {
          await markPartlyShipped(tx, orderId, at);
          current = { ...order, partlyShippedAt: order.partlyShippedAt ?? at };
        } else {
          // Everything is on its way: the order is shipped, with the last parcel's tracking.
          current = (await markOrderShipped(tx, orderId, at, tracking))!;
        }
        const result = await view(tx, current);
        const shipment = result.shipments.find((s) => s.id === shipmentId)!;
        await recordAdminAction(tx, {
          actor,
          action: "order.ship-lines",
          target: { type: "order", id: orderId },
          summary: `Shipped ${shipment.lines.map((l) => `${l.qty} × ${l.productName}`).join(", ")} of the order of ${order.orderEmail}${tracking ? ` with ${shippingCarrierLabels[tracking.carrier]}, tracking ${tracking.trackingNumber}` : " without tracking"}${stillToShip.length === 0 ? "; the order is now shipped" : ""}`,
        });
        await opts.notify?.shipmentSent(tx, {
          order: await opts.toOrder(tx, current),
          customerName: order.customerName,
          shipment,
          stillToShip,
        });
        return result;
      });
    },
  };
}

export type ShipmentService = ReturnType<typeof createShipmentService>;

/**
 * The production lots each of these orders' lines shipped in (docs/warranty.md "Lots"), keyed
 * `orderId:line`, each line's lots in order, once each.
 */
export async function lotsByLine(tx: DbOrTx, orderIds: string[]): Promise<Map<string, string[]>> {
  const rows = await rowsForKeys(orderIds, (ids) =>
    tx
      .selectDistinct({
        orderId: shipmentLines.orderId,
        line: shipmentLines.line,
        lot: shipmentLines.lot,
      })
      .from(shipmentLines)
      .where(and(inArray(shipmentLines.orderId, ids), isNotNull(shipmentLines.lot)))
      .orderBy(shipmentLines.orderId, shipmentLines.line, shipmentLines.lot),
  );
  const lots = new Map<string, string[]>();
  for (const r of rows) {
    const key = `${r.orderId}:${r.line}`;
    lots.set(key, [...(lots.get(key) ?? []), r.lot!]);
  }
  return lots;
}
