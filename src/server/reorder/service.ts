import { asc, eq } from "drizzle-orm";
import { reorderMessages, type ReorderChange, type ReorderResult } from "../../contract/reorder";
import type { CartService } from "../cart/service";
import type { Db } from "../db/database";
import { orderItems, orders } from "../orders/tables";
import { products } from "../catalog/tables";
import { notFound } from "../errors";
import { formatCents } from "../money";
import {
  inMarketOf,
  minimumFor,
  packFor,
  priceLines,
  pricingFor,
  type PricingContext,
  type PricingMarket,
} from "../pricing/pricing";

/** A line of the old order, with its product as it is now (null when deleted). */
export interface OldLine {
  productId: string | null;
  productName: string;
  qty: number;
  unitPriceCents: number;
  product: {
    id: string;
    name: string;
    priceCents: number;
    minimumOrder: number;
    /** The buyer's pack size (1, or absent: any quantity). */
    packSize?: number;
    availableQuantity: number;
  } | null;
}

/** What goes into the cart, and what is said about the rest. Pure: the prices are given. */
export function planReorder(
  lines: OldLine[],
  priceNow: (productId: string, qty: number) => number,
  money: (cents: number) => string,
  /** The unit price a cart line keeps as seen (the store's currency); by default `priceNow`'s. */
  seenNow: (productId: string, qty: number) => number = priceNow,
): { add: { productId: string; qty: number; seenPriceCents: number }[]; changes: ReorderChange[] } {
  const add: { productId: string; qty: number; seenPriceCents: number }[] = [];
  const changes: ReorderChange[] = [];
  // One line per part (an order holds each part once, but say so rather than trust it).
  const merged = new Map<string, OldLine>();
  const gone: OldLine[] = [];
  for (const l of lines) {
    if (!l.product) gone.push(l);
    else {
      const had = merged.get(l.product.id);
      merged.set(l.product.id, had ? { ...had, qty: had.qty + l.qty } : l);
    }
  }
  for (const l of gone) {
    changes.push({
      productId: null,
      productName: l.productName,
      kind: "unavailable",
      message: reorderMessages.gone(l.productName),
    });
  }
  for (const l of merged.values()) {
    const p = l.product!;
    const change = (kind: ReorderChange["kind"], message: string) =>
      changes.push({ productId: p.id, productName: p.name, kind, message });
    const pack = p.packSize ?? 1;
    // The most the stock holds in whole packs; the quantity wanted, raised to the minimum and
    // then to the next whole pack.
    const most = Math.floor(p.availableQuantity / pack) * pack;
    if (most === 0 || p.minimumOrder > most) {
      change("unavailable", reorderMessages.outOfStock(p.name));
      continue;
    }
    const target = Math.ceil(Math.max(l.qty, p.minimumOrder) / pack) * pack;
    let qty = l.qty;
    if (target > p.availableQuantity) {
      change(
        "capped",
        pack > 1
          ? reorderMessages.cappedToPacks(p.name, l.qty, p.availableQuantity, pack, most)
          : reorderMessages.capped(p.name, l.qty, p.availableQuantity),
      );
      qty = most;
    } else if (target !== l.qty) {
      change(
        "raised",
        target === p.minimumOrder
          ? reorderMessages.raised(p.name, l.qty, p.minimumOrder)
          : reorderMessages.packs(p.name, l.qty, pack, target),
      );
      qty = target;
    }
    const now = priceNow(p.id, qty);
    if (now !== l.unitPriceCents) {
      change("price", reorderMessages.price(p.name, money(l.unitPriceCents), money(now)));
    }
    add.push({ productId: p.id, qty, seenPriceCents: seenNow(p.id, qty) });
  }
  return { add, changes };
}

/** "Order again": a past order of the caller's into their cart, at today's prices. */
export function createReorderService(db: Db, cart: CartService, opts: { currency: string }) {
  return {
    /** In `market` (docs/pricing.md "The market chosen"): today's prices said in its currency. */
    async reorder(orderId: string, userId: string, market?: PricingMarket): Promise<ReorderResult> {
      const [order] = await db
        .select({ userId: orders.userId, currency: orders.currency })
        .from(orders)
        .where(eq(orders.id, orderId));
      // Someone else's order is not there for this caller (as GET /api/orders/{id} says).
      if (!order || order.userId !== userId) throw notFound("Order not found");
      const rows = await db
        .select({
          productId: orderItems.productId,
          productName: orderItems.productName,
          qty: orderItems.qty,
          unitPriceCents: orderItems.unitPriceCents,
          id: products.id,
          name: products.name,
          priceCents: products.priceCents,
          breaks: products.breaks,
          minimumOrder: products.minimumOrder,
          retailMinimum: products.retailMinimum,
          packSize: products.packSize,
          availableQuantity: products.availableQuantity,
        })
        .from(orderItems)
        .leftJoin(products, eq(products.id, orderItems.productId))
        .where(eq(orderItems.orderId, orderId))
        .orderBy(asc(orderItems.line));
      // The buyer's prices today (their company's, when they have one) for the parts still sold.
      const context = await pricingFor(
        db,
        userId,
        opts.currency,
        rows.flatMap((r) => (r.id ? [r.id] : [])),
      );
      const quantities = (r: (typeof rows)[number]) => ({
        minimumOrder: r.minimumOrder!,
        retailMinimum: r.retailMinimum!,
        packSize: r.packSize!,
      });
      const lines: OldLine[] = rows.map((r) => ({
        productId: r.productId,
        productName: r.productName,
        qty: r.qty,
        unitPriceCents: r.unitPriceCents,
        product:
          r.id === null
            ? null
            : {
                id: r.id,
                name: r.name!,
                priceCents: r.priceCents!,
                // The buyer's minimum and pack (retail or trade: docs/pricing.md).
                minimumOrder: minimumFor(context, quantities(r)),
                packSize: packFor(context, quantities(r)),
                availableQuantity: r.availableQuantity!,
              },
      }));
      const listPrice = new Map(
        rows.flatMap((r) => (r.id ? [[r.id, { cents: r.priceCents!, breaks: r.breaks! }]] : [])),
      );
      const shown = inMarketOf(context, market);
      const unitIn = (pricing: PricingContext) => (productId: string, qty: number) =>
        priceLines(pricing, [
          {
            productId,
            qty,
            listPriceCents: listPrice.get(productId)!.cents,
            publicBreaks: listPrice.get(productId)!.breaks,
          },
        ])[0]!.unitPriceCents;
      const planned = planReorder(
        lines,
        unitIn(shown),
        (cents) => formatCents(cents, shown.currency),
        unitIn(context),
      );
      const { add } = planned;
      // An order in another currency than today's prices: its prices are not compared.
      const changes = planned.changes.filter(
        (c) => c.kind !== "price" || order.currency === shown.currency,
      );
      const updated =
        add.length > 0 ? await cart.addLines(userId, add, market) : await cart.get(userId, market);
      return { added: add.length, changes, cart: updated };
    },
  };
}

export type ReorderService = ReturnType<typeof createReorderService>;
