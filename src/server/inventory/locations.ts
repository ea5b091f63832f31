import { and, asc, desc, eq } from "drizzle-orm";
import {
  locationMessages,
  type AllocationPolicy,
  type Location,
  type LocationCreate,
  type LocationUpdate,
  type ProductStock,
  type BackorderPolicy,
  type StockCount,
  type StockTransfer,
  type StockTransferInput,
  type StockTransferQuery,
} from "../../contract/locations";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { isUniqueViolation, transactionAnswering } from "../db/postgres-errors";
import { sql } from "../db/sql";
import { notFound, conflict, unprocessable } from "../errors";
import { allocationPolicy, reorderLevels, stockLocations, stockTransfers } from "./tables";
import { fillBackorders, promiseDates, setBackorderPolicy } from "./backorders";

type LocationRow = typeof stockLocations.$inferSelect;

const toLocation = (r: LocationRow): Location => ({
  id: r.id,
  code: r.code,
  name: r.name,
  line1: r.line1,
  city: r.city,
  region: r.region,
  postalCode: r.postalCode,
  country: r.country,
  servesCountries: r.servesCountries,
  servesRegions: r.servesRegions,
  priority: r.priority,
  isHome: r.isHome,
  active: r.active,
  dispatchDays: r.dispatchDays,
  cutoffHour: r.cutoffHour,
});

/** Home first, then by priority and code: the order every list of locations is in. */
const locationOrder = [
  desc(stockLocations.isHome),
  asc(stockLocations.priority),
  asc(stockLocations.code),
];

interface ProductFacts {
  id: string;
  name: string;
  partNumber: string;
  total: number;
}

/**
 * Locks the product's row, as every stock move does before touching its stock (the products'
 * rows in id order: here one), and reads its name and total on sale. Not found: 404.
 */
async function lockProduct(tx: DbOrTx, productId: string): Promise<ProductFacts> {
  const rows = await tx.execute<{
    id: string;
    name: string;
    part_number: string;
    available_quantity: number;
  }>(sql`
    select id, name, part_number, available_quantity from products
     where id = ${productId} order by id for no key update`);
  const p = rows.rows[0];
  if (!p) throw notFound(locationMessages.productNotFound);
  return { id: p.id, name: p.name, partNumber: p.part_number, total: p.available_quantity };
}

/**
 * The location, its row locked as asked: a stock move into it (`share`) and its deactivation
 * (`update`) queue for each other, so no stock arrives at a location as it is deactivated.
 */
async function findLocation(
  tx: DbOrTx,
  id: string,
  lock?: "share" | "update",
): Promise<LocationRow> {
  const query = tx.select().from(stockLocations).where(eq(stockLocations.id, id));
  const [row] = await (lock ? query.for(lock) : query);
  if (!row) throw notFound(locationMessages.notFound);
  return row;
}

/** An inactive location sells nothing and takes no stock in: refused. */
function refuseInactive(location: LocationRow): void {
  if (!location.active) throw unprocessable(locationMessages.inactive(location.name));
}

