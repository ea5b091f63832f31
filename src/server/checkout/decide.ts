import { approvalMessages } from "../../contract/approvals";
import { quoteMessages } from "../../contract/quotes";
import { cartMessages } from "../../contract/cart";
import { companyMessages } from "../../contract/companies";
import { holdMessages, orderMessages } from "../../contract/orders";
import { checkStockLine } from "../inventory/service";
import type { BackorderOffer } from "../inventory/backorders";
import type { HoldLimits } from "../config";
import { conflict, HttpError, unprocessable } from "../errors";
import { centsToUnits, MAX_CENTS } from "../money";
import {
  minimumFor,
  packFor,
  quantityProblem,
  priceLines,
  type CompanyMember,
  type PricingContext,
} from "../pricing/pricing";
import type { PriceBreak } from "../money";
import type { ApprovalNeed } from "../approvals/service";
import { computeCharges, requireShippable, type ChargeFacts } from "../charges/estimate";
import { decideDiscount, type DecidedDiscount, type DiscountOffer } from "../pricing/discounts";
import {
  atDeliveryRate,
  chargesFor,
  inStoreMinor,
  marketMoney,
  priceInMarket,
} from "../pricing/market-money";

/**
 * The rules of placing an order, as pure functions of what the read gathered: no database, no
 * clock. The write re-checks in SQL only what can change between the two (the stock).
 */

/** A product as the read found it. */
export interface ProductFacts {
  id: string;
  name: string;
  partNumber: string | null;
  listPriceCents: number;
  /** The product's public quantity breaks (docs/pricing.md); absent: none. */
  publicBreaks?: PriceBreak[];
  minimumOrder: number;
  /** What retail buyers order at least (docs/pricing.md "Quantities by group"); absent: 1. */
  retailMinimum?: number;
  /** Trade buyers order in multiples of it; absent: 1. */
  packSize?: number;
  available: number;
  /** One unit's shipping weight (0 when not given). */
  weightGrams?: number;
  /** One unit's core deposit (null or absent: none; docs/core-charges.md). */
  coreDepositCents?: number | null;
  /**
   * Read only when the buyer accepts backorders, for a line above the stock on sale: what the
   * product offers the units beyond it at (absent or null: it takes no backorders).
   */
  backorder?: BackorderOffer | null;
  /** Read for a new customer only: units all unpaid orders hold, and new customers' ones. */
  heldAll?: number;
  heldByNew?: number;
}

/** What the customer's unpaid orders hold, read after their row was locked. */
export interface Standing {
  /**
   * Whether the customer has paid for an order or belongs to a company (`trustedSql`); new
   * customers, verified or not, hold less, shorter.
   */
  trusted: boolean;
  heldCents: number;
  /** Products among those wanted that an unpaid order of theirs has already. */
  unpaidProductIds: string[];
}

export interface WantedLine {
  productId: string;
  qty: number;
}

/** An order line as it will be written: the product as sold, at the customer's price. */
export interface DecidedLine extends WantedLine {
  productName: string;
  partNumber: string | null;
  unitPriceCents: number;
  /** The line's tax, rounded half up on its own (docs/tax.md). */
  taxCents: number;
  /** The product's core deposit per unit, snapshotted (0: none; untaxed). */
  coreDepositCents: number;
  /** Units of `qty` not on the shelf: on backorder, dated when written (absent: none). */
  backordered?: number;
  /** The line's share of the discount code (absent: none). */
  discountCents?: number;
}

/** What the order charges for shipping and tax, as it will be snapshotted. */
export interface DecidedCharges {
  shippingCents: number;
  /** The method's name; null when no shipping is charged. */
  shippingMethod: string | null;
  taxCents: number;
  shippingTaxCents: number;
  /** The lines' core deposits (units × deposit), charged as their own lines, untaxed. */
  coreDepositCents: number;
  taxName: string | null;
  taxRateMillipercent: number | null;
  /** Reverse charge's legal note, or the exemption's (docs/tax.md); else null. */
  taxNote?: string | null;
  /** The buyer's tax id as it was when ordered (reverse charge: its checked VAT id). */
  buyerTaxId?: string | null;
  /**
   * A consumer's order with VAT included (docs/tax.md): lines and shipping gross, `taxCents` the
   * VAT they contain, not added to the total. Absent: net prices, tax added.
   */
  pricesIncludeTax?: boolean;
  /**
   * The method's working days in transit, when it has them: a cart's checkout keeps the window it
   * promises (docs/shipping.md "The promise kept with the order"). Absent: none.
   */
  transit?: { transitMinDays: number; transitMaxDays: number };
}

