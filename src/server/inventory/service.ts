import { type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import { orderMessages } from "../../contract/orders";
import type { HoldLimits } from "../config";
import type { Db, DbOrTx } from "../db/database";
import { PG, postgresError } from "../db/postgres-errors";
import { executePrepared } from "../db/prepared";
import { sqlInts, sqlUuids } from "../db/sql-arrays";
import { HttpError, unprocessable } from "../errors";
import {
  cancelledByLine,
  cancelLineWaiting,
  cancelWaiting,
  fillBackorders,
  promiseDates,
  putOnBackorder,
  requeueCancelled,
  type NewBackorder,
} from "./backorders";

/** A quantity of one product to take from stock or give back. */
export interface StockLine {
  productId: string;
  qty: number;
}

/** A reserved line with the product as it was sold: what an order line snapshots. */
export interface ReservedLine extends StockLine {
  productName: string;
  partNumber: string | null;
  unitPriceCents: number;
  /** The product's minimum order and stock on sale when it was quoted. */
  minimumOrder: number;
  available: number;
}

/**
 * The order a take is for: its units are allocated to locations (`allocate_stock`, migration
 * 0070) under its id, those serving `shipTo` first.
 */
export interface AllocateFor {
  orderId: string;
  shipTo: { country: string; region: string } | null;
}

interface ReserveOptions {
  /** Whether a line below the product's minimum order is refused (not for a late payment). */
  checkMinimum?: boolean;
}

/** Stock moves inside one transaction; only `Inventory.transaction` hands them out. */
export interface StockMoves {
  /**
   * Takes every line from stock, or none: a line below the product's minimum order (unless
   * `checkMinimum` is false), above its stock, or for a missing product refuses the whole call
   * with the spec's message, the product named in `fields`. The caller's transaction rolls back.
   * (`quote`, then `take`.)
   */
  reserve(lines: StockLine[], order: AllocateFor, opts?: ReserveOptions): Promise<ReservedLine[]>;
  /**
   * Reads the lines' products without locking them and checks the rules as `reserve` does:
   * the names and prices an order keeps. Nothing moves yet.
   */
  quote(lines: StockLine[], opts?: ReserveOptions): Promise<ReservedLine[]>;
  /**
   * Takes the lines from stock in one statement, the product rows locked in id order, and only
   * where the rules still hold; a line that no longer fits refuses the whole call as `reserve`
   * does. Placing an order quotes, writes the order, then takes: a popular product's row stays
   * locked only for this statement and the commit.
   */
  take(lines: StockLine[], order: AllocateFor, opts?: ReserveOptions): Promise<void>;
  /**
   * `take`, in the same statement as the caller's own writes (one round trip for both): `writes`
   * are entries of the statement's top-level `with` (`name as (insert …)`, comma-separated, no
   * leading `with`), and `result` a query over them whose rows are answered. The stock is taken
   * exactly as `take` takes it (rows locked in id order, the rules re-checked in SQL); a line that
   * no longer fits refuses the whole call as `take` does, the caller's writes rolled back with
   * its transaction.
   */
  takeWith<R extends Record<string, unknown>>(
    lines: StockLine[],
    order: AllocateFor,
    writes: SQL,
    result: SQL,
    opts?: ReserveOptions,
  ): Promise<R[]>;
  /**
   * Gives back what these orders hold or have allocated and not shipped: each unit to the
   * location it was allocated at.
   */
  releaseOrders(orderIds: string[]): Promise<void>;
  /**
   * Puts units back on sale at the home location (a return received); lines whose product was
   * deleted are skipped.
   */
  restock(lines: { productId: string | null; qty: number }[]): Promise<void>;
  /**
   * Puts an order's lines' units that are not on the shelf on backorder, dated (docs/inventory.md
   * "Backorders"). The caller holds the products' row locks (`lockProducts`).
   */
  backorder(orderId: string, lines: NewBackorder[]): Promise<void>;
  /**
   * An order cancelled when its hold ran out is paid after all: takes again what it had taken
   * (each line less its units that were waiting, the minimum not checked) and puts those units
   * back on backorder at the end of the queue, dated. Refuses as `reserve` does when the stock
   * is no longer there.
   */
  resume(order: AllocateFor, lines: (StockLine & { line: number })[]): Promise<void>;
  /**
   * Cancels the units of one order line still waiting for supply: answers how many (0: none
   * wait). The product's queue moves up and is dated again.
   */
  cancelBackorder(orderId: string, line: number, productId: string): Promise<number>;
  /** Locks these products' rows in id order, as every stock move does. */
  lockProducts(productIds: string[]): Promise<void>;
}

/**
 * The one place where stock moves. Product rows are locked in id order by every move, so two
 * checkouts (or a checkout and a cancellation) that share products queue up instead of
 * deadlocking; and the one place that announces "stock changed" to the catalog read cache,
 * after the transaction commits, so the writer's next read sees its own change.
 */
export function createInventory(db: Db, onStockChanged: () => void = () => {}) {
  return {
    /** The database the stock is kept in: reads outside a transaction go straight to it. */
    db,
    /**
     * `takeWith` as one statement of its own, outside any transaction (its own commit): first
     * `check`, a condition on the statement's `writes` (the customer unchanged since the read,
     * say), then the stock taken and the writes made. A check that fails, or a line that no
     * longer fits, undoes the whole statement and throws (`isStockOrCheckChanged`: the caller
     * reads again, under a lock); nothing is left half-written. A row it would wait for longer than
     * `lockWaitMs` undoes it too (SQLSTATE 55P03): nothing can ask, after such a wait, whether
     * the order is still wanted before it commits, so the caller places it in a transaction.
     * With `share`, a line above the most one unpaid line may hold of what is on sale (the hold
     * share: `decide.ts`) no longer fits either, measured on the stock as the statement finds it.
     * `taken` (a CTE the `result` may read) has each line's `id` and its `available_quantity`
     * after the take. With `expect` (`expectedAllocation`), the units must be allocated exactly so,
     * or nothing is written either (what was worked out from the preview would not hold).
     */
    async takeAtOnce<R extends Record<string, unknown>>(
      lines: StockLine[],
      order: AllocateFor,
      writes: SQL,
      result: SQL,
      check: SQL,
      lockWaitMs: number,
      share?: HoldShare,
      expect?: string,
    ): Promise<R[]> {
      const rows = await executePrepared<{ result: R[] | null }>(
        db,
        takeStatement(lines, { ...order, expect }, true, {
          writes,
          result,
          atOnce: { check, lockWaitMs, share },
        }),
      );
      onStockChanged();
      return rows.rows[0]!.result ?? [];
    },

    /** Runs `work` in a transaction with stock moves; announces the change once it commits. */
    async transaction<T>(work: (stock: StockMoves, tx: DbOrTx) => Promise<T>): Promise<T> {
      let moved = false;
      const result = await db.transaction((tx) =>
        work(
          {
            quote: (lines, opts) => quote(tx, lines, opts?.checkMinimum ?? true),
            take: async (lines, order, opts) => {
              await take(tx, lines, order, opts?.checkMinimum ?? true);
              moved = true;
            },
            takeWith: async <R extends Record<string, unknown>>(
              lines: StockLine[],
              order: AllocateFor,
              writes: SQL,
              result: SQL,
              opts?: ReserveOptions,
            ) => {
              const rows = await take<R>(tx, lines, order, opts?.checkMinimum ?? true, {
                writes,
                result,
              });
              moved = true;
              return rows;
            },
            reserve: async (lines, order, opts) => {
              const quoted = await quote(tx, lines, opts?.checkMinimum ?? true);
              await take(tx, lines, order, opts?.checkMinimum ?? true);
              moved = true;
              return quoted;
            },
            releaseOrders: async (orderIds) => {
              moved = (await releaseOrders(tx, orderIds)) || moved;
            },
            backorder: async (orderId, lines) => {
              await putOnBackorder(tx, orderId, lines);
            },
            lockProducts: (ids) => lockProducts(tx, sqlUuids(ids)),
            resume: async (order, lines) => {
              const waited = await cancelledByLine(tx, order.orderId);
              const now = lines
                .map((l) => ({ productId: l.productId, qty: l.qty - (waited.get(l.line) ?? 0) }))
                .filter((l) => l.qty > 0);
              if (now.length > 0) {
                await quote(tx, now, false);
                await take(tx, now, order, false);
                moved = true;
              } else {
                await lockProducts(tx, sqlUuids(lines.map((l) => l.productId)));
              }
              await promiseDates(tx, await requeueCancelled(tx, order.orderId));
            },
            cancelBackorder: async (orderId, line, productId) => {
              await lockProducts(tx, sqlUuids([productId]));
              const cancelled = await cancelLineWaiting(tx, orderId, line);
              if (cancelled) await promiseDates(tx, [cancelled.productId]);
              return cancelled?.units ?? 0;
            },
            restock: async (lines) => {
              moved = (await restock(tx, lines)) || moved;
            },
          },
          tx,
        ),
      );
      if (moved) onStockChanged();
      return result;
    },
  };
}

export type Inventory = ReturnType<typeof createInventory>;

interface ProductRow extends Record<string, unknown> {
  id: string;
  name: string;
  part_number: string;
  price_cents: number;
  available_quantity: number;
  minimum_order: number;
}

async function quote(
  tx: DbOrTx,
  lines: StockLine[],
  checkMinimum: boolean,
): Promise<ReservedLine[]> {
  const ids = lines.map((l) => l.productId);
  if (new Set(ids).size !== ids.length) throw unprocessable("Each product can be ordered once");
  const products = await tx.execute<ProductRow>(sql`
    select id, name, part_number, price_cents, available_quantity, minimum_order from products
    where id = any(${sqlUuids(ids)})`);
  const byId = new Map(products.rows.map((p) => [p.id, p]));
  return lines.map((line): ReservedLine => {
    const product = byId.get(line.productId);
    checkStockLine(
      line,
      product && { minimumOrder: product.minimum_order, available: product.available_quantity },
      checkMinimum,
    );
    return {
      ...line,
      productName: product!.name,
      partNumber: product!.part_number,
      unitPriceCents: product!.price_cents,
      minimumOrder: product!.minimum_order,
      available: product!.available_quantity,
    };
  });
}

/** What a line is checked against: the product's minimum order and its stock on sale. */
export interface StockFacts {
  minimumOrder: number;
  available: number;
}

/**
 * The stock rules of one line: its product exists, the quantity meets the minimum (unless
 * `checkMinimum` is false) and fits the stock; else the spec's message, the product named in
 * `fields`.
 */
export function checkStockLine(
  line: StockLine,
  product: StockFacts | undefined,
  checkMinimum = true,
): asserts product is StockFacts {
  if (!product) throw refusal(404, line.productId, "Product not found");
  if (checkMinimum && line.qty < product.minimumOrder) {
    throw refusal(422, line.productId, orderMessages.atLeast(product.minimumOrder));
  }
  if (line.qty > product.available) {
    throw refusal(422, line.productId, orderMessages.lessThen(product.available));
  }
}

/**
 * `takeAtOnce`'s refusal: the statement's check failed or a line no longer fits (SQLSTATE 40001
 * from `placement_changed()`, migration 0040). Nothing was written.
 */
export const isStockOrCheckChanged = (err: unknown) =>
  postgresError(err)?.code === PG.serializationFailure;

/** `takeAtOnce` waited `lockWaitMs` for a row and gave up (nothing was written). */
export const isLockWaitOver = (err: unknown) => postgresError(err)?.code === PG.lockNotAvailable;

/**
 * The hold share: an unpaid line may hold at most the larger of the product's minimum order,
 * `freeUnits`, and `maxShare` of its stock on sale.
 */
export type HoldShare = Pick<HoldLimits, "maxShare" | "freeUnits">;

/**
 * The statement that takes the lines from stock, with the caller's `writes` and `result`. With
 * `atOnce`, it is all or nothing on its own (`takeAtOnce`): the check is evaluated first, before
 * anything is locked but what it writes, and a failed check or a short line raises.
 */
function takeStatement(
  lines: StockLine[],
  order: AllocateFor & { expect?: string },
  checkMinimum: boolean,
  also?: {
    writes: SQL;
    result: SQL;
    atOnce?: { check: SQL; lockWaitMs: number; share?: HoldShare };
  },
): SQL {
  const share = also?.atOnce?.share;
  const ids = sqlUuids(lines.map((l) => l.productId));
  const qtys = sqlInts(lines.map((l) => l.qty));
  const result = also ? sql`(select json_agg(r) from (${also.result}) r)` : sql`null::json`;
  // Once every line is taken (and the products' rows are this statement's), the units are
  // allocated to locations: a function, so that it reads the locations' stock after the lock.
  const allocated = sql`(select allocate_stock(${order.orderId}::uuid, array_agg(t.id),
                                               array_agg(w.qty), array_agg(t.available_quantity),
                                               ${order.shipTo?.country ?? null}::text,
                                               ${order.shipTo?.region ?? null}::text,
                                               ${order.expect ?? null}::text)
                            from taken t join wanted w on w.id = t.id)`;
  // The CTE locks the rows in id order before any is changed (no deadlock between checkouts
  // sharing products); the update then takes only where the rules still hold. NO KEY UPDATE, as
  // the update itself takes: order lines already written hold KEY SHARE on their products
  // (their foreign key), which FOR UPDATE would wait on, deadlocking two checkouts. (Lines
  // written in this same statement check their foreign key at its end, after the take.)
  // The output columns are evaluated in order: the lock timeout is set for the rest of the
  // statement (its own transaction), `check` runs before `taken` locks anything, and the writes
  // nothing reads run last, at the statement's end.
  return sql`
    with ${also ? sql`${also.writes},` : sql``}
    wanted as (select * from unnest(${ids}, ${qtys}) as w(id, qty)),
    locked as (
      select p.id from products p join wanted w on w.id = p.id order by p.id for no key update of p
    ),
    taken as (
      update products p set available_quantity = p.available_quantity - w.qty
      from wanted w
      where p.id = w.id and p.id in (select id from locked)
        and p.available_quantity >= w.qty
        and (${!checkMinimum} or p.minimum_order <= w.qty)
        ${
          share
            ? sql`and w.qty <= greatest(p.minimum_order, ${share.freeUnits}::int,
                                      floor(${share.maxShare}::float8 * p.available_quantity))`
            : sql``
        }
      returning p.id, p.available_quantity
    )
    ${
      also?.atOnce
        ? sql`select set_config('lock_timeout', ${`${also.atOnce.lockWaitMs}ms`}, true) as waits,
                 case when not (${also.atOnce.check}) then placement_changed() end as checked,
                 case when (select count(*) from taken) <> ${lines.length}
                      then placement_changed() end as taken,
                 ${allocated} as allocated,
                 ${result} as result`
        : sql`select (select count(*)::int from taken) as taken,
                     case when (select count(*) from taken) = ${lines.length}
                          then ${allocated} end as allocated,
                     ${result} as result`
    }`;
}

async function take<R extends Record<string, unknown> = Record<string, unknown>>(
  tx: DbOrTx,
  lines: StockLine[],
  order: AllocateFor,
  checkMinimum: boolean,
  also?: { writes: SQL; result: SQL },
): Promise<R[]> {
  const taken = await executePrepared<{ taken: number; result: R[] | null }>(
    tx,
    takeStatement(lines, order, checkMinimum, also),
  );
  const row = taken.rows[0]!;
  if (row.taken === lines.length) return row.result ?? [];
  // Something changed since the quote: reading again refuses with the reason (a savepoint-free
  // throw; the caller's transaction rolls back whatever it wrote).
  await quote(tx, lines, checkMinimum);
  throw new HttpError(409, "conflict", "The stock changed while you ordered; please try again");
}

/** Locks these products' rows in id order, as every stock move does (no deadlock between moves). */
async function lockProducts(tx: DbOrTx, ids: SQL): Promise<void> {
  await tx.execute(
    sql`select id from products where id = any(${ids}) order by id for no key update`,
  );
}

/**
 * Returns whether any stock moved. These orders' waiting units leave the queue: the later ones
 * are dated again.
 */
async function releaseOrders(tx: DbOrTx, orderIds: string[]): Promise<boolean> {
  if (orderIds.length === 0) return false;
  const orders = sqlUuids(orderIds);
  await lockProducts(
    tx,
    sql`array(select product_id from stock_allocations where order_id = any(${orders})
              union select product_id from backorders
                     where order_id = any(${orders}) and waiting > 0)`,
  );
  const requeued = await cancelWaiting(tx, orderIds);
  // Each unit goes back where it was allocated: to its location's stock on sale (the home
  // location's is the rest of the product's total), and to the product's total. Answers what
  // went back where, and whether other orders' backorders wait for that part.
  const result = await tx.execute<{
    product_id: string;
    location_id: string;
    qty: number;
    queued: boolean;
  }>(sql`
    with gone as (
      delete from stock_allocations where order_id = any(${orders})
      returning product_id, location_id, qty
    ),
    back as (
      select product_id, location_id, sum(qty)::int as qty from gone
       group by product_id, location_id
    ),
    elsewhere as (
      update location_stock s set available = s.available + g.qty
        from back g
       where s.product_id = g.product_id and s.location_id = g.location_id
    ),
    totals as (
      update products p set available_quantity = p.available_quantity + g.qty
        from (select product_id, sum(qty)::int as qty from gone group by product_id) g
       where p.id = g.product_id
    )
    select product_id, location_id, qty,
           exists (select 1 from backorders b
                    where b.product_id = back.product_id and b.waiting > 0) as queued
      from back`);
  // Units back on sale go to the waiting backorders first, as units received do.
  const filled = new Set<string>();
  for (const r of result.rows.filter((r) => r.queued)) {
    if ((await fillBackorders(tx, r.product_id, r.location_id, r.qty)) > 0) {
      filled.add(r.product_id);
    }
  }
  await promiseDates(tx, [...new Set([...requeued, ...filled])]);
  return result.rows.length > 0;
}

/** Returns whether any stock moved. */
async function restock(
  tx: DbOrTx,
  lines: { productId: string | null; qty: number }[],
): Promise<boolean> {
  const totals = new Map<string, number>();
  for (const l of lines) {
    if (l.productId) totals.set(l.productId, (totals.get(l.productId) ?? 0) + l.qty);
  }
  if (totals.size === 0) return false;
  const ids = sqlUuids([...totals.keys()]);
  await lockProducts(tx, ids);
  await tx.execute(sql`
    update products p set available_quantity = p.available_quantity + l.qty
    from unnest(${ids}, ${sqlInts([...totals.values()])}) as l(id, qty)
    where p.id = l.id`);
  return true;
}

/** A refused line: the spec's message, and the product it is about in `fields`. */
function refusal(status: 404 | 422, productId: string, message: string): HttpError {
  const code = status === 404 ? "not_found" : "rule_broken";
  return new HttpError(status, code, message, { [productId]: message });
}
