import type { DbOrTx } from "../db/database";
import { sql } from "../db/sql";
import { sqlUuids } from "../db/sql-arrays";
import { backorderOffers } from "./backorders";

/*
 * Where an order's units would be allocated if it were placed now, read only (docs/inventory.md
 * "Allocation preview"): the same rules as `allocate_stock` (migrations 0070, 0080), written
 * here again in TypeScript so that a quote can say where the parts ship from without taking
 * anything. `allocation-preview.test.ts` places real orders after previewing them and checks
 * that both named the same locations, so the two cannot drift apart silently.
 */

export interface PreviewLine {
  productId: string;
  qty: number;
}

/** A location that would ship some of the order, with what delivery estimates need of it. */
export interface PreviewOrigin {
  locationId: string;
  code: string;
  name: string;
  city: string;
  dispatchDays: number;
  cutoffHour: number | null;
  /** The order's units it would ship, in all. */
  units: number;
}

export interface PreviewedLine {
  productId: string;
  qty: number;
  /** Each location's units of the line, in the order `allocate_stock` takes them. */
  at: { locationId: string; qty: number }[];
  /** Units beyond the stock on sale: on backorder (when the part takes backorders). */
  backordered: number;
  /** The date `backorder_offer` promises them now; null: none (or nothing backordered). */
  promisedOn: string | null;
  /**
   * Whether the units beyond the shelf go on backorder (false when there are none, or the part
   * takes no backorders: then they cannot be ordered at all).
   */
  takesBackorders: boolean;
}

export interface AllocationPreview {
  lines: PreviewedLine[];
  /** The locations that would ship, in the order they first appear in the lines. */
  origins: PreviewOrigin[];
}

interface LocationFacts {
  id: string;
  code: string;
  name: string;
  city: string;
  serves_countries: string[];
  serves_regions: string[];
  priority: number;
  is_home: boolean;
  dispatch_days: number;
  cutoff_hour: number | null;
}

interface PreviewFacts {
  whole: boolean;
  locations: LocationFacts[];
  /** Each product's stock total (`available_quantity`). */
  totals: Record<string, number>;
  /** Stock on sale at locations other than home. */
  elsewhere: { product_id: string; location_id: string; available: number }[];
}

/** The facts `allocate_stock` decides on, read in one statement. */
async function readFacts(tx: DbOrTx, productIds: string[]): Promise<PreviewFacts> {
  const ids = sqlUuids(productIds);
  const rows = await tx.execute<{ facts: PreviewFacts }>(sql`
    select json_build_object(
      'whole', coalesce((select whole_order from allocation_policy), false),
      'locations', coalesce((
        select json_agg(json_build_object(
                 'id', l.id, 'code', l.code, 'name', l.name, 'city', l.city,
                 'serves_countries', l.serves_countries, 'serves_regions', l.serves_regions,
                 'priority', l.priority, 'is_home', l.is_home,
                 'dispatch_days', l.dispatch_days, 'cutoff_hour', l.cutoff_hour))
          from stock_locations l where l.active), '[]'),
      'totals', coalesce((
        select json_object_agg(p.id, p.available_quantity)
          from products p where p.id = any(${ids})), '{}'),
      'elsewhere', coalesce((
        select json_agg(json_build_object(
                 'product_id', s.product_id, 'location_id', s.location_id,
                 'available', s.available))
          from location_stock s where s.product_id = any(${ids})), '[]')
    ) as facts`);
  return rows.rows[0]!.facts;
}

/** PostgreSQL's order of uuids: their bytes, which is their lower-case text's order. */
const byUuid = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Which location would serve each line of an order going to `place`, as `allocate_stock` would
 * decide it now: the lines' units on sale (the rest on backorder, with the date promised now),
 * with the admin's policy of one location for the whole order when one has all of it, then the
 * locations serving the destination, by priority, home first among equals. Writes nothing.
 *
 * The hold rules of unpaid orders (a line's share of the shelf, a new customer's room) are not
 * applied: the preview is of what the shelf has.
 */