export interface Decision {
  lines: DecidedLine[];
  charges: DecidedCharges;
  /** Lines − discount + shipping + tax (tax not added when the prices include it). */
  totalCents: number;
  /** The discount code it uses (absent: none); used once in the order's transaction. */
  discount?: DecidedDiscount["discount"];
  /** Set when the order is over a spending limit: it is placed awaiting approval. */
  approval: ApprovalNeed | null;
  /** Some units are on backorder and the buyer wants the order in one go (absent: false). */
  shipComplete?: boolean;
  /**
   * A line is below its part's trade minimum, as a retail buyer may order (docs/pricing.md):
   * the write takes it without the stock statement's trade-minimum check (absent: false).
   */
  belowTradeMinimum?: boolean;
}

/** No place named: nothing beyond the lines is charged. */
export const NO_CHARGES: ChargeFacts = { place: null, zones: [], rates: [] };

/** An order that charges nothing for shipping, tax or core deposits (a warranty replacement's). */
export const NOTHING_CHARGED: Readonly<DecidedCharges> = {
  shippingCents: 0,
  shippingMethod: null,
  taxCents: 0,
  shippingTaxCents: 0,
  coreDepositCents: 0,
  taxName: null,
  taxRateMillipercent: null,
};

export interface PlacementFacts {
  wanted: WantedLine[];
  products: ReadonlyMap<string, ProductFacts>;
  standing: Standing;
  /** Where it goes, with the zones and rates that apply there (`read-charges.ts`). */
  charges?: ChargeFacts;
}

export interface PlacementRules {
  limits: HoldLimits;
  pricing: PricingContext;
  /** The total the customer was shown, in cents: a different total places nothing. */
  expectedTotalCents?: number;
  /** The shipping method the customer chose; none: the cheapest serving the address. */
  shippingMethodId?: string | null;
  /**
   * An accepted quote's unit prices by product (docs/quotes.md): they replace the pricing
   * module's for these lines. Read from the quote's row in the transaction, never from a client.
   */
  quotedPrices?: ReadonlyMap<string, number>;
  /**
   * The buyer accepts backorders (docs/inventory.md "Backorders"): a line above the stock on
   * sale of a product that takes them ships what is there and backorders the rest ("available"),
   * or the whole order waits for it ("complete"). Absent: the specification's rule, refused.
   */
  fulfilment?: "complete" | "available";
  /** The discount code the buyer saw, as read in the transaction (docs/pricing.md). */
  discount?: DiscountOffer;
}

export const ORDER_TOO_LARGE =
  "This order's total is too large: order fewer or split it into several orders";

/**
 * Decides an order: refuses it with the first broken rule (in the order customers have always
 * been told them: duplicates, then each line's product, minimum and stock, then the hold share,
 * the shipping (an address nobody serves), the total, the total they were shown, the value
 * held), or gives its lines, their shipping and tax, and the total.
 */
