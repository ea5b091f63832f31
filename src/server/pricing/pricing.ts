/**
 * The one place a price is decided (DESIGN.md section 7). Every line the store prices for a
 * customer (or a visitor) goes through `priceLines`: the lowest of the list price, the
 * product's public quantity breaks and the caller's company prices. Callers: the cart, checkout,
 * the single-product order, the product page's price, quick order, reorder, lists and quotes
 * (invoices and emails use the prices snapshotted on order lines). A customer in a
 * company with a price list gets its entries for the products being priced as an overlay
 * (`pricingFor`), read from the database on each call: the anonymous catalog cache is untouched
 * and shared, and a member removed from a company pays list prices on their next request.
 */

import { type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import type { PriceBreak } from "../money";
import { sqlUuids } from "../db/sql-arrays";
import { orderMessages } from "../../contract/orders";
import {
  customerGroupMessages,
  groupPriceNote,
  priceRuleWords,
  type PriceRuleScope,
} from "../../contract/customer-groups";
import type { RoundingRule } from "../../contract/markets";
import { convertMinor } from "./convert";
import { grossOfCents, percentFromMilli } from "../tax/rules";
import { vatIncludedWords } from "../../contract/tax";
import { RETAIL_GROUP_ID } from "./tables";

/** A company's price for one product: a unit price and quantity breaks (sorted by minQty). */
export interface OverlayEntry {
  unitPriceCents: number;
  breaks: PriceBreak[];
}

/** Whose prices: the caller (a customer, or a visitor with none), and their company's overlay. */
export interface PricingContext {
  customerId?: string;
  currency: string;
  /** The caller's company, when they belong to one. */
  companyId?: string;
  /** Product id → the company's price list entry, for the products asked about. */
  overlay?: ReadonlyMap<string, OverlayEntry>;
  /** The caller's membership: their role and spending limits (checkout enforces them). */
  member?: CompanyMember;
  /**
   * The caller's customer group: their company's; without one, their own (set on Manage users,
   * retail by default). Absent (a visitor, a context built by hand): no rules, and each part's
   * own minimum order.
   */
  group?: { id?: string; name: string; tradeMinimums: boolean };
  /** Product id → the group's price rules that apply to it today (any scope; see `ruleFor`). */
  rules?: ReadonlyMap<string, readonly GroupRule[]>;
  /**
   * The market the prices are in (`inMarket`): each unit price is decided in the store's
   * currency, then converted with the market's rate and rounding rule. Absent: the store's
   * currency, as always (the cart and its quote take one; no route chooses one for a buyer
   * yet: docs/pricing.md "Markets and currencies").
   */
  market?: PricingMarket;
  /**
   * A consumer's prices with VAT included (`withTaxIncluded`; docs/tax.md "Prices with VAT
   * included"): each unit price, once converted, is shown gross at this rate. Absent: net prices.
   */
  taxIncluded?: { rateMillipercent: number };
}

/** A market as the pricing converts with it (`markets` row: docs/pricing.md). */
export interface PricingMarket {
  code: string;
  currency: string;
  rate: number;
  rounding: RoundingRule;
  /** Its consumers (buyers without a company) see prices with VAT included (`markets` row). */
  pricesIncludeTax?: boolean;
  /**
   * The VAT rate those prices include before the delivery country is known (the country the
   * market was chosen by, else its first: `consumerTaxRate` in tax/service.ts). Absent: net
   * prices, as a market passed without it always priced.
   */
  taxRateMillipercent?: number;
}

/** The context pricing in `market`'s currency: its prices converted after they are decided. */
export const inMarket = (context: PricingContext, market: PricingMarket): PricingContext => {
  const priced = { ...context, currency: market.currency, market };
  return market.taxRateMillipercent === undefined
    ? priced
    : withTaxIncluded(priced, market.taxRateMillipercent);
};

/**
 * Whether this context's prices include VAT: a consumer (no company: a visitor or a customer of
 * their own) in a market whose consumers see prices with VAT included. Trade buyers (company
 * members) see net prices and are charged tax on top.
 */
export const includesTaxFor = (context: PricingContext): boolean =>
  !context.companyId && context.market?.pricesIncludeTax === true;

/**
 * The context pricing gross at `rateMillipercent` (docs/tax.md "Prices with VAT included"), when
 * it includes VAT at all (`includesTaxFor`); the context as it is otherwise. The checkout asks it
 * again with the delivery country's rate.
 */
export const withTaxIncluded = (
  context: PricingContext,
  rateMillipercent: number,
): PricingContext =>
  includesTaxFor(context) ? { ...context, taxIncluded: { rateMillipercent } } : context;

/** `inMarket` when a door passed a market; the context as it is otherwise. */
export const inMarketOf = (context: PricingContext, market: PricingMarket | undefined) =>
  market ? inMarket(context, market) : context;

/**
 * The words beside a price of this context (docs/tax.md): "incl. 19 % VAT" when its prices
 * include VAT (`withTaxIncluded`), else null (net prices, as every trade buyer's).
 */
export const vatIncludedNote = (context: Pick<PricingContext, "taxIncluded">): string | null =>
  context.taxIncluded
    ? vatIncludedWords.price(percentFromMilli(context.taxIncluded.rateMillipercent))
    : null;

/** A group's percentage off a product's list price, as it applies to that product today. */
export interface GroupRule {
  scope: PriceRuleScope;
  percent: number;
  category: string | null;
  brand: string | null;
}

export interface CompanyMember {
  role: "owner" | "buyer" | "viewer";
  orderLimitCents: number | null;
  monthlyLimitCents: number | null;
  /**
   * What their orders this calendar month (UTC) come to: unpaid (approved or within the limits),
   * paid and shipped ones; cancelled (or declined) ones and those awaiting approval aside.
   */
  spentThisMonthCents: number;
  /** How many owners of the company besides this member could approve their orders. */
  otherOwners: number;
}

/**
 * The pricing context for a caller and the products about to be priced, read once per request
 * or transaction and then passed to `priceLines` for every line: one indexed statement for a
 * signed-in customer (their membership, their company's list, its entries for these products),
 * none for a visitor. Only a price list in the store's currency applies.
 */
export async function pricingFor(
  db: DbOrTx,
  customerId: string | undefined,
  currency: string,
  productIds: readonly string[],
  /** The market to price in (`inMarket`); absent: the store's currency. */
  market?: PricingMarket,
): Promise<PricingContext> {
  if (!customerId) return inMarketOf({ currency, group: VISITORS }, market);
  const ids = sql`select unnest(${sqlUuids([...new Set(productIds)])})`;
  const result = await db.execute<{ pricing: PricingRow | null }>(
    sql`select ${pricingJson(customerId, currency, ids)} as pricing`,
  );
  return pricingFromJson(customerId, currency, result.rows[0]?.pricing ?? null, market);
}

/**
 * A visitor's group: retail, as it is seeded (single parts: each part's retail minimum, no pack),
 * without a read (a visitor costs no statement); signed in, their own group decides.
 */
export const VISITORS = { id: RETAIL_GROUP_ID, name: "Retail", tradeMinimums: false } as const;

/** What `pricingJson` reads: the caller's group, its rules for these products, their membership. */
export interface PricingRow {
  group: { id: string; name: string; tradeMinimums: boolean };
  rules: ({ productId: string } & GroupRule)[] | null;
  member: MemberRow | null;
}

/** The membership part of `PricingRow`: null for a customer in no company. */
export interface MemberRow {
  companyId: string;
  role: CompanyMember["role"];
  orderLimitCents: number | null;
  monthlyLimitCents: number | null;
  spent: string | number;
  otherOwners: number;
  entries: { productId: string; unitPriceCents: number; breaks: PriceBreak[] }[] | null;
}

/**
 * The customer's pricing facts as one JSON value (a `PricingRow`), for a statement that reads
 * other things too (checkout reads it with the order's products). `productIds` is a query giving
 * the ids of the products being priced. It reads the membership itself rather than through
 * `companies/membership.ts`: on the store's busiest paths (every priced request, the placement)
 * that would be one more round trip. The group is the company's, else the customer's own (retail
 * unless an admin chose another); its rules are those in force today (UTC) that name the
 * product, its brand or its category.
 */
export function pricingJson(customerId: string, currency: string, productIds: SQL): SQL {
  const member = sql`(
    select json_build_object(
             'companyId', m.company_id, 'role', m.role,
             'orderLimitCents', m.order_limit_cents, 'monthlyLimitCents', m.monthly_limit_cents,
             'spent', (select coalesce(sum(round(o.total_cents / o.exchange_rate)), 0)
                         from orders o
                        where o.user_id = m.user_id
                          and o.status not in ('cancelled', 'awaiting_approval')
                          and o.created_at >= date_trunc('month', now() at time zone 'UTC')
                                              at time zone 'UTC'),
             'otherOwners', (select count(*) from company_members w
                              where w.company_id = m.company_id and w.role = 'owner'
                                and w.user_id <> m.user_id),
             'entries', (select json_agg(json_build_object('productId', e.product_id,
                                  'unitPriceCents', e.unit_price_cents, 'breaks', e.breaks))
                           from price_list_entries e
                          where e.price_list_id = (${applicableListId(customerId, currency)})
                            and e.product_id in (${productIds})))
      from company_members m
     where m.user_id = ${customerId})`;
  return sql`(
    select json_build_object(
             'group', json_build_object('id', g.id, 'name', g.name,
                                        'tradeMinimums', g.trade_minimums),
             'rules', ${rulesJson(sql`g.id`, productIds)},
             'member', ${member})
      from customer_groups g
     where g.id = ${groupIdOf(customerId)})`;
}

/**
 * The customer's customer group's id: their company's when they are a member, else their own
 * (set on Manage users), else retail. The one statement of that rule (`pricingJson`, and the
 * catalog list's overlay in `list-prices.ts`).
 */
export function groupIdOf(customerId: string): SQL {
  return sql`coalesce((select c.customer_group_id
                         from company_members m join companies c on c.id = m.company_id
                        where m.user_id = ${customerId}),
                      (select u.customer_group_id from "user" u where u.id = ${customerId}),
                      ${RETAIL_GROUP_ID}::uuid)`;
}

/**
 * A group's price rules in force today (UTC) that name one of these products, its brand or its
 * category, as a JSON array of `{ productId, ...GroupRule }` (null: none). `groupId` is an SQL
 * expression; `productIds` a query giving the products' ids.
 */
export function rulesJson(groupId: SQL, productIds: SQL): SQL {
  return sql`(select json_agg(json_build_object('productId', p.id, 'scope', r.scope,
                     'percent', r.percent, 'category', r.category, 'brand', r.brand))
                from price_rules r
                join products p
                  on p.id in (${productIds})
                 and case r.scope when 'part' then r.product_id = p.id
                                  when 'brand' then lower(r.brand) = lower(p.brand)
                                  else r.category = p.category end
               where r.group_id = ${groupId}
                 and (r.starts_on is null or r.starts_on <= (now() at time zone 'UTC')::date)
                 and (r.ends_on is null or r.ends_on >= (now() at time zone 'UTC')::date))`;
}

/** Product id → the rules that apply to it, from `rulesJson`'s array. */
export function rulesByProduct(
  rows: readonly ({ productId: string } & GroupRule)[] | null,
): Map<string, GroupRule[]> {
  const rules = new Map<string, GroupRule[]>();
  for (const { productId, ...rule } of rows ?? []) {
    rules.set(productId, [...(rules.get(productId) ?? []), rule]);
  }
  return rules;
}

/**
 * Whether this context prices any product as it prices those it was read for: a customer in no
 * company and in the retail group (no rules, no price list), or one without a group. Another group's rules were read for
 * the products asked about only, so its context is not reused for other products (the placement
 * memory keeps only these: checkout/memory.ts).
 */
export function pricesAnyProduct(context: PricingContext): boolean {
  // No group (a visitor, a context built by hand): no rule applies.
  return !context.companyId && (!context.group || context.group.id === RETAIL_GROUP_ID);
}

/**
 * Which price list applies to a customer: their company's, when it is in the store's currency;
 * no row otherwise (no company, a company without a list, a list in another currency). The one
 * statement of that rule: `pricingJson` prices with it, and the catalog list's overlay
 * (`list-prices.ts`) reads and caches a member's list with it.
 */
export function applicableListId(customerId: string, currency: string): SQL {
  return sql`select c.price_list_id
               from company_members m
               join companies c on c.id = m.company_id
               join price_lists pl on pl.id = c.price_list_id and pl.currency = ${currency}
              where m.user_id = ${customerId}`;
}

/** The pricing context from what `pricingJson` read. */
export function pricingFromJson(
  customerId: string,
  currency: string,
  row: PricingRow | null,
  /** The market to price in (`inMarket`); absent: the store's currency. */
  market?: PricingMarket,
): PricingContext {
  if (!row) return inMarketOf({ customerId, currency }, market);
  const rules = rulesByProduct(row.rules);
  const context: PricingContext = { customerId, currency, group: row.group, rules };
  const m = row.member;
  if (!m) return inMarketOf(context, market);
  return inMarketOf(
    {
      ...context,
      companyId: m.companyId,
      member: {
        role: m.role,
        orderLimitCents: m.orderLimitCents,
        monthlyLimitCents: m.monthlyLimitCents,
        spentThisMonthCents: Number(m.spent),
        otherOwners: Number(m.otherOwners),
      },
      overlay: new Map(
        (m.entries ?? []).map((e) => [
          e.productId,
          { unitPriceCents: e.unitPriceCents, breaks: e.breaks },
        ]),
      ),
    },
    market,
  );
}

/**
 * A line to price: the product's list price and its public quantity breaks as stored (the
 * same for everyone, visitors included: docs/pricing.md), and how many. The breaks are
 * required so that no caller can forget them: a product without any passes `[]`.
 */
export interface LineToPrice {
  productId: string;
  qty: number;
  listPriceCents: number;
  publicBreaks: readonly PriceBreak[];
}

export interface PricedLine extends LineToPrice {
  /** What one unit costs this customer, in minor units (integers only). */
  unitPriceCents: number;
  /** unitPriceCents × qty. */
  lineTotalCents: number;
  /** The group rule's words when it gave the price ("Garage price: 20 % off brakes"); else null. */
  note: string | null;
}

/** How specific a rule is: a part's rule beats its brand's, a brand's its category's. */
const SPECIFICITY: Record<PriceRuleScope, number> = { part: 3, brand: 2, category: 1 };

/**
 * The group rule that applies to a product: the most specific one (part, then brand, then
 * category), and of equally specific ones the largest percentage. Undefined: none.
 */
export function ruleFor(context: PricingContext, productId: string): GroupRule | undefined {
  let best: GroupRule | undefined;
  for (const r of context.rules?.get(productId) ?? []) {
    if (
      !best ||
      SPECIFICITY[r.scope] > SPECIFICITY[best.scope] ||
      (r.scope === best.scope && r.percent > best.percent)
    ) {
      best = r;
    }
  }
  return best;
}

/** The list price less a percentage, rounded half up to the cent (never below 0). */
export const percentOff = (listPriceCents: number, percent: number) =>
  Math.max(0, Math.floor((listPriceCents * (100 - percent) + 50) / 100));

/**
 * One unit's price for this caller at this quantity, and what gave it: the lowest of the list
 * price, the public break reached, the group's rule, the company's price and its break reached,
 * all in the store's currency; then, in a market (`inMarket`), converted with its rate and
 * rounding rule, and for a consumer whose prices include VAT (`withTaxIncluded`) made gross. `note` names the group's rule when it gave the price ("Garage price: 20 % off
 * brakes").
 */
export function unitPriceWithNote(
  context: PricingContext,
  line: LineToPrice,
): { unitPriceCents: number; note: string | null } {
  const decided = basePriceWithNote(context, line);
  const m = context.market;
  const unit = m
    ? convertMinor(decided.unitPriceCents, m.rate, m.rounding)
    : decided.unitPriceCents;
  // A consumer's price with VAT included: the converted net price made gross once, so a line is
  // the gross unit × its quantity (docs/tax.md).
  const vat = context.taxIncluded;
  return { ...decided, unitPriceCents: vat ? grossOfCents(unit, vat.rateMillipercent) : unit };
}

/** `unitPriceWithNote` in the store's currency: the price decided, before any market's rate. */
function basePriceWithNote(
  context: PricingContext,
  line: LineToPrice,
): { unitPriceCents: number; note: string | null } {
  let unit = line.listPriceCents;
  for (const b of line.publicBreaks) {
    if (line.qty >= b.minQty) unit = Math.min(unit, b.unitPriceCents);
  }
  const entry = context.overlay?.get(line.productId);
  if (entry) {
    unit = Math.min(unit, entry.unitPriceCents);
    for (const b of entry.breaks) {
      if (line.qty >= b.minQty) unit = Math.min(unit, b.unitPriceCents);
    }
  }
  const rule = ruleFor(context, line.productId);
  if (rule && context.group) {
    const ruled = percentOff(line.listPriceCents, rule.percent);
    if (ruled <= unit) {
      return {
        unitPriceCents: ruled,
        note: groupPriceNote(context.group.name, priceRuleWords(rule)),
      };
    }
  }
  return { unitPriceCents: unit, note: null };
}

/** One unit's price for this caller at this quantity: the lowest that applies. */
export function unitPriceFor(context: PricingContext, line: LineToPrice): number {
  return unitPriceWithNote(context, line).unitPriceCents;
}

/**
 * A part's quantities (docs/pricing.md "Quantities by group"): its trade minimum
 * (`minimumOrder`), its retail minimum and its pack size.
 */
export interface PartQuantities {
  minimumOrder: number;
  retailMinimum: number;
  packSize: number;
}

/**
 * Whether the caller is held to trade quantities (each part's trade minimum, in pack multiples):
 * a group that keeps trade minimums. Retail customers are not (unless an admin switched retail),
 * nor visitors (`VISITORS`: they are shown, and may put in their cart, the retail minimum). A
 * context without a group (built by hand) keeps each part's trade minimum, as it always did.
 */
export const keepsTradeQuantities = (context: PricingContext): boolean =>
  context.group?.tradeMinimums ?? true;

/**
 * The caller's minimum order of a part: its trade minimum for a group that keeps trade
 * quantities, its retail minimum otherwise. Every quantity rule asks here (through
 * `quantityProblem`): cart, checkout (both doors), quick order, the product page.
 */
export function minimumFor(context: PricingContext, part: PartQuantities): number {
  return keepsTradeQuantities(context) ? part.minimumOrder : part.retailMinimum;
}

/** The caller's pack size of a part: the part's for trade quantities, 1 (any) otherwise. */
export function packFor(context: PricingContext, part: PartQuantities): number {
  return keepsTradeQuantities(context) ? part.packSize : 1;
}

/**
 * What is wrong with ordering `qty` of a part, in the words the buyer is told: below their
 * minimum (the specification's `please order at least N`, with their minimum), or not a multiple
 * of their pack size (`Order this part in packs of 10`); null when neither.
 */
export function quantityProblem(
  context: PricingContext,
  part: PartQuantities,
  qty: number,
): string | null {
  const minimum = minimumFor(context, part);
  if (qty < minimum) return orderMessages.atLeast(minimum);
  const pack = packFor(context, part);
  return qty % pack === 0 ? null : customerGroupMessages.packs(pack);
}

/**
 * Prices each line for the caller: the lowest of the list price, the product's public quantity
 * break that the line's quantity reaches, their company's unit price and the company's quantity
 * break that the line's quantity reaches. Integers only.
 */
export function priceLines(context: PricingContext, lines: LineToPrice[]): PricedLine[] {
  return lines.map((line) => {
    const { unitPriceCents, note } = unitPriceWithNote(context, line);
    return { ...line, unitPriceCents, lineTotalCents: unitPriceCents * line.qty, note };
  });
}

/**
 * The price table a buyer sees on a product page: from each quantity on (the minimum order,
 * then each public or company break above it), the unit price `priceLines` gives at that
 * quantity. Rows that would not lower the price are left out.
 */
export function priceTiers(
  context: PricingContext,
  product: {
    id: string;
    listPriceCents: number;
    minimumOrder: number;
    publicBreaks: readonly PriceBreak[];
  },
): { minQty: number; unitPriceCents: number }[] {
  const entry = context.overlay?.get(product.id);
  const qtys = [
    product.minimumOrder,
    ...[...product.publicBreaks, ...(entry?.breaks ?? [])]
      .map((b) => b.minQty)
      .filter((q) => q > product.minimumOrder)
      .sort((a, b) => a - b),
  ];
  const tiers: { minQty: number; unitPriceCents: number }[] = [];
  for (const qty of qtys) {
    const unitPriceCents = unitPriceFor(context, {
      productId: product.id,
      qty,
      listPriceCents: product.listPriceCents,
      publicBreaks: product.publicBreaks,
    });
    if (tiers.length === 0 || unitPriceCents < tiers[tiers.length - 1]!.unitPriceCents) {
      tiers.push({ minQty: qty, unitPriceCents });
    }
  }
  return tiers;
}
