import { eq } from "drizzle-orm";
import {
  promisedAtCheckoutWords,
  type DeliveryEstimate,
  type OrderDeliveryPromise,
} from "../../contract/shipping";
import type { DbOrTx } from "../db/database";
import { sql, type SQL } from "../db/sql";
import { notFound } from "../errors";
import { backordersOf } from "../inventory/backorders";
import {
  expectedAllocation,
  previewAllocation,
  type PreviewLine,
} from "../inventory/allocation-preview";
import { orders } from "../orders/tables";
import { deliveryEstimate, type Origin, type Transit } from "./delivery";
import { deliveryPromises } from "./tables";

/*
 * The delivery window promised with an order (docs/shipping.md "The promise kept with the
 * order"): written by the checkout in the placement's transaction, after the placement wrote the
 * order's allocations and backorders, from those (not from a preview), so what the buyer is told
 * is where the parts were allocated. The order page and the order-placed email say it.
 */

/** The order's units allocated at each location as the placement left them, with its dispatch. */
async function originsOf(tx: DbOrTx, orderId: string): Promise<Origin[]> {
  const rows = await tx.execute<{
    name: string;
    units: number;
    dispatch_days: number;
    cutoff_hour: number | null;
  }>(sql`
    select l.name, sum(a.qty)::int as units, l.dispatch_days, l.cutoff_hour
      from stock_allocations a join stock_locations l on l.id = a.location_id
      join orders o on o.id = a.order_id
     where a.order_id = ${orderId}
     group by l.id, o.ship_to
     -- As the checkout's estimate lists them: by the first line they ship, then as allocate_stock
     -- ranks them (those serving the destination, by priority, home first).
     order by min((select min(i.line) from order_items i
                    where i.order_id = a.order_id and i.product_id = a.product_id)),
              (o.ship_to->>'country' = any(l.serves_countries)
               and (cardinality(l.serves_regions) = 0
                    or o.ship_to->>'region' = any(l.serves_regions))) desc nulls last,
              l.priority, l.is_home desc, l.id`);
  return rows.rows.map((r) => ({
    name: r.name,
    units: r.units,
    dispatchDays: r.dispatch_days,
    cutoffHour: r.cutoff_hour,
  }));
}

/**
 * Records the window an order just placed is promised by its shipping method: each location its
 * units were allocated at (its dispatch days, counted from `placedAt`), its units on backorder
 * from their promised dates, and the method's transit days. Answers it (null: the method has no
 * transit days, or nothing ships; nothing is written then). In the placement's transaction.
 */
export async function recordDeliveryPromise(
  tx: DbOrTx,
  order: { id: string; placedAt: Date; method: string },
  transit: Transit,
): Promise<DeliveryEstimate | null> {
  const origins = await originsOf(tx, order.id);
  const waiting = (await backordersOf(tx, [order.id])).get(order.id) ?? [];
  const estimate = deliveryEstimate(
    order.placedAt,
    origins,
    waiting.map((b) => ({ units: b.waiting, promisedOn: b.promisedOn })),
    transit,
  );
  if (!estimate) return null;
  await tx.insert(deliveryPromises).values({
    orderId: order.id,
    method: order.method,
    parcels: estimate.parcels,
    undated: estimate.undated,
    words: estimate.words,
    promisedAt: order.placedAt,
  });
  return estimate;
}

/**
 * The promise of an order written in the same statement as the order (the checkout's unlocked
 * write), worked out before it from the allocation preview: its window, the statement's entry
 * that records it (`promised`, a `with` entry), and the allocation the statement must make for
 * it to hold (`expect`: `allocate_stock` refuses any other, and the order is then placed in the
 * locked transaction, which records the promise from what it allocated). Undefined: nothing to
 * promise (no transit days, nothing ships). Null: not knowable before the write (units would go
 * on backorder): the locked transaction places the order.
 */
export async function promiseBeforeWrite(
  db: DbOrTx,
  order: { id: string; placedAt: Date; method: string },
  lines: readonly PreviewLine[],
  place: { country: string; region: string | null } | null,
  transit: Transit,
): Promise<{ estimate: DeliveryEstimate; promised: SQL; expect: string } | null | undefined> {
  const preview = await previewAllocation(db, lines, place);
  if (preview.lines.some((l) => l.backordered > 0)) return null;
  const estimate = deliveryEstimate(order.placedAt, preview.origins, [], transit);
  if (!estimate) return undefined;
  const promised = sql`promised as (
    insert into delivery_promises (order_id, method, parcels, undated, words, promised_at)
    values (${order.id}::uuid, ${order.method}, ${JSON.stringify(estimate.parcels)}::jsonb,
            ${estimate.undated}::int, ${estimate.words}, ${order.placedAt.toISOString()}::timestamptz)
    returning order_id)`;
  return { estimate, promised, expect: expectedAllocation(preview) };
}

/** Statuses in which the promise still stands: placed, and not one parcel has left yet. */
const STANDING = new Set(["unpaid", "paid"]);

/**
 * The promise of an order as its page shows it (its owner or an admin; others: 404): the words
 * only while the order is unpaid, or paid and nothing of it has shipped (and it was never
 * cancelled: a late payment takes the parts again); the units on backorder are left to their
 * lines' dates, which move when supply comes.
 */
export async function orderDeliveryPromise(
  db: DbOrTx,
  orderId: string,
  viewer: { id: string; role: string },
): Promise<OrderDeliveryPromise> {
  const [row] = await db
    .select({
      userId: orders.userId,
      status: orders.status,
      partlyShippedAt: orders.partlyShippedAt,
      cancelledAt: orders.cancelledAt,
      promise: deliveryPromises,
    })
    .from(orders)
    .leftJoin(deliveryPromises, eq(deliveryPromises.orderId, orders.id))
    .where(eq(orders.id, orderId));
  if (!row || (row.userId !== viewer.id && viewer.role !== "admin")) {
    throw notFound("Order not found");
  }
  const { promise } = row;
  if (!promise) return { words: null, promise: null };
  // An order paid after its hold ran out took its parts again, from wherever they were then.
  const standing =
    STANDING.has(row.status) && row.partlyShippedAt === null && row.cancelledAt === null;
  return {
    words: standing ? promisedAtCheckoutWords(promise) : null,
    promise: {
      method: promise.method,
      parcels: promise.parcels,
      undated: promise.undated,
      words: promise.words,
      promisedAt: promise.promisedAt.toISOString(),
    },
  };
}
