/**
 * A company buyer's own prices on a page of the catalog list (docs/pricing.md).
 * The list itself stays the shared, cached answer every visitor gets; for a caller whose company
 * has a price list, the page's items (at most 100) are overlaid with that list's entries for
 * them. The entries and which list applies to whom are kept in memory (`CompanyPriceCache`),
 * cleared by every process's writes through NOTIFY; while the change listener is not hearing,
 * they are read from the database on each request. The prices come from `unitPriceFor` and
 * `priceTiers`, the one place a price is decided.
 */

import { sql } from "../db/sql";
import type { ProductListItem, YourListPrice } from "../../contract/products";
import type { DbOrTx } from "../db/database";
import { sqlUuids } from "../db/sql-arrays";
import { centsToUnits, storedBreaks, unitsToCents, type PriceBreak } from "../money";
import {
  applicableListId,
  groupIdOf,
  keepsTradeQuantities,
  priceTiers,
  rulesByProduct,
  rulesJson,
  unitPriceWithNote,
  inMarketOf,
  vatIncludedNote,
  type GroupRule,
  type OverlayEntry,
  type PricingContext,
  type PricingMarket,
  type PricingRow,
} from "./pricing";
import { priceInMarket } from "./market-money";
import { RETAIL_GROUP_ID } from "./tables";
import { keepBounded, madeFor } from "../bounded-map";

/** The NOTIFY payload (on the catalog's channel) of a change to prices, lists or membership. */
export const PRICES_CHANGED = "prices";

type Entries = ReadonlyMap<string, OverlayEntry>;
/** Which list applies to a customer, their group, and whether it has any price rule. */
interface MemberFacts {
  listId: string | null;
  group: PricingRow["group"];
  hasRules: boolean;
  /** A member of a company: a trade buyer, who sees net prices in every market (docs/tax.md). */
  trade: boolean;
}
/** A caller's prices for a page: their list's entries, their group and its rules for the page. */
export interface PageOverlay {
  entries: Entries;
  group?: PricingRow["group"];
  rules?: ReadonlyMap<string, readonly GroupRule[]>;
  /** Which read of the facts it comes from, when they are kept in memory (see `overlayOf`). */
  sameFor?: string;
}
/** A list's entries as read whole, and which read that was. */
interface KeptList {
  entries: Entries;
  version: string;
}
/** A group's rules as read whole (product id → rules in force that day), and which read. */
interface KeptRules {
  byProduct: ReadonlyMap<string, readonly GroupRule[]>;
  version: string;
}
const NO_ENTRIES: Entries = new Map();

/** Today's UTC date (YYYY-MM-DD), formatted once a day. */
function utcDay(now = Date.now()): string {
  if (now >= today.until || now < today.from) {
    const from = now - (now % 86_400_000);
    today = { day: new Date(from).toISOString().slice(0, 10), from, until: from + 86_400_000 };
  }
  return today.day;
}
let today = { day: "", from: 0, until: 0 };

/** A list with more entries than the cache keeps: its entries are read per page instead. */
const TOO_LARGE = "too-large";

export interface CompanyPriceCacheOptions {
  /** Customers whose applicable list is remembered (the oldest is dropped past this). */
  maxMembers?: number;
  /** Price lists whose entries are kept whole (the oldest is dropped past this). */
  maxLists?: number;
  /** A list with more entries than this is not kept: its entries are read per page. */
  maxListEntries?: number;
}

/**
 * Which price list applies to each customer (their company's, in the store's currency) and each
 * list's entries, kept in memory so a buyer's list page costs no database read beyond the
 * session. Cleared whole by `invalidate`: every write to price lists, their entries, a company's
 * list or its members sends NOTIFY (triggers of migration 0034, in the writing transaction), heard
 * by every process's catalog change listener; the writing process also clears it itself as its
 * write answers (the companies' and price lists' routes), so its own next read never waits for
 * the notification. Trusted only while the listener proves it hears (`setListening`): otherwise
 * every call reads the database, as before the cache.
 *
 * Reads are shared: concurrent callers wait on one read, kept in the maps as a promise from the
 * moment it starts, so a change heard while it runs clears it with everything else (a slow read
 * can never put stale entries back).
 */
