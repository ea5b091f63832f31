import { sql } from "drizzle-orm";
import { rateHitCtes, rateHitResult, type RateLimitResult } from "../auth/rate-limit";
import type { DbOrTx } from "../db/database";
import { ACCOUNT_GONE_MESSAGE, notFound } from "../errors";
import { executePrepared } from "../db/prepared";
import { sqlInts, sqlUuids } from "../db/sql-arrays";
import {
  pricingFromJson,
  pricingJson,
  type PricingContext,
  type PricingRow,
} from "../pricing/pricing";
import type { VehicleQuery } from "../../contract/vehicles";
import { keptVehicleJson, lineVehicleJson, type LineVehicle } from "../fitment/service";
import { lockCustomerSql } from "../users/service";
import type { ChargeFacts } from "./charges";
import type { ProductFacts, Standing, WantedLine } from "./decide";
import {
  chargesFromJson,
  chargesJson,
  type ChargesRow,
  type DestinationSource,
  type SavedAddress,
} from "./read-charges";

/** What to order: these lines, or the customer's cart as it is stored. */
export type PlacementSource = { lines: WantedLine[] } | { cartOf: string };

/** A line to order, with the vehicle its cart line was added for (null: none, or not a cart). */
export type ReadLine = WantedLine & { vehicle: LineVehicle | null };

export interface PlacementRead {
  wanted: ReadLine[];
  products: Map<string, ProductFacts>;
  standing: Standing;
  /** Shipping and tax facts for the destination, and the saved address it names. */
  charges: ChargeFacts;
  address: SavedAddress | null;
  /** The customer's own prices for these products (their company's list). */
  pricing: PricingContext;
  /**
   * The vehicle asked for with the request, as the lines without their own will keep it: null
   * when none was asked for, or when the catalog does not know it (the workflow refuses that).
   */
  vehicle: LineVehicle | null;
}

/**
 * The placement's first statement: locks the customer's row (their placements and cart changes
 * queue up behind each other from here: the duplicate rule, the hold limits and the cart cannot
 * race; it also says whether their address is verified), then, once it is locked, counts the
 * placement against the per-minute limit (`perMinute`; in the transaction, so a refused
 * placement is not counted). The read comes in a statement of its own, after the lock: a
 * statement sees the database as it was when it started, before it waited for the lock.
 */
export async function lockAndCount(
  tx: DbOrTx,
  customerId: string,
  perMinute: number,
): Promise<{ emailVerified: boolean; rate: RateLimitResult }> {
  const result = await executePrepared<{
    email_verified: boolean;
    count: number;
    retry_after: number;
  }>(
    tx,
    sql`
    with locked as (${lockCustomerSql(customerId)}),
    ${rateHitCtes("hit", `orders:${customerId}`, 60, { after: sql`select 1 from locked` })}
    select locked.email_verified, hit.count, hit.retry_after from locked left join hit on true`,
  );
  const row = result.rows[0];
  if (!row) throw notFound(ACCOUNT_GONE_MESSAGE);
  return { emailVerified: row.email_verified, rate: rateHitResult(row, perMinute) };
}

/**
 * Everything the decision needs, in one statement: the wanted lines (or the cart's), their
 * products, what the customer's unpaid orders hold, the destination's shipping and tax facts
 * (`read-charges.ts`) and the customer's prices (`pricing.ts`). Run after the customer's row is
 * locked, so it sees every order they placed while this one waited.
 */
