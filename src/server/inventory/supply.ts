import { dayWords } from "../../contract/calendar";
import {
  supplyKindLabels,
  supplyMessages,
  type IncomingSupply,
  type SupplyCreate,
  type SupplyKind,
  type SupplyListQuery,
  type SupplyStatus,
  type SupplyUpdate,
} from "../../contract/supply";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { isUniqueViolation, PG, postgresError } from "../db/postgres-errors";
import { sql, type SQL } from "../db/sql";
import { sqlUuids } from "../db/sql-arrays";
import { conflict, notFound, unprocessable } from "../errors";
import { putOnSale } from "./locations";
import { promiseDates } from "./backorders";

/** A supply row as the list reads it, with its part and location. */
type SupplyRow = {
  id: string;
  kind: SupplyKind;
  reference: string;
  product_id: string;
  product_name: string;
  part_number: string;
  location_id: string;
  location_code: string;
  location_name: string;
  location_active: boolean;
  location_home: boolean;
  qty: number;
  received: number;
  expected_on: string;
  status: SupplyStatus;
  note: string;
  created_at: Date | string;
  updated_at: Date | string;
};

/** The select every read of supply shares: the supply, its part and its location. */
const selectSupply = (where: SQL, tail: SQL = sql``) => sql`
  select s.id, s.kind, s.reference, s.product_id, p.name as product_name,
         p.part_number, s.location_id, l.code as location_code, l.name as location_name,
         l.active as location_active, l.is_home as location_home, s.qty, s.received,
         to_char(s.expected_on, 'YYYY-MM-DD') as expected_on, s.status, s.note,
         s.created_at, s.updated_at
    from incoming_supply s
    join products p on p.id = s.product_id
    join stock_locations l on l.id = s.location_id
   where ${where} ${tail}`;