export class CompanyPriceCache {
  private members = new Map<string, Promise<MemberFacts>>();
  private lists = new Map<string, Promise<KeptList | typeof TOO_LARGE>>();
  /** Per group and UTC day: product id → its rules in force, for every product one names. */
  private rules = new Map<string, Promise<KeptRules | typeof TOO_LARGE>>();
  /** Counts list reads: each kept list's `version`. */
  private reads = 0;
  /** Counts clearings: a page's facts without a list are the same until the next one. */
  private generation = 0;
  private listening = false;
  private readonly maxMembers: number;
  private readonly maxLists: number;
  private readonly maxListEntries: number;
  /** Told of every database read the cache makes (tests count them). */
  onRead: (what: "member" | "list" | "page" | "rules") => void = () => {};

  constructor(
    private readonly db: DbOrTx,
    private readonly currency: string,
    opts: CompanyPriceCacheOptions = {},
  ) {
    this.maxMembers = opts.maxMembers ?? 10_000;
    this.maxLists = opts.maxLists ?? 20;
    this.maxListEntries = opts.maxListEntries ?? 100_000;
  }

  /**
   * The caller's company price list entries for these products: product id → entry; empty for
   * a customer in no company, a company without a price list, or a list in another currency.
   */
  async overlay(customerId: string, productIds: readonly string[]): Promise<Entries> {
    return (await this.overlayOf(customerId, productIds)).entries;
  }

  /** Whether the customer is a company member (a trade buyer: net prices), from memory. */
  async isTrade(customerId: string): Promise<boolean> {
    if (!this.listening) return (await this.readMember(customerId)).trade;
    return (
      await shared(this.members, customerId, this.maxMembers, () => this.readMember(customerId))
    ).trade;
  }

  /**
   * The caller's prices for these products: their company's list entries, their customer group
   * and (when the group has any) its rules in force for these products, read in one statement per
   * page (never kept: their dates move). `sameFor`, when everything comes from memory: which
   * read it comes from, the same for every caller with the same list and group until a change
   * clears the cache, and never the same for two reads.
   */
  async overlayOf(
    customerId: string,
    productIds: readonly string[],
    /**
     * The `sameFor` of prices the caller already has for this page: when these come from that
     * same read, the page's entries are not looked up (`entries` is empty).
     */
    known?: string,
  ): Promise<PageOverlay> {
    if (productIds.length === 0) return { entries: new Map() };
    const ids = [...new Set(productIds)];
    if (!this.listening) {
      const [facts, entries] = await Promise.all([
        this.readMember(customerId),
        this.readPage(sql`(${applicableListId(customerId, this.currency)})`, ids),
      ]);
      return { entries, ...(await this.groupOverlay(facts, ids)) };
    }
    const facts = await shared(this.members, customerId, this.maxMembers, () =>
      this.readMember(customerId),
    );
    const { group, same } = await this.keptGroup(facts, ids);
    if (facts.listId === null) return { entries: new Map(), ...group, sameFor: same };
    const listId = facts.listId;
    const kept = await shared(this.lists, listId, this.maxLists, () => this.readList(listId));
    if (kept === TOO_LARGE) {
      return { entries: await this.readPage(sql`${listId}::uuid`, ids), ...group };
    }
    const sameFor = same && `${kept.version}|${same}`;
    if (sameFor !== undefined && sameFor === known)
      return { entries: NO_ENTRIES, ...group, sameFor };
    const entries = new Map<string, OverlayEntry>();
    for (const id of ids) {
      const entry = kept.entries.get(id);
      if (entry) entries.set(id, entry);
    }
    return { entries, ...group, sameFor };
  }

  /**
   * The caller's group and its rules in force today, from memory: read whole for the catalog
   * once per group and UTC day (kept until a price or catalog change), and `same`, which read
   * that is. Rules matching more products than a list may hold are read per page instead.
   */
  private async keptGroup(
    facts: MemberFacts,
    ids: string[],
  ): Promise<{ group: Pick<PageOverlay, "group" | "rules">; same?: string }> {
    const base = `${facts.group.id}@${this.generation}`;
    if (!facts.hasRules) return { group: { group: facts.group }, same: base };
    const day = utcDay();
    const groupId = facts.group.id;
    const kept = await shared(this.rules, `${groupId}@${day}`, this.maxLists, () =>
      this.readRules(groupId),
    );
    if (kept === TOO_LARGE) return { group: await this.groupOverlay(facts, ids) };
    return {
      group: { group: facts.group, rules: kept.byProduct },
      same: `${base}|${kept.version}`,
    };
  }

