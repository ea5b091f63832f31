import { and, asc, desc, eq, inArray, ne } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  listMessages,
  MAX_LIST_LINES,
  MAX_LISTS,
  type ListAdded,
  type ListCreate,
  type ListSummary,
  type SavedList,
} from "../../contract/lists";
import type { CartService } from "../cart/service";
import type { Db, DbOrTx } from "../db/database";
import { products } from "../catalog/tables";
import { savedListItems, savedLists } from "./tables";
import { conflict, notFound, unprocessable } from "../errors";
import { centsToUnits, formatCents } from "../money";
import { priceLines, pricingFor, type PricingMarket } from "../pricing/pricing";
import { planReorder } from "../reorder/service";
import { isUniqueViolation, transactionAnswering } from "../db/postgres-errors";

const nameTaken = (err: unknown) =>
  isUniqueViolation(err, "saved_lists_user_name_unique")
    ? conflict(listMessages.duplicateName, "name")
    : undefined;

/** A customer's saved lists of parts: named, theirs alone, added to the cart whole. */
export function createListService(db: Db, cart: CartService, opts: { currency: string }) {
  /** The list, locked for the change to come, when it is the caller's; else 404. */
  async function own(tx: DbOrTx, userId: string, id: string, lock = false) {
    const q = tx
      .select({ id: savedLists.id, name: savedLists.name, updatedAt: savedLists.updatedAt })
      .from(savedLists)
      .where(and(eq(savedLists.id, id), eq(savedLists.userId, userId)));
    const [row] = lock ? await q.for("update") : await q;
    if (!row) throw notFound(listMessages.notFound);
    return row;
  }

  async function linesOf(tx: DbOrTx, listId: string) {
    return tx
      .select({
        productId: products.id,
        productName: products.name,
        partNumber: products.partNumber,
        img: products.img,
        qty: savedListItems.qty,
        priceCents: products.priceCents,
        breaks: products.breaks,
        minimumOrder: products.minimumOrder,
        availableQuantity: products.availableQuantity,
      })
      .from(savedListItems)
      .innerJoin(products, eq(products.id, savedListItems.productId))
      .where(eq(savedListItems.listId, listId))
      .orderBy(asc(savedListItems.addedAt), asc(products.partNumber));
  }

  /** A list priced in `market` (docs/pricing.md "The market chosen"); absent: none. */
  async function get(userId: string, id: string, market?: PricingMarket): Promise<SavedList> {
    const [list, lines] = await Promise.all([own(db, userId, id), linesOf(db, id)]);
    const context = await pricingFor(
      db,
      userId,
      opts.currency,
      lines.map((l) => l.productId),
      market,
    );
    const priced = priceLines(
      context,
      lines.map((l) => ({
        productId: l.productId,
        qty: l.qty,
        listPriceCents: l.priceCents,
        publicBreaks: l.breaks,
      })),
    );
    return {
      id: list.id,
      name: list.name,
      updatedAt: list.updatedAt.toISOString(),
      currency: context.currency,
      lines: lines.map(({ priceCents: _p, breaks: _b, ...l }, i) => ({
        ...l,
        unitPrice: centsToUnits(priced[i]!.unitPriceCents),
      })),
    };
  }

  const touch = (tx: DbOrTx, id: string) =>
    tx.update(savedLists).set({ updatedAt: new Date() }).where(eq(savedLists.id, id));

  return {
    get,

    async list(userId: string): Promise<ListSummary[]> {
      const rows = await db
        .select({
          id: savedLists.id,
          name: savedLists.name,
          updatedAt: savedLists.updatedAt,
          lineCount: sql<number>`(select count(*)::int from ${savedListItems}
            where ${savedListItems.listId} = ${savedLists.id})`,
        })
        .from(savedLists)
        .where(eq(savedLists.userId, userId))
        .orderBy(desc(savedLists.updatedAt), asc(savedLists.id));
      return rows.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() }));
    },

    async create(userId: string, input: ListCreate, market?: PricingMarket): Promise<SavedList> {
      const items = [
        ...(input.items ?? [])
          .reduce(
            (m, i) => m.set(i.productId, (m.get(i.productId) ?? 0) + i.qty),
            new Map<string, number>(),
          )
          .entries(),
      ];
      const id = await transactionAnswering(db, nameTaken, async (tx) => {
        // Lists are counted with the customer's lists locked, so two creations cannot both fit.
        const mine = await tx
          .select({ id: savedLists.id })
          .from(savedLists)
          .where(eq(savedLists.userId, userId))
          .for("update");
        if (mine.length >= MAX_LISTS) throw unprocessable(listMessages.tooManyLists);
        if (items.length > 0) {
          const found = await tx
            .select({ id: products.id })
            .from(products)
            .where(
              inArray(
                products.id,
                items.map(([p]) => p),
              ),
            );
          if (found.length !== items.length) throw notFound(listMessages.productNotFound);
        }
        const [row] = await tx
          .insert(savedLists)
          .values({ userId, name: input.name })
          .returning({ id: savedLists.id });
        if (items.length > 0) {
          const now = Date.now();
          await tx.insert(savedListItems).values(
            items.map(([productId, qty], i) => ({
              listId: row!.id,
              productId,
              qty: Math.min(qty, 1_000_000),
              addedAt: new Date(now + i),
            })),
          );
        }
        return row!.id;
      });
      return get(userId, id, market);
    },

    async rename(
      userId: string,
      id: string,
      name: string,
      market?: PricingMarket,
    ): Promise<SavedList> {
      try {
        const changed = await db
          .update(savedLists)
          .set({ name, updatedAt: new Date() })
          .where(and(eq(savedLists.id, id), eq(savedLists.userId, userId)))
          .returning({ id: savedLists.id });
        if (changed.length === 0) throw notFound(listMessages.notFound);
      } catch (err) {
        throw nameTaken(err) ?? err;
      }
      return get(userId, id, market);
    },

    async remove(userId: string, id: string): Promise<void> {
      const gone = await db
        .delete(savedLists)
        .where(and(eq(savedLists.id, id), eq(savedLists.userId, userId)))
        .returning({ id: savedLists.id });
      if (gone.length === 0) throw notFound(listMessages.notFound);
    },

    /** Puts a part on the list with this quantity (adds it, or changes its quantity). */
    async setItem(
      userId: string,
      id: string,
      productId: string,
      qty: number,
      market?: PricingMarket,
    ): Promise<SavedList> {
      await db.transaction(async (tx) => {
        await own(tx, userId, id, true);
        const [product] = await tx
          .select({ id: products.id })
          .from(products)
          .where(eq(products.id, productId));
        const [{ n } = { n: 0 }] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(savedListItems)
          .where(and(eq(savedListItems.listId, id), ne(savedListItems.productId, productId)));
        if (!product) throw notFound(listMessages.productNotFound);
        if (n >= MAX_LIST_LINES) throw unprocessable(listMessages.tooManyLines);
        await tx
          .insert(savedListItems)
          .values({ listId: id, productId, qty })
          .onConflictDoUpdate({
            target: [savedListItems.listId, savedListItems.productId],
            set: { qty },
          });
        await touch(tx, id);
      });
      return get(userId, id, market);
    },

    async removeItem(
      userId: string,
      id: string,
      productId: string,
      market?: PricingMarket,
    ): Promise<SavedList> {
      await db.transaction(async (tx) => {
        await own(tx, userId, id, true);
        await tx
          .delete(savedListItems)
          .where(and(eq(savedListItems.listId, id), eq(savedListItems.productId, productId)));
        await touch(tx, id);
      });
      return get(userId, id, market);
    },

    /**
     * The whole list into the cart at today's prices, in one transaction: a quantity below the
     * minimum is raised to it, one over the stock capped to it; a part out of stock is left out.
     */
    async addToCart(userId: string, id: string, market?: PricingMarket): Promise<ListAdded> {
      await own(db, userId, id);
      const lines = await linesOf(db, id);
      if (lines.length === 0) throw unprocessable(listMessages.empty);
      const context = await pricingFor(
        db,
        userId,
        opts.currency,
        lines.map((l) => l.productId),
      );
      const priceNow = (productId: string, qty: number) =>
        priceLines(context, [
          {
            productId,
            qty,
            listPriceCents: lines.find((l) => l.productId === productId)!.priceCents,
            publicBreaks: lines.find((l) => l.productId === productId)!.breaks,
          },
        ])[0]!.unitPriceCents;
      const { add, changes } = planReorder(
        lines.map((l) => ({
          productId: l.productId,
          productName: l.productName,
          qty: l.qty,
          // A list keeps no price: the price is today's, so no price change is said.
          unitPriceCents: Number.NaN,
          product: {
            id: l.productId,
            name: l.productName,
            priceCents: l.priceCents,
            minimumOrder: l.minimumOrder,
            availableQuantity: l.availableQuantity,
          },
        })),
        priceNow,
        (cents) => formatCents(cents, opts.currency),
      );
      const notes = changes
        .filter((c) => c.kind !== "price")
        .map((c) => ({ productId: c.productId!, productName: c.productName, message: c.message }));
      if (add.length === 0) throw unprocessable(notes[0]?.message ?? listMessages.empty);
      // Seen in the store's currency (as a cart line keeps it); the cart answers in the market.
      return { added: add.length, notes, cart: await cart.addLines(userId, add, market) };
    },
  };
}

export type ListService = ReturnType<typeof createListService>;
