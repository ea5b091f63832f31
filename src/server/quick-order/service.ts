import { type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import { normalizePartNumber } from "../../contract/constants";
import { orderMessages } from "../../contract/orders";
import {
  MAX_PART_NUMBER_LENGTH,
  MAX_QUICK_ORDER_LINES,
  quickOrderMessages,
  type MatchKind,
  type Problem,
  type QuickOrderAdded,
  type QuickOrderLine,
  type QuickOrderResult,
  type Suggestion,
} from "../../contract/quick-order";
import type { CartService } from "../cart/service";
import type { Db } from "../db/database";
import type { PriceBreak } from "../money";
import { sqlTexts } from "../db/sql-arrays";
import { unprocessable } from "../errors";
import { attributesOf } from "../catalog/attributes/reads";
import { availabilityOf, type Availability } from "../inventory/availability";
import type { ProductBackorder } from "../../contract/availability";
import { backorderMessages } from "../../contract/backorders";
import { centsToUnits } from "../money";
import {
  inMarketOf,
  minimumFor,
  packFor,
  priceLines,
  pricingFor,
  type PricingMarket,
} from "../pricing/pricing";
import { customerGroupMessages } from "../../contract/customer-groups";
import { readQty, type ParsedLine } from "./parse";

/** A line to resolve: where it came from, the number and the quantity as written. */
export interface Entry {
  line: number;
  number: string;
  qty: unknown;
  /** See `ParsedLine.whole`. */
  whole?: string;
}

export const entriesFromText = (parsed: ParsedLine[]): Entry[] =>
  parsed.map((p) => ({ line: p.line, number: p.number, qty: p.qtyText, whole: p.whole }));

export const entriesFromLines = (lines: { number: string; qty?: unknown }[]): Entry[] =>
  lines.flatMap((l, i) =>
    l.number.trim() === "" && (l.qty === undefined || l.qty === "")
      ? []
      : [{ line: i + 1, number: l.number.trim(), qty: l.qty }],
  );

/** A product a number found, with how it was found. */
export interface Candidate {
  key: string;
  kind: MatchKind;
  brand: string;
  number: string;
  position: number;
  id: string;
  name: string;
  partNumber: string;
  img: string;
  priceCents: number;
  /** The product's public quantity breaks (docs/pricing.md). */
  breaks: PriceBreak[];
  minimumOrder: number;
  /** What a retail buyer orders at least; and (trade) the pack size (docs/pricing.md). */
  retailMinimum: number;
  packSize: number;
  availableQuantity: number;
}

/** The order a number's matches are preferred in: ours, then the carmaker's, then the others. */
const kindRank: Record<MatchKind, number> = { ours: 0, OE: 1, competitor: 2, superseded: 3 };

/** What a number found: one product (with the best match), several, or none. */
export type Found = { product: Candidate } | { choices: Candidate[] } | { none: true };

export function choose(candidates: Candidate[]): Found {
  if (candidates.length === 0) return { none: true };
  const sorted = [...candidates].sort(
    (a, b) => kindRank[a.kind] - kindRank[b.kind] || a.position - b.position,
  );
  if (sorted[0]!.kind === "ours") return { product: sorted[0]! };
  const byProduct = new Map<string, Candidate>();
  for (const c of sorted) if (!byProduct.has(c.id)) byProduct.set(c.id, c);
  if (byProduct.size === 1) return { product: sorted[0]! };
  return { choices: [...byProduct.values()] };
}

/** A line resolved, before it is priced and put in wire shape. */
export interface ResolvedLine {
  line: number;
  number: string;
  qty: number | null;
  product: Candidate | null;
  problems: Problem[];
}

/**
 * The rules of a resolved line, in the order a customer fixes them: which part, then how many.
 * Pure: `found` is what the number found, `qty` the quantity read (null when it is no quantity).
 */
export function judge(
  entry: { line: number; number: string },
  qty: number | null,
  found: Found,
  suggestions: Suggestion[] = [],
  offer: ProductBackorder | null = null,
): ResolvedLine {
  const problems: Problem[] = [];
  const shown = entry.number.trim() || "(empty)";
  if ("none" in found) {
    problems.push({
      code: "unknown",
      message: quickOrderMessages.unknown(shown),
      blocking: true,
      ...(suggestions.length > 0 && { suggestions }),
    });
  } else if ("choices" in found) {
    problems.push({
      code: "ambiguous",
      message: quickOrderMessages.ambiguous(shown),
      blocking: true,
      suggestions: found.choices.map((c) => ({
        productId: c.id,
        number: c.partNumber,
        name: c.name,
      })),
    });
  }
  const product = "product" in found ? found.product : null;
  if (product?.kind === "superseded") {
    problems.push({
      code: "superseded",
      message: quickOrderMessages.superseded(product.number, product.partNumber),
      blocking: false,
    });
  }
  if (qty === null) {
    problems.push({
      code: "bad_quantity",
      message: quickOrderMessages.badQuantity,
      blocking: true,
    });
  } else if (product) {
    // Beyond the shelf, a part that takes backorders with a date: the rest waits for supply,
    // which the cart and the checkout say (docs/inventory.md "Backorders"); not a blocking problem.
    const beyond = qty - product.availableQuantity;
    if (
      beyond > 0 &&
      qty >= product.minimumOrder &&
      offer?.available &&
      offer.expectedOn &&
      (offer.more === null || beyond <= offer.more)
    ) {
      problems.push({
        code: "backorder",
        message: backorderMessages.cartLine(product.availableQuantity, beyond, offer.expectedOn),
        blocking: false,
      });
    } else if (product.availableQuantity === 0) {
      problems.push({
        code: "out_of_stock",
        message: quickOrderMessages.outOfStock,
        blocking: true,
      });
    } else if (qty < product.minimumOrder) {
      problems.push({
        code: "below_minimum",
        message: orderMessages.atLeast(product.minimumOrder),
        blocking: true,
        qty: product.minimumOrder,
      });
    } else if (qty % product.packSize !== 0) {
      problems.push({
        code: "pack_size",
        message: customerGroupMessages.packs(product.packSize),
        blocking: true,
        qty: Math.ceil(qty / product.packSize) * product.packSize,
      });
    } else if (qty > product.availableQuantity) {
      problems.push({
        code: "over_stock",
        message: orderMessages.lessThen(product.availableQuantity),
        blocking: true,
        qty: product.availableQuantity,
      });
    }
  }
  return { line: entry.line, number: entry.number, qty, product, problems };
}

/**
 * Lines naming the same part (in any spelling, or by different numbers) become one, with their
 * quantities added, at the first one's place; so do lines with the same unknown number. A line
 * whose quantity is bad stays on its own (there is nothing to add).
 */
export function mergeLines(
  lines: ResolvedLine[],
  offers: ReadonlyMap<string, { backorder: ProductBackorder | null }> = new Map(),
): ResolvedLine[] {
  const out: ResolvedLine[] = [];
  const byKey = new Map<string, { into: ResolvedLine; lines: number[] }>();
  for (const l of lines) {
    const key =
      l.qty === null
        ? undefined
        : l.product
          ? `p:${l.product.id}`
          : l.problems.some((p) => p.code === "unknown")
            ? `n:${normalizePartNumber(l.number)}`
            : undefined;
    const seen = key ? byKey.get(key) : undefined;
    if (!seen) {
      out.push(l);
      if (key) byKey.set(key, { into: l, lines: [l.line] });
      continue;
    }
    seen.lines.push(l.line);
    seen.into.qty = seen.into.qty! + l.qty!;
  }
  // Quantities changed: the quantity rules are judged again on the merged lines.
  return out.map((l) => {
    const merged = byKey.get(
      l.product ? `p:${l.product.id}` : `n:${normalizePartNumber(l.number)}`,
    );
    if (!merged || merged.into !== l || merged.lines.length === 1) return l;
    const found: Found = l.product ? { product: l.product } : { none: true };
    const again = judge(
      l,
      l.qty,
      found,
      l.problems.find((p) => p.code === "unknown")?.suggestions,
      l.product ? offers.get(l.product.id)?.backorder : null,
    );
    again.problems.push({
      code: "merged",
      message: quickOrderMessages.merged(merged.lines),
      blocking: false,
    });
    return again;
  });
}

/** A line without a product (or one deleted meanwhile): nothing on sale, no backorders. */
const noAvailability: Availability = { stockByLocation: [], backorder: null };

const isReady = (l: ResolvedLine) => l.product !== null && !l.problems.some((p) => p.blocking);

/** Fewer characters than this, no "did you mean" (too many numbers are near). */
const MIN_SUGGESTION_KEY = 3;
const SUGGESTIONS_PER_NUMBER = 3;
/** A suggestion starts with the same this many characters as the unknown number. */
const SHARED_START = 3;
/** Unknown numbers given suggestions, at most, per request (the rest are only told unknown). */
const MAX_SUGGESTED_NUMBERS = 50;

/**
 * Quick order: resolves lines of part numbers and quantities to our parts for the caller (their
 * prices through the pricing module), and adds the good ones to the cart. Every number of a
 * request is looked up in one statement (our part numbers and the cross-references, by their
 * stored normalised columns and indexes, the same as catalog search uses); the unknown ones get
 * "did you mean" in a second.
 */
export function createQuickOrderService(db: Db, cart: CartService, opts: { currency: string }) {
  async function lookUp(keys: string[]): Promise<Map<string, Candidate[]>> {
    const byKey = new Map<string, Candidate[]>();
    if (keys.length === 0) return byKey;
    const columns = sql`p.id, p.name, p.part_number as "partNumber", p.img,
      p.price_cents as "priceCents", p.breaks, p.minimum_order as "minimumOrder",
      p.retail_minimum as "retailMinimum", p.pack_size as "packSize",
      p.available_quantity as "availableQuantity"`;
    // `= any(array)`: one index scan each over all the numbers (PostgreSQL knows the array's
    // length; an `unnest` join was estimated at 200 rows and planned in parallel, whose worker
    // start-up cost more than the lookups).
    const result = await db.execute<Candidate & Record<string, unknown>>(sql`
      select p.part_number_normalized as key, 'ours' as kind, '' as brand,
        p.part_number as number, 0 as position, ${columns}
      from products p where p.part_number_normalized = any(${sqlTexts(keys)})
      union all
      select r.number_normalized, r.kind, r.brand, r.number, r.position, ${columns}
      from product_cross_references r join products p on p.id = r.product_id
      where r.number_normalized = any(${sqlTexts(keys)})`);
    for (const row of result.rows) {
      const list = byKey.get(row.key) ?? [];
      list.push(row);
      byKey.set(row.key, list);
    }
    return byKey;
  }

  /**
   * The nearest numbers to each unknown one: ours and the cross-references next to it in the
   * B-tree order of the normalised numbers (two after, two before: a typo near the end, a digit
   * missing or too many) among those that share its first characters (a bounded range of the
   * index: '~' sorts after every letter and digit; ordered `using ~<~`, the pattern index's own
   * order, which PostgreSQL would otherwise read from the unique index and filter), ranked by trigram
   * similarity. Index range scans only: a trigram index search over 100,000 numbers that share
   * most trigrams ("BN1…") took 45 ms a number.
   */
  async function suggest(keys: string[]): Promise<Map<string, Suggestion[]>> {
    const out = new Map<string, Suggestion[]>();
    const asked = keys
      .filter((k) => k.length >= MIN_SUGGESTION_KEY)
      .slice(0, MAX_SUGGESTED_NUMBERS);
    if (asked.length === 0) return out;
    const ours = {
      normalized: sql`p.part_number_normalized`,
      number: sql`p.part_number`,
      from: sql`products p`,
    };
    const theirs = {
      normalized: sql`r.number_normalized`,
      number: sql`r.number`,
      from: sql`product_cross_references r join products p on p.id = r.product_id`,
    };
    const near = (
      t: { normalized: SQL; number: SQL; from: SQL },
      op: "~>=~" | "~<~",
      order: "asc" | "desc",
    ) => sql`(
      select ${t.normalized} as normalized, p.id, ${t.number} as number, p.name from ${t.from}
      where ${t.normalized} ${sql.raw(op)} u.n
        and ${t.normalized} ~>=~ left(u.n, ${SHARED_START})
        and ${t.normalized} ~<~ (left(u.n, ${SHARED_START}) || '~')
      order by ${t.normalized} using ${sql.raw(order === "asc" ? "~<~" : "~>~")} limit 2)`;
    const result = await db.execute<{
      key: string;
      productId: string;
      number: string;
      name: string;
    }>(sql`
      select u.n as key, s.id as "productId", s.number, s.name
      from unnest(${sqlTexts(asked)}) as u(n)
      cross join lateral (
        ${near(ours, "~>=~", "asc")} union all ${near(ours, "~<~", "desc")}
        union all ${near(theirs, "~>=~", "asc")} union all ${near(theirs, "~<~", "desc")}
      ) s
      order by u.n, similarity(s.normalized, u.n) desc, s.number`);
    for (const row of result.rows) {
      const list = out.get(row.key) ?? [];
      if (
        list.length < SUGGESTIONS_PER_NUMBER &&
        !list.some((s) => s.productId === row.productId)
      ) {
        list.push({ productId: row.productId, number: row.number, name: row.name });
      }
      out.set(row.key, list);
    }
    return out;
  }

  /** The lines resolved, priced in `market` (`unitCents`) and in the store's currency (`seenCents`). */
  async function resolveLines(entries: Entry[], customerId?: string, market?: PricingMarket) {
    if (entries.length === 0) throw unprocessable(quickOrderMessages.empty);
    if (entries.length > MAX_QUICK_ORDER_LINES) {
      throw unprocessable(quickOrderMessages.tooManyLines(entries.length));
    }
    const keyOf = (number: string | undefined) => {
      const key = number === undefined ? "" : normalizePartNumber(number);
      return key.length > 0 && key.length <= MAX_PART_NUMBER_LENGTH ? key : undefined;
    };
    const keys = new Set<string>();
    for (const e of entries) {
      for (const k of [keyOf(e.number), keyOf(e.whole)]) if (k) keys.add(k);
    }
    const found = await lookUp([...keys]);
    const picked = entries.map((e) => {
      const own = found.get(keyOf(e.number) ?? "") ?? [];
      const whole = e.whole ? (found.get(keyOf(e.whole) ?? "") ?? []) : [];
      // "0 451 103 316": not number "0 451 103" × 316, but the whole line × 1.
      if (own.length === 0 && whole.length > 0) {
        return { entry: { ...e, number: e.whole!, qty: "" }, candidates: whole };
      }
      return { entry: e, candidates: own };
    });
    const unknown = [
      ...new Set(
        picked.flatMap((p) => {
          const k = keyOf(p.entry.number);
          return p.candidates.length === 0 && k ? [k] : [];
        }),
      ),
    ];
    // The buyer's own prices (their company's list and breaks) for every part a line found.
    const [suggestions, context, attributes, availability] = await Promise.all([
      suggest(unknown),
      pricingFor(
        db,
        customerId,
        opts.currency,
        picked.flatMap((p) => p.candidates.map((c) => c.id)),
      ),
      // What each part found is (shown beside it: docs/attributes.md).
      attributesOf(
        db,
        picked.flatMap((p) => p.candidates.map((c) => c.id)),
      ),
      // Where each is on sale and its backorder offer (docs/inventory.md "What buyers see").
      availabilityOf(
        db,
        picked.flatMap((p) => p.candidates.map((c) => c.id)),
      ),
    ]);
    const judged = picked.map(({ entry, candidates }) => {
      // Each part's minimum and pack size as the buyer's (docs/pricing.md "Quantities by group").
      const found = choose(
        candidates.map((c) => ({
          ...c,
          minimumOrder: minimumFor(context, c),
          packSize: packFor(context, c),
        })),
      );
      return judge(
        entry,
        readQty(entry.qty),
        found,
        suggestions.get(keyOf(entry.number) ?? "") ?? [],
        "product" in found ? availability.get(found.product.id)?.backorder : null,
      );
    });
    const lines = mergeLines(judged, availability);
    const asked = lines.flatMap((l) =>
      l.product
        ? [
            {
              productId: l.product.id,
              qty: l.qty ?? 1,
              listPriceCents: l.product.priceCents,
              publicBreaks: l.product.breaks,
            },
          ]
        : [],
    );
    // Shown in the market; seen in the store's currency, as a cart line keeps it.
    const priced = priceLines(inMarketOf(context, market), asked);
    const seen = priceLines(context, asked);
    let next = 0;
    const withPrices = lines.map((l) => ({
      ...l,
      seenCents: l.product ? seen[next]!.unitPriceCents : null,
      unitCents: l.product ? priced[next++]!.unitPriceCents : null,
      attributes: (l.product && attributes.get(l.product.id)) || [],
      availability: (l.product && availability.get(l.product.id)) || noAvailability,
    }));
    return withPrices;
  }

  const toWire = (l: Awaited<ReturnType<typeof resolveLines>>[number]): QuickOrderLine => ({
    line: l.line,
    number: l.number,
    qty: l.qty,
    product: l.product && {
      id: l.product.id,
      name: l.product.name,
      partNumber: l.product.partNumber,
      img: l.product.img,
      minimumOrder: l.product.minimumOrder,
      availableQuantity: l.product.availableQuantity,
      attributes: l.attributes,
      ...l.availability,
    },
    matched: l.product && {
      kind: l.product.kind,
      brand: l.product.brand,
      number: l.product.number,
    },
    unitPrice: l.unitCents === null ? null : centsToUnits(l.unitCents),
    lineTotal: l.unitCents === null ? null : centsToUnits(l.unitCents * (l.qty ?? 0)),
    problems: l.problems,
  });

  return {
    async resolve(
      entries: Entry[],
      customerId?: string,
      market?: PricingMarket,
    ): Promise<QuickOrderResult> {
      const lines = await resolveLines(entries, customerId, market);
      return {
        lines: lines.map(toWire),
        currency: market?.currency ?? opts.currency,
        ready: lines.filter(isReady).length,
      };
    },

    /** Adds every line without a blocking problem to the cart, all in one transaction. */
    async addToCart(
      entries: Entry[],
      customerId: string,
      market?: PricingMarket,
    ): Promise<QuickOrderAdded> {
      const lines = await resolveLines(entries, customerId, market);
      const ready = lines.filter(isReady);
      if (ready.length === 0) throw unprocessable(quickOrderMessages.nothingToAdd);
      const updated = await cart.addLines(
        customerId,
        ready.map((l) => ({ productId: l.product!.id, qty: l.qty!, seenPriceCents: l.seenCents! })),
        market,
      );
      return {
        added: ready.length,
        cart: updated,
        left: lines.filter((l) => !isReady(l)).map(toWire),
        currency: market?.currency ?? opts.currency,
      };
    },
  };
}

export type QuickOrderService = ReturnType<typeof createQuickOrderService>;