  /** A group's rules in force today for every product that one names (one statement). */
  private async readRules(groupId: string): Promise<KeptRules | typeof TOO_LARGE> {
    this.onRead("rules");
    const result = await this.db.execute<{ rules: PricingRow["rules"]; n: number }>(
      sql`select r.rules, coalesce(json_array_length(r.rules), 0) as n
            from (select ${rulesJson(sql`${groupId}::uuid`, sql`select id from products`)} as rules) r`,
    );
    const row = result.rows[0];
    if ((row?.n ?? 0) > this.maxListEntries) return TOO_LARGE;
    return { byProduct: rulesByProduct(row?.rules ?? null), version: `r${++this.reads}` };
  }

  /** The caller's group, and its rules for these products when it has any (one statement). */
  private async groupOverlay(
    facts: MemberFacts,
    ids: string[],
  ): Promise<Pick<PageOverlay, "group" | "rules">> {
    if (!facts.hasRules) return { group: facts.group };
    this.onRead("rules");
    const result = await this.db.execute<{ rules: PricingRow["rules"] }>(
      sql`select ${rulesJson(sql`${facts.group.id}::uuid`, sql`select unnest(${sqlUuids(ids)})`)} as rules`,
    );
    return { group: facts.group, rules: rulesByProduct(result.rows[0]?.rules ?? null) };
  }

  /**
   * Something changed (NOTIFY `prices`, or a write in this process): forget everything; NOTIFY
   * `catalog`: the kept rules only.
   */
  invalidate(topic?: string): void {
    this.generation += 1;
    // Which rules match which product follows the catalog (a part's category or brand, a part
    // added): a catalog change clears the kept rules only.
    this.rules = new Map();
    if (topic === "catalog") return;
    this.members = new Map();
    this.lists = new Map();
  }

  /** While changes cannot be heard (the listener is reconnecting), nothing is kept. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate();
  }

  private async readMember(customerId: string): Promise<MemberFacts> {
    this.onRead("member");
    const result = await this.db.execute<{
      listId: string | null;
      group: MemberFacts["group"] | null;
      hasRules: boolean;
      trade: boolean;
    }>(
      sql`select (${applicableListId(customerId, this.currency)}) as "listId",
                 json_build_object('id', g.id, 'name', g.name, 'tradeMinimums', g.trade_minimums) as "group",
                 exists (select 1 from price_rules r where r.group_id = g.id) as "hasRules",
                 exists (select 1 from company_members m where m.user_id = ${customerId}) as "trade"
            from customer_groups g
           where g.id = ${groupIdOf(customerId)}`,
    );
    const row = result.rows[0];
    return {
      listId: row?.listId ?? null,
      // Retail is seeded and cannot be removed; a row is always there.
      group: row?.group ?? { id: RETAIL_GROUP_ID, name: "Retail", tradeMinimums: false },
      hasRules: row?.hasRules ?? false,
      trade: row?.trade ?? false,
    };
  }

  private async readList(listId: string): Promise<KeptList | typeof TOO_LARGE> {
    this.onRead("list");
    const result = await this.db.execute<EntryRow>(
      sql`select e.product_id as "productId", e.unit_price_cents as "unitPriceCents", e.breaks
            from price_list_entries e
           where e.price_list_id = ${listId}
           limit ${this.maxListEntries + 1}`,
    );
    if (result.rows.length > this.maxListEntries) return TOO_LARGE;
    return { entries: toEntries(result.rows), version: `${listId}:${++this.reads}` };
  }

  /** The entries of one list (`listId`: an SQL expression) for these products only. */
  private async readPage(listId: ReturnType<typeof sql>, ids: string[]): Promise<Entries> {
    this.onRead("page");
    const result = await this.db.execute<EntryRow>(
      sql`select e.product_id as "productId", e.unit_price_cents as "unitPriceCents", e.breaks
            from price_list_entries e
           where e.price_list_id = ${listId} and e.product_id = any(${sqlUuids(ids)})`,
    );
    return toEntries(result.rows);
  }
}