/** The product's units on sale and allocated at each location (the home's on sale derived). */
async function stockOf(tx: DbOrTx, product: ProductFacts): Promise<ProductStock> {
  const rows = await tx.execute<{
    id: string;
    code: string;
    name: string;
    is_home: boolean;
    active: boolean;
    on_sale: number;
    allocated: number;
    level: number | null;
  }>(sql`
    with elsewhere as (
      select location_id, available from location_stock where product_id = ${product.id}
    )
    select l.id, l.code, l.name, l.is_home, l.active,
           (case when l.is_home
                 then ${product.total}::int - coalesce((select sum(available) from elsewhere), 0)
                 else coalesce((select available from elsewhere e where e.location_id = l.id), 0)
            end)::int as on_sale,
           coalesce((select sum(a.qty) from stock_allocations a
                      where a.product_id = ${product.id} and a.location_id = l.id), 0)::int
             as allocated,
           (select r.level from reorder_levels r
             where r.product_id = ${product.id} and r.location_id = l.id) as level
      from stock_locations l
     order by l.is_home desc, l.priority, l.code`);
  const [policy] = (
    await tx.execute<{ takes: boolean; lead_days: number | null; waiting: number }>(sql`
      select exists (select 1 from backorder_policies where product_id = ${product.id}) as takes,
             (select lead_days from backorder_policies where product_id = ${product.id}) as lead_days,
             (select coalesce(sum(waiting), 0)::int from backorders
               where product_id = ${product.id} and waiting > 0) as waiting`)
  ).rows;
  return {
    backorders: { takes: policy!.takes, leadDays: policy!.lead_days, waiting: policy!.waiting },
    productId: product.id,
    name: product.name,
    partNumber: product.partNumber,
    availableQuantity: product.total,
    locations: rows.rows.map((r) => ({
      locationId: r.id,
      code: r.code,
      name: r.name,
      isHome: r.is_home,
      active: r.active,
      onSale: r.on_sale,
      allocated: r.allocated,
      onHand: r.on_sale + r.allocated,
      reorderLevel: r.level,
      low: r.level !== null && r.on_sale < r.level,
    })),
  };
}

/** The product's units on sale at one location (the home's: the total less the others'). */
async function onSaleAt(tx: DbOrTx, product: ProductFacts, location: LocationRow) {
  const rows = await tx.execute<{ on_sale: number }>(
    location.isHome
      ? sql`select (${product.total}::int - coalesce(sum(available), 0))::int as on_sale
              from location_stock where product_id = ${product.id}`
      : sql`select coalesce(sum(available), 0)::int as on_sale from location_stock
             where product_id = ${product.id} and location_id = ${location.id}`,
  );
  return rows.rows[0]!.on_sale;
}

/** Adds `delta` to a non-home location's stock on sale (the row made when missing). */
async function addOnSale(tx: DbOrTx, productId: string, locationId: string, delta: number) {
  // Less: the row exists (the caller read its stock on sale). An insert's row is checked
  // before its conflict is, so a negative one would break the table's check.
  if (delta < 0) {
    await tx.execute(sql`
      update location_stock set available = available + ${delta}::int
       where product_id = ${productId} and location_id = ${locationId}`);
    return;
  }
  await tx.execute(sql`
    insert into location_stock (product_id, location_id, available)
    values (${productId}, ${locationId}, ${delta})
    on conflict (product_id, location_id)
    do update set available = location_stock.available + excluded.available`);
}

/**
 * Units coming on sale at a location (or, negative, going off it): a count's difference, a
 * supply's receipt. The location's stock on sale moves (the home location's is the rest of the
 * total) and the product's total with it; units coming go to its waiting backorders first. The
 * caller holds the product's row lock. Returns the units that went to backorders.
 */
export async function putOnSale(
  tx: DbOrTx,
  productId: string,
  location: { id: string; isHome: boolean },
  delta: number,
): Promise<number> {
  if (!location.isHome) await addOnSale(tx, productId, location.id, delta);
  await tx.execute(sql`
    update products set available_quantity = available_quantity + ${delta}::int
     where id = ${productId}`);
  // Units coming on sale go to the waiting backorders first (docs/inventory.md "Backorders"):
  // the caller dates the rest of the queue again once its own writes are done.
  return delta > 0 ? fillBackorders(tx, productId, location.id, delta) : 0;
}

/** The fields an update may change (never which location is home). */
const updatable = [
  "code",
  "name",
  "line1",
  "city",
  "region",
  "postalCode",
  "country",
  "servesCountries",
  "servesRegions",
  "priority",
  "active",
  "dispatchDays",
  "cutoffHour",
] as const satisfies readonly (keyof LocationUpdate)[];