export function decidePlacement(facts: PlacementFacts, rules: PlacementRules): Decision {
  const { wanted, products, standing } = facts;
  if (rules.pricing.member?.role === "viewer") {
    throw new HttpError(403, "forbidden", companyMessages.viewerCannotOrder);
  }
  if (wanted.length === 0) throw unprocessable(cartMessages.empty);
  if (standing.unpaidProductIds.length > 0) {
    throw new HttpError(
      409,
      "conflict",
      orderMessages.duplicate,
      Object.fromEntries(standing.unpaidProductIds.map((id) => [id, orderMessages.duplicate])),
    );
  }
  const ids = wanted.map((l) => l.productId);
  if (new Set(ids).size !== ids.length) throw unprocessable("Each product can be ordered once");
  const found = wanted.map((line) => {
    const facts = products.get(line.productId);
    // The buyer's minimum order and pack size: the part's trade ones, or its retail minimum
    // (docs/pricing.md "Quantities by group").
    const part = facts && {
      minimumOrder: facts.minimumOrder,
      retailMinimum: facts.retailMinimum ?? 1,
      packSize: facts.packSize ?? 1,
    };
    const product = facts && part && { ...facts, minimumOrder: minimumFor(rules.pricing, part) };
    const pack = part ? packFor(rules.pricing, part) : 1;
    if (product && line.qty >= product.minimumOrder && line.qty % pack !== 0) {
      const message = quantityProblem(rules.pricing, part!, line.qty)!;
      throw unprocessable(message, line.productId);
    }
    const offer = rules.fulfilment && product?.backorder;
    // A line beyond the shelf, of a product that takes backorders: the minimum as always, then
    // at most what the backorder offers.
    if (product && offer && line.qty > product.available) {
      if (line.qty < product.minimumOrder) checkStockLine(line, product);
      const most = offer.most === null ? Infinity : product.available + offer.most;
      if (line.qty > most || offer.on === null) {
        const can = Number.isFinite(most) ? most : product.available;
        throw unprocessable(orderMessages.lessThen(can), line.productId);
      }
      return { line, product, offer };
    }
    checkStockLine(line, product);
    return { line, product, offer: undefined };
  });
  const backordered = new Map<string, number>();
  for (const { line, product, offer } of found) {
    const most = Math.max(
      product.minimumOrder,
      rules.limits.freeUnits,
      Math.floor(rules.limits.maxShare * product.available),
    );
    if (offer) {
      // What the hold rules let an unpaid order take now is taken; the rest waits for supply.
      const room =
        !standing.trusted && rules.limits.newCustomerShare < 1
          ? newCustomerRoom(product, rules.limits.newCustomerShare)
          : Infinity;
      const now = Math.min(line.qty, product.available, most, room);
      backordered.set(line.productId, line.qty - now);
      continue;
    }
    if (line.qty > most) {
      throw new HttpError(422, "hold_limit", holdMessages.share(most), {
        [line.productId]: holdMessages.share(most),
      });
    }
    if (!standing.trusted && rules.limits.newCustomerShare < 1) {
      const room = newCustomerRoom(product, rules.limits.newCustomerShare);
      if (line.qty > room) {
        throw new HttpError(422, "hold_limit", holdMessages.newCustomer(room), {
          [line.productId]: holdMessages.newCustomer(room),
        });
      }
    }
  }
  // A consumer's gross prices at the delivery country's VAT rate (docs/tax.md).
  const pricing = atDeliveryRate(rules.pricing, facts.charges);
  // A part's core deposit is the order's currency too: converted as the parts (never grossed).
  const depositOf = (p: { coreDepositCents?: number | null }) =>
    priceInMarket(p.coreDepositCents ?? 0, pricing.market);
  const priced = priceLines(
    pricing,
    found.map(({ line, product }) => ({
      ...line,
      listPriceCents: product.listPriceCents,
      publicBreaks: product.publicBreaks ?? [],
    })),
  ).map((l) => {
    const quoted = rules.quotedPrices?.get(l.productId);
    return quoted === undefined
      ? l
      : { ...l, unitPriceCents: quoted, lineTotalCents: quoted * l.qty };
  });
  if (priced.reduce((sum, l) => sum + l.lineTotalCents, 0) > MAX_CENTS) {
    throw unprocessable(ORDER_TOO_LARGE);
  }
  // The code after the price, before tax (docs/pricing.md "Discount codes").
  const off = decideDiscount(rules.discount, priced);
  const charges = requireShippable(
    computeCharges(
      priced.map((l, i) => ({
        lineTotalCents: l.lineTotalCents - off.perLine[i]!,
        weightGrams: (found[i]!.product.weightGrams ?? 0) * l.qty,
        coreDepositCents: depositOf(found[i]!.product) * l.qty,
      })),
      // Shipping rates in the order's market, as its parts (docs/pricing.md "Markets"), gross
      // with the VAT contained for a consumer whose prices include it.
      chargesFor(facts.charges ?? NO_CHARGES, pricing),
      rules.shippingMethodId,
      { lenient: false },
    ),
  );
  const totalCents = charges.totalCents;
  if (totalCents > MAX_CENTS) throw unprocessable(ORDER_TOO_LARGE);
  if (rules.expectedTotalCents !== undefined && rules.expectedTotalCents !== totalCents) {
    // The new figures go with the refusal (currency units, as on the wire), so the page can show
    // them at once.
    throw new HttpError(409, "total_changed", cartMessages.totalChanged, {
      subtotal: String(centsToUnits(charges.subtotalCents + off.totalCents)),
      ...(off.discount ? { discount: String(centsToUnits(off.totalCents)) } : {}),
      // Only when the order carries core deposits (docs/core-charges.md).
      ...(charges.coreDepositCents > 0
        ? { coreDeposits: String(centsToUnits(charges.coreDepositCents)) }
        : {}),
      shipping: String(centsToUnits(charges.shippingCents)),
      tax: String(centsToUnits(charges.taxCents)),
      total: String(centsToUnits(totalCents)),
    });
  }
  // Limits are set in the store's currency: the order's total is compared brought back to it,
  // and a limit is named in the order's currency as the market converts it.
  const storeCents = inStoreMinor(totalCents, rules.pricing.market);
  const approval = approvalNeeded(rules.pricing.member, storeCents, rules.pricing);
  if (standing.heldCents + storeCents > rules.limits.maxValueCents) {
    const max = marketMoney(rules.limits.maxValueCents, rules.pricing);
    throw new HttpError(422, "hold_limit", holdMessages.value(max));
  }
  return {
    lines: found.map(({ line, product }, i) => ({
      productId: line.productId,
      qty: line.qty,
      productName: product.name,
      partNumber: product.partNumber,
      unitPriceCents: priced[i]!.unitPriceCents,
      taxCents: charges.lineTax[i]!,
      coreDepositCents: depositOf(product),
      ...(backordered.get(line.productId) ? { backordered: backordered.get(line.productId) } : {}),
      ...(off.perLine[i] ? { discountCents: off.perLine[i] } : {}),
    })),
    charges: {
      shippingCents: charges.shippingCents,
      shippingMethod: charges.method?.method.name ?? null,
      taxCents: charges.taxCents,
      shippingTaxCents: charges.shippingTaxCents,
      coreDepositCents: charges.coreDepositCents,
      taxName: charges.taxName,
      taxRateMillipercent: charges.taxRateMillipercent,
      taxNote: charges.taxNote,
      buyerTaxId: charges.buyerTaxId,
      ...(charges.pricesIncludeTax ? { pricesIncludeTax: true } : {}),
      ...transitOf(charges.method?.method),
    },
    totalCents,
    ...(off.discount ? { discount: off.discount } : {}),
    approval,
    ...(found.some(({ line }) => line.qty < products.get(line.productId)!.minimumOrder)
      ? { belowTradeMinimum: true }
      : {}),
    ...([...backordered.values()].some((n) => n > 0) && rules.fulfilment === "complete"
      ? { shipComplete: true }
      : {}),
  };
}

