import { type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import { rateHitCtes, rateHitResult, type RateLimitResult } from "../auth/rate-limit";
import type { DbOrTx } from "../db/database";
import { ACCOUNT_GONE_MESSAGE, notFound, unauthorized } from "../errors";
import { executePrepared } from "../db/prepared";
import { sqlInts, sqlUuids } from "../db/sql-arrays";
import {
  pricingFromJson,
  pricingJson,
  type PricingContext,
  type PricingMarket,
  type PricingRow,
} from "../pricing/pricing";
import type { VehicleQuery } from "../../contract/vehicles";
import { keptVehicleJson, lineVehicleJson, type LineVehicle } from "../vehicles/service";
import { lockCustomerSql } from "../users/service";
import type { ChargeFacts } from "../charges/estimate";
import type { ProductFacts, Standing, WantedLine } from "./decide";
import type { DecidedOn } from "./write";
import {
  chargesFromJson,
  chargesJson,
  type ChargesRow,
  type DestinationSource,
  type SavedAddress,
} from "../charges/read";

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
  /**
   * When the customer's earliest open hold window on these products ends (a deleted order's):
   * the new order's hold ends then at the latest (write.ts). Null: none is open.
   */
  windowEnd: Date | null;
}

/** A read made without the customer's lock: what the write checks and counts (write.ts). */
export interface UnlockedRead {
  placement: PlacementRead;
  /** What the write checks still holds (the revision, the facts' version...: write.ts). */
  decidedOn: DecidedOn;
  /** This placement counted against the per-minute limit (not counted yet: the write counts it). */
  rate: RateLimitResult;
  /**
   * What the customer stands at beyond these products, for the placement memory (memory.ts);
   * null unless asked for (`wholeStanding`).
   */
  standing: StandingRead | null;
}

/** The customer's unpaid orders and open hold windows over all their products. */
export interface StandingRead {
  /** Every product an unpaid order of theirs has. */
  unpaidProductIds: string[];
  /** Each open hold window's end, by product. */
  windows: Map<string, Date>;
  /** Placements counted in the per-minute limit's current window, and when that window ends. */
  placedThisMinute: number;
  minuteEndsAt: Date;
}

/**
 * The placement's first statement: locks the customer's row (their placements and cart changes
 * queue up behind each other from here: the duplicate rule, the hold limits and the cart cannot
 * race; it also says whether their address is verified), then, once it is locked, counts the
 * placement against the per-minute limit (`perMinute`; in the transaction, so a refused
 * placement is not counted). The read comes in a statement of its own, after the lock: a
 * statement sees the database as it was when it started, before it waited for the lock.
 * A caller answered from memory (`stillSignedIn`) is checked here too: 401 when their session
 * ended.
 */
export async function lockAndCount(
  tx: DbOrTx,
  customerId: string,
  perMinute: number,
  stillSignedIn?: SQL,
): Promise<{ trusted: boolean; rate: RateLimitResult }> {
  const result = await executePrepared<{
    trusted: boolean;
    count: number;
    retry_after: number;
    signed_in: boolean;
  }>(
    tx,
    sql`
    with locked as (${lockCustomerSql(customerId)}),
    ${rateHitCtes("hit", placementRateKey(customerId), RATE_WINDOW_SECONDS, {
      after: sql`select 1 from locked`,
    })}
    select ${trustedSql(sql`locked.id`)} as trusted, hit.count, hit.retry_after,
           ${stillSignedIn ?? sql`true`} as signed_in
      from locked left join hit on true`,
  );
  const row = result.rows[0];
  if (!row) throw notFound(ACCOUNT_GONE_MESSAGE);
  if (!row.signed_in) throw unauthorized();
  return { trusted: row.trusted, rate: rateHitResult(row, perMinute) };
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
  opts: ReadOptions & { trusted: boolean; capNew: boolean },
): Promise<PlacementRead> {
  return (await read(tx, customerId, source, opts)).placement;
}

/**
 * The same read without the customer's lock (no transaction around it): it also reads whether
 * the customer is trusted (`trustedSql`), their revision and placements this minute
 * (`perMinute`), and checks a caller answered from memory (`stillSignedIn`: 401 when their
 * session ended). Null: the account is gone. A new customer whose holds are capped is not placed
 * from this read (the cap locks the products first), so its `placement` is only good for seeing
 * that.
 */