/** The 409 when another location has `code` (as the unique index compares codes). */
const codeTaken = (code: string | undefined) => (err: unknown) =>
  isUniqueViolation(err, "stock_locations_code_idx")
    ? conflict(locationMessages.codeTaken(code ?? ""))
    : undefined;

/**
 * Admin: the store's locations, a product's stock at each, counts and transfers
 * (docs/inventory.md "Locations (admin)", "Counts and transfers"). Every change of stock locks
 * the product's row first, then writes the location's stock and the product's total in the same
 * transaction, with its audit row. `onStockChanged` is told once a product's total moved.
 */
export function createLocationService(db: Db, onStockChanged: () => void = () => {}) {
  return {
    async list(): Promise<Location[]> {
      const rows = await db
        .select()
        .from(stockLocations)
        .orderBy(...locationOrder);
      return rows.map(toLocation);
    },

    /** How orders are allocated: from one location when one has the whole order, or not. */
    async allocation(): Promise<AllocationPolicy> {
      const [row] = await db.select().from(allocationPolicy);
      return { wholeOrder: row?.wholeOrder ?? false };
    },

    async setAllocation(input: AllocationPolicy, actor: AuditActor): Promise<AllocationPolicy> {
      return db.transaction(async (tx) => {
        await tx
          .insert(allocationPolicy)
          .values({ id: true, wholeOrder: input.wholeOrder })
          .onConflictDoUpdate({
            target: allocationPolicy.id,
            set: { wholeOrder: input.wholeOrder, updatedAt: new Date() },
          });
        await recordAdminAction(tx, {
          actor,
          action: "stock.allocation",
          target: { type: "allocation", id: "policy" },
          summary: input.wholeOrder
            ? "Orders ship from one location when one has all of it"
            : "Each line ships from the nearest location that has it",
        });
        return { wholeOrder: input.wholeOrder };
      });
    },

    async create(input: LocationCreate, actor: AuditActor): Promise<Location> {
      return transactionAnswering(db, codeTaken(input.code), async (tx) => {
        const [row] = await tx
          .insert(stockLocations)
          .values({
            code: input.code,
            name: input.name,
            line1: input.line1,
            city: input.city,
            region: input.region,
            postalCode: input.postalCode,
            country: input.country,
            servesCountries: input.servesCountries,
            servesRegions: input.servesRegions,
            priority: input.priority,
            active: input.active,
            dispatchDays: input.dispatchDays,
            cutoffHour: input.cutoffHour,
          })
          .returning();
        await recordAdminAction(tx, {
          actor,
          action: "location.create",
          target: { type: "location", id: row!.id },
          summary: `Added the location ${row!.code} (${row!.name})`,
        });
        return toLocation(row!);
      });
    },

    async update(id: string, input: LocationUpdate, actor: AuditActor): Promise<Location> {
      return transactionAnswering(db, codeTaken(input.code), async (tx) => {
        const deactivating = input.active === false;
        const before = await findLocation(tx, id, deactivating ? "update" : undefined);
        if (deactivating && before.active) {
          if (before.isHome) throw unprocessable(locationMessages.homeAlwaysActive);
          // A placement allocates after locking its products: holding those with stock on
          // sale here, no placement allocates here until this commits, and none after.
          await tx.execute(sql`
            select id from products
             where id in (select product_id from location_stock
                           where location_id = ${id} and available > 0)
             order by id for no key update`);
          const [held] = await tx
            .execute<{ units: number }>(
              sql`
            select coalesce(sum(qty), 0)::int as units from stock_allocations
             where location_id = ${id}`,
            )
            .then((r) => r.rows);
          if (held!.units > 0) throw unprocessable(locationMessages.hasAllocations(held!.units));
          // Its stock on sale would stay in the products' totals while no order can take it.
          const [onSale] = await tx
            .execute<{ units: number }>(
              sql`select coalesce(sum(available), 0)::int as units from location_stock
                   where location_id = ${id}`,
            )
            .then((r) => r.rows);
          if (onSale!.units > 0) throw unprocessable(locationMessages.hasStock(onSale!.units));
        }
        // Only what differs is written and audited (the edit dialog sends every field).
        const changes = Object.fromEntries(
          updatable.flatMap((k) =>
            input[k] === undefined || JSON.stringify(input[k]) === JSON.stringify(before[k])
              ? []
              : [[k, input[k]]],
          ),
        ) as LocationUpdate;
        if (Object.keys(changes).length === 0) return toLocation(before);
        const [row] = await tx
          .update(stockLocations)
          .set(changes)
          .where(eq(stockLocations.id, id))
          .returning();
        await recordAdminAction(tx, {
          actor,
          action: "location.update",
          target: { type: "location", id },
          summary:
            changes.active === false
              ? `Deactivated the location ${row!.code} (${row!.name})`
              : `Changed the location ${row!.code} (${row!.name}): ${Object.keys(changes).join(", ")}`,
        });
        return toLocation(row!);
      });
    },

    /** The product's stock at every location, home first, read in one snapshot. */
    /**
     * Whether a product takes backorders, and its lead time. Backorders already placed keep their
     * dates (turned off: they still wait for supply, first come first served).
     */
    async backorderPolicy(
      productId: string,
      input: BackorderPolicy,
      actor: AuditActor,
    ): Promise<ProductStock> {
      return db.transaction(async (tx) => {
        const product = await lockProduct(tx, productId);
        await setBackorderPolicy(tx, productId, input);
        await recordAdminAction(tx, {
          actor,
          action: "stock.backorders",
          target: { type: "product", id: productId },
          summary: input.takes
            ? `${product.partNumber} takes backorders${input.leadDays ? `, lead time ${input.leadDays} days` : " up to the open supply"}`
            : `${product.partNumber} takes no backorders`,
        });
        return stockOf(tx, product);
      });
    },

    async stock(productId: string): Promise<ProductStock> {
      return db.transaction(
        async (tx) => {
          const rows = await tx.execute<{
            id: string;
            name: string;
            part_number: string;
            available_quantity: number;
          }>(sql`select id, name, part_number, available_quantity from products
                  where id = ${productId}`);
          const p = rows.rows[0];
          if (!p) throw notFound(locationMessages.productNotFound);
          return stockOf(tx, {
            id: p.id,
            name: p.name,
            partNumber: p.part_number,
            total: p.available_quantity,
          });
        },
        { isolationLevel: "repeatable read", accessMode: "read only" },
      );
    },

    /**
     * An admin's count at a location: `onHand` units there, of which those allocated to orders
     * stay allocated and the rest are on sale (fewer than allocated: refused). The product's
     * total moves by as much as the location's stock on sale did. The reorder level is saved
     * (null: none).
     */
    async count(
      locationId: string,
      productId: string,
      input: StockCount,
      actor: AuditActor,
    ): Promise<ProductStock> {
      let moved = false;
      const answer = await db.transaction(async (tx) => {
        const product = await lockProduct(tx, productId);
        const location = await findLocation(tx, locationId, "share");
        refuseInactive(location);
        const [held] = await tx
          .execute<{ units: number }>(
            sql`select coalesce(sum(qty), 0)::int as units from stock_allocations
                 where product_id = ${productId} and location_id = ${locationId}`,
          )
          .then((r) => r.rows);
        const allocated = held!.units;
        if (input.onHand < allocated) {
          throw unprocessable(locationMessages.belowAllocated(allocated));
        }
        const before = await onSaleAt(tx, product, location);
        const after = input.onHand - allocated;
        const delta = after - before;
        if (delta !== 0) {
          const filled = await putOnSale(tx, productId, location, delta);
          product.total += delta - filled;
          moved = true;
          if (filled > 0) await promiseDates(tx, [productId]);
        }
        if (input.reorderLevel === null) {
          await tx
            .delete(reorderLevels)
            .where(
              and(eq(reorderLevels.productId, productId), eq(reorderLevels.locationId, locationId)),
            );
        } else {
          await tx
            .insert(reorderLevels)
            .values({ productId, locationId, level: input.reorderLevel })
            .onConflictDoUpdate({
              target: [reorderLevels.productId, reorderLevels.locationId],
              set: { level: input.reorderLevel },
            });
        }
        await recordAdminAction(tx, {
          actor,
          action: "stock.count",
          target: { type: "product", id: productId },
          summary:
            `Counted ${input.onHand} on hand of ${product.partNumber} at ${location.code}: ` +
            `on sale ${before} → ${after}, reorder level ${input.reorderLevel ?? "none"}`,
        });
        return stockOf(tx, product);
      });
      if (moved) onStockChanged();
      return answer;
    },

    /**
     * Moves units on sale from one location to another (fewer on sale at the source: refused).
     * The product's total stays; the home location's share is what the others do not have.
     */
    async transfer(input: StockTransferInput, actor: AuditActor): Promise<StockTransfer> {
      if (input.fromLocationId === input.toLocationId) {
        throw unprocessable(locationMessages.sameLocation);
      }
      return db.transaction(async (tx) => {
        const product = await lockProduct(tx, input.productId);
        const from = await findLocation(tx, input.fromLocationId, "share");
        const to = await findLocation(tx, input.toLocationId, "share");
        refuseInactive(to);
        const onSale = await onSaleAt(tx, product, from);
        if (onSale < input.qty) {
          throw unprocessable(locationMessages.notEnoughOnSale(onSale, from.code));
        }
        if (!from.isHome) await addOnSale(tx, product.id, from.id, -input.qty);
        if (!to.isHome) await addOnSale(tx, product.id, to.id, input.qty);
        const [row] = await tx
          .insert(stockTransfers)
          .values({
            productId: product.id,
            fromLocationId: from.id,
            toLocationId: to.id,
            qty: input.qty,
            adminId: actor.id,
            adminEmail: actor.email,
          })
          .returning();
        await recordAdminAction(tx, {
          actor,
          action: "stock.transfer",
          target: { type: "product", id: product.id },
          summary: `Moved ${input.qty} of ${product.partNumber} from ${from.code} to ${to.code}`,
        });
        return {
          id: row!.id,
          productId: product.id,
          fromLocationId: from.id,
          fromCode: from.code,
          toLocationId: to.id,
          toCode: to.code,
          qty: row!.qty,
          adminEmail: row!.adminEmail,
          createdAt: row!.createdAt.toISOString(),
        };
      });
    },

    /** Recent transfers, newest first (of one product, when given). */
    async transfers(query: StockTransferQuery): Promise<StockTransfer[]> {
      const rows = await db.execute<{
        id: string;
        product_id: string;
        from_location_id: string;
        from_code: string;
        to_location_id: string;
        to_code: string;
        qty: number;
        admin_email: string;
        created_at: Date | string;
      }>(sql`
        select t.id, t.product_id, t.from_location_id, f.code as from_code,
               t.to_location_id, o.code as to_code, t.qty, t.admin_email, t.created_at
          from stock_transfers t
          join stock_locations f on f.id = t.from_location_id
          join stock_locations o on o.id = t.to_location_id
         where ${query.productId ? sql`t.product_id = ${query.productId}` : sql`true`}
         order by t.created_at desc, t.id desc
         limit ${query.limit}`);
      return rows.rows.map((r) => ({
        id: r.id,
        productId: r.product_id,
        fromLocationId: r.from_location_id,
        fromCode: r.from_code,
        toLocationId: r.to_location_id,
        toCode: r.to_code,
        qty: r.qty,
        adminEmail: r.admin_email,
        createdAt: new Date(r.created_at).toISOString(),
      }));
    },
  };
}

export type LocationService = ReturnType<typeof createLocationService>;