export async function previewAllocation(
  tx: DbOrTx,
  wanted: readonly PreviewLine[],
  place: { country: string; region: string | null } | null,
): Promise<AllocationPreview> {
  const lines = wanted.filter((l) => l.qty > 0);
  if (lines.length === 0) return { lines: [], origins: [] };
  const facts = await readFacts(
    tx,
    lines.map((l) => l.productId),
  );
  const home = facts.locations.find((l) => l.is_home);
  const byId = new Map(facts.locations.map((l) => [l.id, l]));
  // Each line's stock on sale per location: the other locations' rows, the home one the rest.
  const optionsOf = (productId: string) => {
    const rows = facts.elsewhere.filter((e) => e.product_id === productId);
    const total = facts.totals[productId] ?? 0;
    const others = rows.reduce((sum, e) => sum + e.available, 0);
    const options = rows.map((e) => ({ locationId: e.location_id, available: e.available }));
    if (home) options.push({ locationId: home.id, available: total - others });
    return options.filter((o) => byId.has(o.locationId));
  };
  const taken = lines.map((l) => {
    const onShelf = Math.max(0, Math.min(l.qty, facts.totals[l.productId] ?? 0));
    return { line: l, qty: onShelf, options: optionsOf(l.productId) };
  });
  // The policy's one location: an active one that has every line (its units on sale) in full.
  const complete = new Set<string>();
  if (facts.whole) {
    for (const location of facts.locations) {
      const hasAll = taken.every((t) =>
        t.options.some((o) => o.locationId === location.id && o.available >= t.qty),
      );
      if (hasAll) complete.add(location.id);
    }
  }
  const serves = (l: LocationFacts) =>
    place !== null &&
    l.serves_countries.includes(place.country) &&
    (l.serves_regions.length === 0 ||
      (place.region !== null && l.serves_regions.includes(place.region)));
  const rank = (a: LocationFacts, b: LocationFacts) =>
    Number(complete.has(b.id)) - Number(complete.has(a.id)) ||
    Number(serves(b)) - Number(serves(a)) ||
    a.priority - b.priority ||
    Number(b.is_home) - Number(a.is_home) ||
    byUuid(a.id, b.id);
  const offers = await backorderOffers(
    tx,
    taken.map((t) => ({ productId: t.line.productId, units: t.line.qty - t.qty })),
  );
  const units = new Map<string, number>();
  const previewed = taken.map((t): PreviewedLine => {
    const at: PreviewedLine["at"] = [];
    let before = 0;
    const ranked = t.options
      .filter((o) => o.available > 0)
      .sort((a, b) => rank(byId.get(a.locationId)!, byId.get(b.locationId)!));
    for (const o of ranked) {
      if (before >= t.qty) break;
      const qty = Math.min(o.available, t.qty - before);
      at.push({ locationId: o.locationId, qty });
      units.set(o.locationId, (units.get(o.locationId) ?? 0) + qty);
      before += o.available;
    }
    const backordered = t.line.qty - t.qty;
    return {
      productId: t.line.productId,
      qty: t.line.qty,
      at,
      backordered,
      promisedOn: backordered > 0 ? (offers.get(t.line.productId)?.on ?? null) : null,
      takesBackorders: offers.has(t.line.productId),
    };
  });
  const origins = [...units].map(([id, n]): PreviewOrigin => {
    const l = byId.get(id)!;
    return {
      locationId: l.id,
      code: l.code,
      name: l.name,
      city: l.city,
      dispatchDays: l.dispatch_days,
      cutoffHour: l.cutoff_hour,
      units: n,
    };
  });
  return { lines: previewed, origins };
}

/**
 * The preview's allocation as `allocate_stock`'s `p_expect` (migration 0090) states it: each
 * line's units per location, `product:location:qty` in product then location order, comma-joined.
 * A write given it goes ahead only if it allocates exactly so.
 */
export function expectedAllocation(preview: AllocationPreview): string {
  return preview.lines
    .flatMap((l) => l.at.map((a) => ({ productId: l.productId, ...a })))
    .sort((a, b) => byUuid(a.productId, b.productId) || byUuid(a.locationId, b.locationId))
    .map((a) => `${a.productId}:${a.locationId}:${a.qty}`)
    .join(",");
}