export async function readPlacementUnlocked(
  db: DbOrTx,
  customerId: string,
  source: PlacementSource,
  opts: ReadOptions & { perMinute: number; stillSignedIn?: SQL; wholeStanding?: boolean },
): Promise<UnlockedRead | null> {
  const { placement, customer, ordered, windows, factsVersion } = await read(
    db,
    customerId,
    source,
    { ...opts, capNew: false },
  );
  if (!customer) return null;
  if (!customer.signedIn) throw unauthorized();
  const rate = rateHitResult(
    { count: customer.count + 1, retry_after: customer.retryAfter },
    opts.perMinute,
  );
  return {
    placement,
    decidedOn: {
      revision: Number(customer.revision),
      trusted: customer.trusted,
      factsVersion,
      windowEnd: placement.windowEnd,
    },
    rate,
    standing: opts.wholeStanding
      ? {
          unpaidProductIds: ordered,
          windows,
          placedThisMinute: customer.count,
          minuteEndsAt: new Date(Date.now() + customer.retryAfter * 1000),
        }
      : null,
  };
}

interface ReadOptions {
  destination: DestinationSource;
  currency: string;
  /** The market to price in (docs/pricing.md "Markets and currencies"); absent: none. */
  market?: PricingMarket;
  /** The vehicle the lines are for, named in this same statement (no round trip of its own). */
  vehicle?: VehicleQuery;
  /** The store's country, for the EU reverse charge (docs/tax.md). */
  sellerCountry?: string;
  /**
   * Read all of the customer's unpaid parts and open hold windows, not only these lines' (what
   * the placement memory keeps: a customer of a thousand unpaid lines costs each read more).
   */
  wholeStanding?: boolean;
  /**
   * The buyer accepts backorders: each line above its product's stock on sale reads what the
   * product offers the rest at (`backorder_offer`, migration 0073).
   */
  backorders?: boolean;
}

/** What an unlocked read says of the customer (null: the account is gone). */
interface CustomerRow {
  trusted: boolean;
  revision: number | string;
  /** Placements counted in the current minute's window, and the seconds until it ends. */
  count: number;
  retryAfter: number;
  /** The session is still live (`stillSignedIn`; true when the session was read for the request). */
  signedIn: boolean;
}