export async function readPlacement(
  tx: DbOrTx,
  customerId: string,
  source: PlacementSource,
  opts: {
    emailVerified: boolean;
    capUnverified: boolean;
    destination: DestinationSource;
    currency: string;
    /** The vehicle the lines are for, named in this same statement (no round trip of its own). */
    vehicle?: VehicleQuery;
    /** The store's country, for the EU reverse charge (docs/tax-exemptions.md). */
    sellerCountry?: string;
  },
): Promise<PlacementRead> {
  const wanted =
    "lines" in source
      ? sql`select w.product_id, w.qty, w.n
              from unnest(${sqlUuids(source.lines.map((l) => l.productId))},
                          ${sqlInts(source.lines.map((l) => l.qty))})
                   with ordinality as w(product_id, qty, n)`
      : sql`select product_id, qty, row_number() over (order by added_at, product_id) as n,
                   vehicle_base_vehicle_id, vehicle_engine_id
              from cart_items where user_id = ${source.cartOf}`;
  // A cart line's vehicle, named in this statement (docs/vehicle-on-line.md).
  const lineVehicle =
    "lines" in source
      ? sql`null`
      : keptVehicleJson(sql`w.vehicle_base_vehicle_id`, sql`w.vehicle_engine_id`);
  // An unverified account's lines are capped by what every unverified account holds of the
  // product: its rows are locked first (in id order, as the inventory locks them), so two such
  // accounts cannot both read the room left before either has taken it.
  const capped = !opts.emailVerified && opts.capUnverified;
  if (capped) {
    await executePrepared(
      tx,
      sql`
      with wanted as (${wanted})
      select id from products where id in (select product_id from wanted)
      order by id for no key update`,
    );
  }
  const unpaidHeld = (unverifiedOnly: boolean) => sql`(
    select coalesce(sum(i.qty), 0)::int from orders o
      join order_items i on i.order_id = o.id and i.product_id = p.id
      ${unverifiedOnly ? sql`join "user" u on u.id = o.user_id and not u.email_verified` : sql``}
     where o.status in ('unpaid', 'awaiting_approval'))`;
  const heldFields = capped
    ? sql`, 'heldAll', ${unpaidHeld(false)}, 'heldUnverified', ${unpaidHeld(true)}`
    : sql``;
  const result = await executePrepared<{
    wanted: ReadLine[];
    products: ProductFacts[];
    held_cents: string;
    ordered: string[];
    charges: ChargesRow | null;
    pricing: PricingRow | null;
    vehicle: LineVehicle | null;
  }>(
    tx,
    sql`
    with wanted as (${wanted})
    select
      coalesce((select json_agg(json_build_object('productId', w.product_id, 'qty', w.qty,
                                                  'vehicle', ${lineVehicle}) order by w.n)
                  from wanted w), '[]') as wanted,
      coalesce((select json_agg(json_build_object(
                  'id', p.id, 'name', p.name, 'partNumber', p.part_number,
                  'listPriceCents', p.price_cents, 'minimumOrder', p.minimum_order,
                  'available', p.available_quantity, 'weightGrams', p.weight_grams,
                  'coreDepositCents', p.core_deposit_cents,
                  'publicBreaks', p.breaks${heldFields}))
                  from products p where p.id in (select product_id from wanted)), '[]') as products,
      (select coalesce(sum(total_cents), 0) from orders
        where user_id = ${customerId} and status in ('unpaid', 'awaiting_approval')) as held_cents,
      array(select distinct i.product_id::text from order_items i
              join orders o on o.id = i.order_id
             where o.user_id = ${customerId} and o.status in ('unpaid', 'awaiting_approval')
               and i.product_id in (select product_id from wanted)) as ordered,
      ${opts.destination ? chargesJson(customerId, opts.destination) : sql`null`} as charges,
      ${pricingJson(customerId, opts.currency, sql`select product_id from wanted`)} as pricing,
      ${opts.vehicle ? lineVehicleJson(opts.vehicle) : sql`null`} as vehicle`,
  );
  const row = result.rows[0]!;
  const { facts: charges, address } = chargesFromJson(
    opts.destination,
    row.charges,
    opts.sellerCountry,
  );
  return {
    wanted: row.wanted,
    products: new Map(row.products.map((p) => [p.id, p])),
    standing: {
      emailVerified: opts.emailVerified,
      heldCents: Number(row.held_cents),
      unpaidProductIds: row.ordered,
    },
    charges,
    address,
    pricing: pricingFromJson(customerId, opts.currency, row.pricing),
    vehicle: row.vehicle,
  };
}

/**
 * The products a cart or a quote orders, read before the placement's transaction (and outside
 * it) to pick the gates it waits at (`product-gate.ts`). Only a guide: the transaction reads the
 * lines again, and a cart changed in between is ordered as it then is.
 */
export async function readGatedProducts(
  db: DbOrTx,
  source: { cartOf: string } | { quoteId: string },
): Promise<string[]> {
  const rows = await db.execute<{ product_id: string }>(
    "cartOf" in source
      ? sql`select product_id from cart_items where user_id = ${source.cartOf}`
      : sql`select product_id from quote_lines where quote_id = ${source.quoteId}`,
  );
  return rows.rows.map((r) => r.product_id);
}