interface EntryRow extends Record<string, unknown> {
  productId: string;
  unitPriceCents: number;
  breaks: PriceBreak[];
}

const toEntries = (rows: EntryRow[]): Entries =>
  new Map(rows.map((r) => [r.productId, { unitPriceCents: r.unitPriceCents, breaks: r.breaks }]));

/**
 * The value under `key`, read by `load` if absent: the read's promise is kept at once (callers
 * meanwhile share it) and dropped if it fails. The oldest key goes past `max`.
 */
export function shared<V>(
  map: Map<string, Promise<V>>,
  key: string,
  max: number,
  load: () => Promise<V>,
): Promise<V> {
  const known = map.get(key);
  if (known) return known;
  const loading = load();
  keepBounded(map, key, loading, max);
  loading.catch(() => {
    if (map.get(key) === loading) map.delete(key);
  });
  return loading;
}

type PricedItem = Pick<
  ProductListItem,
  "_id" | "price" | "minimumOrder" | "retailMinimum" | "packSize" | "breaks"
>;

/**
 * What a card shows a buyer: for each product their company's list or their group's rule prices
 * lower, `yourPrice` (one unit at their minimum order, a break that quantity reaches included),
 * the group's words when its rule gives that price (`priceNote`), and, when a larger quantity
 * costs less still, `yourLowestPrice` (the deepest break); for a buyer held to trade quantities,
 * their minimum and pack size on every product. Products with none of these are left out: their
 * card is the shared one.
 */
export function yourListPrices(
  overlay: Omit<PageOverlay, "sameFor">,
  currency: string,
  items: readonly PricedItem[],
  /**
   * The market the page is priced in: `items` are the store's, the prices made are the market's,
   * gross at its `taxRateMillipercent` as the card's price is (a consumer's page in a market whose
   * prices include VAT); the door passes a trade buyer the market without a rate (net).
   */
  market?: PricingMarket,
): Map<string, YourListPrice> {
  const context: PricingContext = inMarketOf(
    {
      currency,
      overlay: overlay.entries,
      ...(overlay.group && { group: overlay.group }),
      ...(overlay.rules && { rules: overlay.rules }),
    },
    market,
  );
  const trade = keepsTradeQuantities(context);
  const out = new Map<string, YourListPrice>();
  for (const item of items) {
    const quantities = trade
      ? { yourMinimumOrder: item.minimumOrder, yourPackSize: item.packSize }
      : undefined;
    if (!overlay.entries.has(item._id) && !overlay.rules?.has(item._id)) {
      if (quantities) out.set(item._id, quantities);
      continue;
    }
    const listPriceCents = unitsToCents(item.price);
    // The cached list carries the product's public breaks (docs/pricing.md).
    const publicBreaks = storedBreaks(item.breaks ?? []);
    const minimumOrder = trade ? item.minimumOrder : item.retailMinimum;
    const tiers = priceTiers(context, {
      id: item._id,
      listPriceCents,
      minimumOrder,
      publicBreaks,
    });
    const atMinimum = unitPriceWithNote(context, {
      productId: item._id,
      qty: minimumOrder,
      listPriceCents,
      publicBreaks,
    });
    const lowest = tiers.length > 1 ? tiers[tiers.length - 1]! : undefined;
    const cardPrice = priceInMarket(listPriceCents, market, context.taxIncluded);
    if (atMinimum.unitPriceCents >= cardPrice && !lowest) {
      if (quantities) out.set(item._id, quantities);
      continue;
    }
    out.set(item._id, {
      yourPrice: centsToUnits(atMinimum.unitPriceCents),
      ...(atMinimum.note !== null && { priceNote: atMinimum.note }),
      ...(lowest && {
        yourLowestPrice: { minQty: lowest.minQty, unitPrice: centsToUnits(lowest.unitPriceCents) },
      }),
      ...quantities,
    });
  }
  return out;
}

/**
 * A page's items with the caller's prices added where they have them, and (`sameFor`) which read
 * of their facts they come from when kept in memory: every caller with the same `sameFor` gets
 * the same prices for the same page (catalog/routes.ts keeps the priced copy).
 */