async function read(
  tx: DbOrTx,
  customerId: string,
  source: PlacementSource,
  opts: ReadOptions & { trusted?: boolean; capNew: boolean; stillSignedIn?: SQL },
): Promise<{
  placement: PlacementRead;
  customer: CustomerRow | null;
  ordered: string[];
  windows: Map<string, Date>;
  factsVersion: number;
}> {
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
  // A new customer's lines are capped by what every new customer holds of the product: its rows
  // are locked first (in id order, as the inventory locks them), so two such accounts cannot both
  // read the room left before either has taken it.
  const capped = opts.trusted === false && opts.capNew;
  // A buyer who accepts backorders has the products locked too: what is on the shelf now and what
  // the queue offers stay as read until the order is written.
  if (capped || opts.backorders) {
    await executePrepared(
      tx,
      sql`
      with wanted as (${wanted})
      select id from products where id in (select product_id from wanted)
      order by id for no key update`,
    );
  }
  const onlyWanted = (column: SQL) =>
    opts.wholeStanding ? sql`` : sql`and ${column} in (select product_id from wanted)`;
  const unpaidHeld = (newOnly: boolean) => sql`(
    select coalesce(sum(i.qty), 0)::int from orders o
      join order_items i on i.order_id = o.id and i.product_id = p.id
     where o.status in ('unpaid', 'awaiting_approval')
       ${newOnly ? sql`and not ${trustedSql(sql`o.user_id`)}` : sql``})`;
  const heldFields = capped
    ? sql`, 'heldAll', ${unpaidHeld(false)}, 'heldByNew', ${unpaidHeld(true)}`
    : sql``;
  const backorderField = opts.backorders
    ? sql`, 'backorder', (select json_build_object('on', o.on_date, 'most', o.most)
                            from wanted w, backorder_offer(p.id, w.qty - p.available_quantity) o
                           where w.product_id = p.id and w.qty > p.available_quantity limit 1)`
    : sql``;
  const result = await executePrepared<{
    wanted: ReadLine[];
    products: ProductFacts[];
    held_cents: string;
    ordered: string[];
    charges: ChargesRow | null;
    pricing: PricingRow | null;
    vehicle: LineVehicle | null;
    windows: Record<string, string> | null;
    facts_version: string;
    customer: CustomerRow | null;
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
                  'retailMinimum', p.retail_minimum, 'packSize', p.pack_size,
                  'available', p.available_quantity, 'weightGrams', p.weight_grams,
                  'coreDepositCents', p.core_deposit_cents,
                  'publicBreaks', p.breaks${heldFields}${backorderField}))
                  from products p where p.id in (select product_id from wanted)), '[]') as products,
      (select coalesce(sum(round(total_cents / exchange_rate)), 0) from orders
        where user_id = ${customerId} and status in ('unpaid', 'awaiting_approval')) as held_cents,
      array(select distinct i.product_id::text from order_items i
              join orders o on o.id = i.order_id
             where o.user_id = ${customerId} and o.status in ('unpaid', 'awaiting_approval')
               ${onlyWanted(sql`i.product_id`)}) as ordered,
      ${opts.destination ? chargesJson(customerId, opts.destination) : sql`null`} as charges,
      ${pricingJson(customerId, opts.currency, sql`select product_id from wanted`)} as pricing,
      ${opts.vehicle ? lineVehicleJson(opts.vehicle) : sql`null`} as vehicle,
      (select json_object_agg(product_id, expires_at) from hold_windows
        where user_id = ${customerId} and expires_at > now()
              ${onlyWanted(sql`product_id`)}) as windows,
      (select version from placement_facts) as facts_version,
      ${opts.trusted === undefined ? customerJson(customerId, opts.stillSignedIn) : sql`null`} as customer`,
  );
  const row = result.rows[0]!;
  const { facts: charges, address } = chargesFromJson(
    opts.destination,
    row.charges,
    opts.sellerCountry,
  );
  const windows = new Map(
    Object.entries(row.windows ?? {}).map(([id, end]) => [id, new Date(end)] as const),
  );
  const wantedIds = row.wanted.map((w) => w.productId);
  const placement: PlacementRead = {
    wanted: row.wanted,
    products: new Map(row.products.map((p) => [p.id, p])),
    standing: {
      trusted: opts.trusted ?? row.customer?.trusted ?? false,
      heldCents: Number(row.held_cents),
      unpaidProductIds: row.ordered.filter((id) => wantedIds.includes(id)),
    },
    charges,
    address,
    pricing: pricingFromJson(customerId, opts.currency, row.pricing, opts.market),
    vehicle: row.vehicle,
    // Open by the database's clock (the query's `now()`), which the write checks them by.
    windowEnd: earliestWindow(windows, wantedIds, 0),
  };
  return {
    placement,
    customer: row.customer,
    ordered: row.ordered,
    windows,
    factsVersion: Number(row.facts_version),
  };
}

/** The earliest of these products' open hold windows (null: none is open). */
export function earliestWindow(
  windows: ReadonlyMap<string, Date>,
  productIds: string[],
  now = Date.now(),
): Date | null {
  let earliest: Date | null = null;
  for (const id of productIds) {
    const end = windows.get(id);
    if (end && end.getTime() > now && (!earliest || end < earliest)) earliest = end;
  }
  return earliest;
}

/**
 * Every table a placement's read takes facts from, by what keeps an order decided on them
 * without the customer's lock (or from memory, `memory.ts`) from going stale (docs/decisions/
 * 011-checkout-workflow.md). Declared once here; `placement-reads.test.ts` fails when the read
 * names a table not listed, or a `facts` table (or listed column) has no trigger that moves the
 * placement facts' version on.
 */
export const PLACEMENT_READS = {
  /**
   * Changed by admins (or owners) at any time: each change moves `placement_facts.version` on in
   * its own transaction (migration 0042's triggers; a product's through its change trigger, its
   * stock apart), which the write checks and the memory is emptied by. A table whose trigger
   * watches some columns only lists the columns a placement reads.
   */
  facts: {
    products: "every column but the stock",
    shipping_zones: "every column",
    shipping_methods: "every column",
    tax_rates: "every column",
    company_members: "every column",
    companies: [
      "price_list_id",
      "tax_id",
      "tax_id_country",
      "tax_id_validated_at",
      "tax_exemption_certificate",
      "customer_group_id",
    ],
    price_lists: "every column",
    price_list_entries: "every column",
    // The buyer's group and its price rules (migration 0079's triggers).
    customer_groups: "every column",
    price_rules: "every column",
  },
  /**
   * The customer's own rows: changed only under their lock, which moves `user.revision` on (the
   * write goes ahead only at the revision read), or the session, asked again in the write.
   */
  customer: [
    "user",
    "session",
    "orders",
    "order_items",
    "hold_windows",
    "addresses",
    "rate_limit",
    "cart_items",
  ],
  /**
   * Read for each placement and never remembered: a line's vehicle, and a company's ship-to
   * addresses (company buyers are placed under the lock, and the memory keeps no company buyer).
   */
  everyTime: [
    "vehicle_makes",
    "vehicle_models",
    "base_vehicles",
    "vehicle_engines",
    "base_vehicle_engines",
    "company_addresses",
  ],
} as const;

/**
 * What a decision made without the customer's lock rests on beyond their row, as a condition:
 * the placement facts' version it was decided at (migration 0042), and a caller answered from
 * memory still signed in. The write (`writeOrderAtOnce`) and a refusal's confirmation ask it.
 */
export const factsUnchangedSql = (factsVersion: number, stillSignedIn: SQL = sql`true`) =>
  sql`(select version from placement_facts) = ${factsVersion} and ${stillSignedIn}`;

/**
 * What a refusal decided from memory is confirmed by (`workflow.ts`): whether the customer and
 * the facts are still what the memory decided on (`decidedOn`; a caller answered from memory
 * still signed in), and these products' stock on sale now. Null: something moved on (read it
 * all again).
 */
export async function readStockIfUnchanged(
  db: DbOrTx,
  customerId: string,
  productIds: string[],
  decidedOn: Omit<DecidedOn, "windowEnd">,
  stillSignedIn?: SQL,
): Promise<Map<string, number> | null> {
  const result = await executePrepared<{ unchanged: boolean; stock: Record<string, number> }>(
    db,
    sql`
    select exists (select 1 from "user" where id = ${customerId}
                      and revision = ${decidedOn.revision}
                      and ${trustedSql(sql`"user".id`)} = ${decidedOn.trusted})
           and ${factsUnchangedSql(decidedOn.factsVersion, stillSignedIn)} as unchanged,
           coalesce((select json_object_agg(id, available_quantity) from products
                      where id = any(${sqlUuids(productIds)})), '{}') as stock`,
  );
  const row = result.rows[0]!;
  return row.unchanged ? new Map(Object.entries(row.stock)) : null;
}

/**
 * Whether a customer is trusted with the configured hold limits (issue 49, finding 1): they have
 * paid for an order (by card or by bank transfer, refunded since or not: money once taken) or
 * belong to a company (invited by its owner, or an admin made it). Everyone else is a new
 * customer, verified email or not (a mailbox costs nothing): their unpaid orders hold for a short
 * while, and all new customers' together at most a share of a product (`newCustomerRoom`).
 */
export const trustedSql = (userId: SQL) => sql`(
  exists (select 1 from company_members member where member.user_id = ${userId})
  or exists (select 1 from orders paid where paid.user_id = ${userId} and paid.paid_at is not null))`;

/**
 * The customer as an unlocked read needs them: trusted or not, their revision, the placements
 * counted in the current window of the per-minute limit (`lockAndCount`'s key), and whether
 * their session is still live (`stillSignedIn`).
 */
const customerJson = (customerId: string, stillSignedIn: SQL = sql`true`) => sql`(
  select json_build_object(
    'trusted', ${trustedSql(sql`u.id`)}, 'revision', u.revision, 'signedIn', ${stillSignedIn},
    'count', coalesce(r.count, 0),
    'retryAfter', coalesce(ceil(extract(epoch from
                     r.window_start + make_interval(secs => ${RATE_WINDOW_SECONDS}) - now())), 0))
    from "user" u
    left join rate_limit r on r.key = ${placementRateKey(customerId)}
     and r.window_start > now() - make_interval(secs => ${RATE_WINDOW_SECONDS})
   where u.id = ${customerId})`;

/** The per-minute limit's counter of a customer's placements (`rateHitCtes`' key and window). */
export const placementRateKey = (customerId: string) => `orders:${customerId}`;
export const RATE_WINDOW_SECONDS = 60;

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