const toSupply = (r: SupplyRow): IncomingSupply => ({
  id: r.id,
  kind: r.kind,
  reference: r.reference,
  productId: r.product_id,
  productName: r.product_name,
  partNumber: r.part_number,
  locationId: r.location_id,
  locationCode: r.location_code,
  locationName: r.location_name,
  locationActive: r.location_active,
  qty: r.qty,
  received: r.received,
  toCome: r.status === "open" ? r.qty - r.received : 0,
  expectedOn: r.expected_on,
  status: r.status,
  note: r.note,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

/** The supply as it is now (`lock`: its row locked for the rest of the transaction). 404 if none. */
async function readSupply(tx: DbOrTx, id: string, lock = false): Promise<SupplyRow> {
  const rows = await tx.execute<SupplyRow>(
    // Locked, its location too: a location deactivated meanwhile is read as it now is.
    selectSupply(sql`s.id = ${id}`, lock ? sql`for no key update of s for share of l` : sql``),
  );
  const row = rows.rows[0];
  if (!row) throw notFound(supplyMessages.notFound);
  return row;
}

/** Refuses a change to a supply that is no longer open (every unit arrived, or cancelled). */
function mustBeOpen(row: SupplyRow): void {
  if (row.status !== "open") throw conflict(supplyMessages.notOpen(row.status));
}

/** `Purchase order PO-4471 (04465-02220 to CHI)`: how the audit log names a supply. */
const named = (r: {
  kind: SupplyKind;
  reference: string;
  part_number: string;
  location_code: string;
}) => `${supplyKindLabels[r.kind]} ${r.reference} (${r.part_number} to ${r.location_code})`;

/** The refusal of a supply that would bring a part a second time under its run or PO. */
export const isDuplicateSupply = (err: unknown) =>
  isUniqueViolation(err, "incoming_supply_reference_idx");

/**
 * Admin: supply coming to the store's locations (docs/inventory.md "Incoming supply"): production
 * runs and purchase orders, entered, re-dated, received (all or part) or cancelled. Receiving puts
 * the units on sale at the supply's location: the product's row is locked first, as every stock
 * move does, then its stock there and its total move together with the supply, in one transaction
 * with its audit row; `onStockChanged` is told after the commit.
 */
export function createSupplyService(db: Db, onStockChanged: () => void = () => {}) {
  return {
    /** A page of supply: open supply by expected date (soonest first), the rest latest first. */
    async list(query: SupplyListQuery): Promise<{ items: IncomingSupply[]; total: number }> {
      const filters: SQL[] = [sql`true`];
      if (query.status) filters.push(sql`s.status = ${query.status}`);
      if (query.productId) filters.push(sql`s.product_id = ${query.productId}`);
      if (query.locationId) filters.push(sql`s.location_id = ${query.locationId}`);
      const where = sql.join(filters, sql` and `);
      const order =
        query.status === "open"
          ? sql`order by s.expected_on, s.created_at, s.id`
          : sql`order by s.expected_on desc, s.created_at desc, s.id`;
      const [rows, counted] = await Promise.all([
        db.execute<SupplyRow>(
          selectSupply(where, sql`${order} limit ${query.limit} offset ${query.offset}`),
        ),
        db.execute<{ total: number }>(
          sql`select count(*)::int as total from incoming_supply s where ${where}`,
        ),
      ]);
      return { items: rows.rows.map(toSupply), total: counted.rows[0]!.total };
    },

    async get(id: string): Promise<IncomingSupply> {
      return toSupply(await readSupply(db, id));
    },

    async create(input: SupplyCreate, actor: AuditActor): Promise<IncomingSupply> {
      try {
        return await db.transaction(async (tx) => {
          const product = await tx.execute<{ part_number: string }>(
            sql`select part_number from products where id = ${input.productId}
                for no key update`,
          );
          if (!product.rows[0]) throw notFound(supplyMessages.productNotFound);
          const location = await tx.execute<{ code: string }>(
            sql`select code from stock_locations where id = ${input.locationId}`,
          );
          if (!location.rows[0]) throw notFound(supplyMessages.locationNotFound);
          const inserted = await tx.execute<{ id: string }>(sql`
            insert into incoming_supply
              (kind, reference, product_id, location_id, qty, expected_on, note)
            values (${input.kind}, ${input.reference}, ${input.productId}, ${input.locationId},
                    ${input.qty}, ${input.expectedOn}, ${input.note})
            returning id`);
          const row = await readSupply(tx, inserted.rows[0]!.id);
          await supplyChanged(tx, actor, row, {
            action: "supply.create",
            summary: `Added ${named(row)}: ${row.qty} expected on ${row.expected_on}`,
          });
          return toSupply(row);
        });
      } catch (err) {
        // The product or the location was deleted meanwhile.
        if (postgresError(err)?.code === PG.foreignKeyViolation) {
          throw notFound(supplyMessages.productNotFound);
        }
        if (!isDuplicateSupply(err)) throw err;
        const [p] = (
          await db.execute<{ part_number: string }>(
            sql`select part_number from products where id = ${input.productId}`,
          )
        ).rows;
        throw conflict(supplyMessages.duplicate(input.kind, input.reference, p?.part_number ?? ""));
      }
    },

    /**
     * Changes an open supply: its expected date, quantity (never below what was received),
     * reference or note. The audit row says each change, a date as old → new.
     */
    async update(id: string, input: SupplyUpdate, actor: AuditActor): Promise<IncomingSupply> {
      try {
        return await db.transaction(async (tx) => {
          await lockProductOf(tx, id);
          const before = await readSupply(tx, id, true);
          mustBeOpen(before);
          if (input.qty !== undefined && input.qty < before.received) {
            throw unprocessable(supplyMessages.belowReceived(before.received));
          }
          const changes: string[] = [];
          const sets: SQL[] = [];
          if (input.expectedOn !== undefined && input.expectedOn !== before.expected_on) {
            sets.push(sql`expected_on = ${input.expectedOn}`);
            changes.push(
              `expected ${dayWords(before.expected_on)} → ${dayWords(input.expectedOn)}`,
            );
          }
          if (input.qty !== undefined && input.qty !== before.qty) {
            sets.push(sql`qty = ${input.qty}::int`);
            changes.push(`quantity ${before.qty} → ${input.qty}`);
          }
          if (input.reference !== undefined && input.reference !== before.reference) {
            sets.push(sql`reference = ${input.reference}`);
            changes.push(`reference ${before.reference} → ${input.reference}`);
          }
          if (input.note !== undefined && input.note !== before.note) {
            sets.push(sql`note = ${input.note}`);
            changes.push("note");
          }
          if (sets.length === 0) return toSupply(before);
          // All units arrived once the quantity comes down to what was received.
          await tx.execute(sql`
            update incoming_supply
               set ${sql.join(sets, sql`, `)}, updated_at = now(),
                   status = case when received = ${input.qty ?? before.qty}::int
                                 then 'received' else status end
             where id = ${id}`);
          await supplyChanged(tx, actor, before, {
            action: "supply.update",
            summary: `Changed ${named(before)}: ${changes.join(", ")}`,
          });
          return toSupply(await readSupply(tx, id));
        });
      } catch (err) {
        if (!isDuplicateSupply(err)) throw err;
        const row = await readSupply(db, id);
        throw conflict(supplyMessages.duplicate(row.kind, input.reference ?? "", row.part_number));
      }
    },

    /** Cancels an open supply: what is still to come is not coming (what arrived stays). */
    async cancel(id: string, actor: AuditActor): Promise<IncomingSupply> {
      return db.transaction(async (tx) => {
        await lockProductOf(tx, id);
        const before = await readSupply(tx, id, true);
        mustBeOpen(before);
        await tx.execute(sql`
          update incoming_supply set status = 'cancelled', updated_at = now() where id = ${id}`);
        await supplyChanged(tx, actor, before, {
          action: "supply.cancel",
          summary:
            `Cancelled ${named(before)}: ${before.qty - before.received} of ${before.qty} ` +
            `not coming`,
        });
        return toSupply(await readSupply(tx, id));
      });
    },

    /**
     * Receives `qty` units of an open supply (at most those still to come) at its location, which
     * must be active: they go on sale there (the home location's share is the product's total
     * less the others', so only the total moves for it), and the supply is received once every
     * unit arrived.
     */
    async receive(id: string, qty: number, actor: AuditActor): Promise<IncomingSupply> {
      const answer = await db.transaction(async (tx) => {
        await lockProductOf(tx, id);
        const row = await readSupply(tx, id, true);
        mustBeOpen(row);
        const toCome = row.qty - row.received;
        if (qty > toCome) throw unprocessable(supplyMessages.tooMany(toCome));
        if (!row.location_active) {
          throw unprocessable(supplyMessages.inactiveLocation(row.location_name));
        }
        await putOnSale(
          tx,
          row.product_id,
          { id: row.location_id, isHome: row.location_home },
          qty,
        );
        await tx.execute(sql`
          update incoming_supply
             set received = received + ${qty}::int, updated_at = now(),
                 status = case when received + ${qty}::int = qty then 'received' else 'open' end
           where id = ${id}`);
        await supplyChanged(tx, actor, row, {
          action: "supply.receive",
          summary:
            `Received ${qty} of ${named(row)}: ${row.received + qty} of ${row.qty} arrived, ` +
            `on sale at ${row.location_code}`,
        });
        return toSupply(await readSupply(tx, id));
      });
      onStockChanged();
      return answer;
    },
  };
}

export type SupplyService = ReturnType<typeof createSupplyService>;

/**
 * A supply row written: its part's backorders dated again (`promiseDates`) and the admin's action
 * in the audit log, both in the change's transaction.
 */
async function supplyChanged(
  tx: DbOrTx,
  actor: AuditActor,
  row: { id: string; product_id: string },
  audit: { action: string; summary: string },
): Promise<void> {
  await promiseDates(tx, [row.product_id]);
  await recordAdminAction(tx, {
    actor,
    action: audit.action,
    target: { type: "incoming-supply", id: row.id },
    summary: audit.summary,
  });
}

/**
 * Locks the supply's product's row (its product never changes) before the supply's own, as
 * every stock move locks the product first: a receipt and a change of the same supply queue up.
 */
async function lockProductOf(tx: DbOrTx, supplyId: string): Promise<void> {
  const [found] = (
    await tx.execute<{ product_id: string }>(
      sql`select product_id from incoming_supply where id = ${supplyId}`,
    )
  ).rows;
  if (!found) throw notFound(supplyMessages.notFound);
  await tx.execute(sql`
    select id from products where id = any(${sqlUuids([found.product_id])})
     order by id for no key update`);
}