/**
 * A company buyer's spending limits, per order and per calendar month (issue 23): an order over
 * either is not refused but placed awaiting an owner's approval (docs/approvals.md). The month
 * counts the member's orders placed this month that are not cancelled and not themselves
 * awaiting approval (`pricingFor`'s `spentThisMonthCents`).
 */
export function approvalNeeded(
  member: CompanyMember | undefined,
  /** In the store's currency, as the limits are. */
  totalCents: number,
  pricing: Pick<PricingContext, "currency" | "market">,
): ApprovalNeed | null {
  if (!member) return null;
  let need: ApprovalNeed | null = null;
  if (member.orderLimitCents !== null && totalCents > member.orderLimitCents) {
    need = { reason: "order_limit", limitCents: member.orderLimitCents };
  } else if (
    member.monthlyLimitCents !== null &&
    member.spentThisMonthCents + totalCents > member.monthlyLimitCents
  ) {
    need = { reason: "monthly_limit", limitCents: member.monthlyLimitCents };
  }
  // Nobody could approve it (owners do not decide their own orders): refused now, rather than
  // held until it expires.
  if (need && member.otherOwners === 0) {
    const limit = marketMoney(need.limitCents, pricing);
    throw new HttpError(
      422,
      "spending_limit",
      approvalMessages.noApprover(approvalMessages.reason(need.reason, limit)),
    );
  }
  return need;
}

/**
 * What new customers may still hold of a product: a share of its stock (on sale and held in
 * unpaid orders), less what their unpaid orders hold already. Sign-ups and mailboxes are free, so
 * fresh accounts together cannot take a product off sale, verified or not (issue 24's six-account
 * attack; issue 49's eight verified ones).
 */
export function newCustomerRoom(product: ProductFacts, share: number): number {
  const stock = product.available + (product.heldAll ?? 0);
  const room = Math.max(0, Math.floor(share * stock) - (product.heldByNew ?? 0));
  // While there is room at all, one minimum order fits (a part sold by the 50 stays buyable).
  return room > 0 ? Math.max(room, product.minimumOrder) : 0;
}

/** A cart line whose part was deleted since it was added refuses the checkout, naming it. */
export function refuseDeletedParts(wanted: WantedLine[], products: ReadonlyMap<string, unknown>) {
  const gone = wanted.filter((l) => !products.has(l.productId));
  if (gone.length === 0) return;
  throw new HttpError(
    422,
    "rule_broken",
    cartMessages.deleted,
    Object.fromEntries(gone.map((l) => [l.productId, cartMessages.deleted])),
  );
}

/** A quote is accepted only while all its parts are in stock: else 409, nothing written. */
export function refuseShortStock(
  wanted: WantedLine[],
  products: ReadonlyMap<string, { name: string; available: number }>,
) {
  for (const l of wanted) {
    const p = products.get(l.productId)!;
    if (l.qty > p.available) {
      const message = quoteMessages.stockShort(p.name, p.available);
      throw conflict(message, l.productId);
    }
  }
}

/** A method's transit days as the decided charges keep them (none: no transit days). */
function transitOf(
  method: { transitMinDays?: number | null; transitMaxDays?: number | null } | undefined,
): Pick<DecidedCharges, "transit"> {
  if (method?.transitMinDays == null || method.transitMaxDays == null) return {};
  return {
    transit: { transitMinDays: method.transitMinDays, transitMaxDays: method.transitMaxDays },
  };
}