export async function listPricesFor(
  cache: CompanyPriceCache,
  customerId: string,
  currency: string,
  items: readonly PricedItem[],
  /**
   * The `sameFor` of a priced copy of this page the caller already has: when the caller's prices
   * come from that same read, they are not made again (`prices` is empty, `sameFor` says why).
   */
  known?: string,
  /** The market the page is priced in (`items` are the store's); absent: none. */
  market?: PricingMarket,
): Promise<{ prices: Map<string, YourListPrice>; sameFor?: string }> {
  const overlay = await cache.overlayOf(
    customerId,
    items.map((i) => i._id),
    known,
  );
  const { sameFor } = overlay;
  // Made before from the same read: a copy with these prices was kept (it had some).
  if (known !== undefined && sameFor === known) return { prices: new Map(), sameFor };
  if (
    overlay.entries.size === 0 &&
    !overlay.rules?.size &&
    !(overlay.group?.tradeMinimums ?? false)
  ) {
    return { prices: new Map() };
  }
  return { prices: yourListPrices(overlay, currency, items, market), sameFor };
}

/** What a catalog answer prices (a list item, a product): its price, core deposit and breaks. */
export interface PricedProduct {
  price: number;
  coreDeposit: number | null;
  breaks?: { minQty: number; unitPrice: number }[];
}

/**
 * A catalog answer in the market a visitor's context prices in (docs/pricing.md "The market
 * chosen"): the list price and public breaks as the pricing converts a unit (gross for a consumer
 * where the market's prices include VAT, then with `taxIncluded`: its rate and the words beside
 * the price), the core deposit converted (never grossed), and the answer's `currency`. Without a market, the prices as they are and the store's currency.
 */
export function productInMarket<T extends PricedProduct>(
  product: T,
  context: Pick<PricingContext, "currency" | "market" | "taxIncluded">,
): T & { currency: string } {
  const { market, taxIncluded } = context;
  if (!market) return { ...product, currency: context.currency };
  const unit = (units: number) =>
    centsToUnits(priceInMarket(unitsToCents(units), market, taxIncluded));
  const note = vatIncludedNote(context);
  return {
    ...product,
    currency: context.currency,
    ...(taxIncluded && note && { taxIncluded: { ...taxIncluded, note } }),
    price: unit(product.price),
    coreDeposit:
      product.coreDeposit === null
        ? null
        : centsToUnits(priceInMarket(unitsToCents(product.coreDeposit), market)),
    ...(product.breaks && {
      breaks: product.breaks.map((b) => ({ ...b, unitPrice: unit(b.unitPrice) })),
    }),
  };
}

/**
 * The catalog's view of a market (catalog/routes.ts `CatalogMarket`): the prefix its answers are
 * kept under ("" for the default market; else its code and the VAT rate its consumers see), the
 * market, and a visitor's prices in it.
 */
export function catalogMarketOf(currency: string, market: PricingMarket | undefined) {
  const context = inMarketOf({ currency }, market);
  return {
    key: market ? `${market.code}:${market.taxRateMillipercent ?? "net"}|` : "",
    market,
    price: <T extends PricedProduct>(value: T) => productInMarket(value, context),
  };
}

/**
 * The catalog's views of the markets (`catalogMarketOf`), each made once per market as the
 * request markets keep it: a request's is looked up, not made again.
 */
export function catalogMarketsOf(currency: string) {
  type View = ReturnType<typeof catalogMarketOf>;
  const none = catalogMarketOf(currency, undefined);
  const views = new WeakMap<PricingMarket, View>();
  const netViews = new WeakMap<PricingMarket, View>();
  return {
    none,
    /** `market`'s view; with `net`, the view its trade buyers get: its net prices (docs/tax.md). */
    of(market: PricingMarket | undefined, net = false): View {
      if (!market) return none;
      if (!net || market.taxRateMillipercent === undefined) {
        return madeFor(views, market, () => catalogMarketOf(currency, market));
      }
      return madeFor(netViews, market, () =>
        catalogMarketOf(currency, { ...market, taxRateMillipercent: undefined }),
      );
    },
  };
}
