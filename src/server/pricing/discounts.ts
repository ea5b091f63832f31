import { dayWords } from "../../contract/calendar";
/**
 * A discount code's rule, as pure functions (docs/pricing.md "Discount codes"): which lines it
 * is for, how much it takes off each, and why a buyer may not use it. The lines come priced by
 * `priceLines` (the group's price first); the code comes after, and tax after the code (the
 * charges are computed on what is left of each line). Integer cents throughout.
 */
import {
  discountCodeMessages as msg,
  type DiscountKind,
  type DiscountScope,
} from "../../contract/discount-codes";
import { unprocessable } from "../errors";
import { formatCents } from "../money";
import { percentOff } from "./pricing";

/** What a code takes off and from which parts. */
export interface DiscountTerms {
  kind: DiscountKind;
  percent: number | null;
  amountCents: number | null;
  scope: DiscountScope;
  category: string | null;
  productId: string | null;
}

/** When and by whom a code may be used. */
export interface DiscountConditions {
  active: boolean;
  /** UTC days, both included; null: open. */
  startsOn: string | null;
  endsOn: string | null;
  minSubtotalCents: number;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  usedCount: number;
  customerGroupId: string | null;
}

/** A priced line the code may apply to. */
export interface DiscountableLine {
  productId: string;
  category: string | null;
  lineTotalCents: number;
}

export interface LineDiscounts {
  /** What the code takes off each line, in the lines' order (0 for lines it is not for). */
  perLine: number[];
  totalCents: number;
  /** The subtotal of the lines it is for. */
  eligibleCents: number;
}

const appliesTo = (terms: DiscountTerms, line: DiscountableLine) =>
  terms.scope === "all" ||
  (terms.scope === "category" && line.category === terms.category) ||
  (terms.scope === "part" && line.productId === terms.productId);

/**
 * What the code takes off each line. Percent off: each line it is for loses that share of its
 * total (the price left rounded half up, as group rules round). Amount off: at most the subtotal
 * of the lines it is for, shared among them in proportion to their totals (largest remainders
 * take the odd cents). No line goes below zero.
 */
export function discountLines(
  terms: DiscountTerms,
  lines: readonly DiscountableLine[],
): LineDiscounts {
  const eligible = lines.map((l) => appliesTo(terms, l) && l.lineTotalCents > 0);
  const eligibleCents = lines.reduce((sum, l, i) => sum + (eligible[i] ? l.lineTotalCents : 0), 0);
  let perLine: number[];
  if (terms.kind === "percent") {
    const percent = terms.percent ?? 0;
    perLine = lines.map((l, i) =>
      eligible[i] ? l.lineTotalCents - percentOff(l.lineTotalCents, percent) : 0,
    );
  } else {
    const cap = Math.min(terms.amountCents ?? 0, eligibleCents);
    perLine = lines.map((l, i) =>
      eligible[i] && eligibleCents > 0 ? Math.floor((cap * l.lineTotalCents) / eligibleCents) : 0,
    );
    let left = cap - perLine.reduce((a, b) => a + b, 0);
    // The odd cents to the lines whose share was cut most (a share below its line's total).
    const order = lines
      .map((l, i) => ({
        i,
        rest: eligible[i] && eligibleCents > 0 ? (cap * l.lineTotalCents) % eligibleCents : -1,
      }))
      .filter((r) => r.rest > 0)
      .sort((a, b) => b.rest - a.rest || a.i - b.i);
    for (const { i } of order) {
      if (left === 0) break;
      perLine[i]! += 1;
      left -= 1;
    }
  }
  return { perLine, totalCents: perLine.reduce((a, b) => a + b, 0), eligibleCents };
}

/** The buyer and their cart, as the refusal reads them. */
export interface DiscountBuyer {
  /** Today (UTC), `2027-01-31`. */
  today: string;
  /** Their customer group (null: a visitor, who cannot use codes anyway). */
  groupId: string | null;
  /** Their orders that used this code already. */
  usesByBuyer: number;
  /** The cart's subtotal before the code. */
  subtotalCents: number;
  currency: string;
}

/**
 * Why the buyer may not use the code now (the words they read), or null when they may: unknown,
 * switched off or ended; not started; not for their group; used up; used by them as often as
 * allowed; the minimum order not reached; nothing in the cart it is for.
 */
export function discountRefusal(
  code: DiscountConditions,
  buyer: DiscountBuyer,
  eligibleCents: number,
): string | null {
  if (!code.active || (code.endsOn !== null && code.endsOn < buyer.today)) {
    return msg.unknownOrEnded;
  }
  if (code.startsOn !== null && code.startsOn > buyer.today)
    return msg.notStarted(dayWords(code.startsOn));
  if (code.customerGroupId !== null && code.customerGroupId !== buyer.groupId) {
    return msg.notForGroup;
  }
  if (code.usageLimit !== null && code.usedCount >= code.usageLimit) return msg.usedUp;
  if (code.perCustomerLimit !== null && buyer.usesByBuyer >= code.perCustomerLimit) {
    return msg.usedByYou;
  }
  if (buyer.subtotalCents < code.minSubtotalCents) {
    return msg.minimum(formatCents(code.minSubtotalCents, buyer.currency));
  }
  if (eligibleCents === 0) return msg.nothingEligible;
  return null;
}

/** A code refused: 422 with the buyer's words, on the `discountCode` field. */
export const refused = (message: string) => unprocessable(message, "discountCode");

/** A checkout's code, as the placement read it in its transaction (`placementDiscount`). */
export interface DiscountOffer {
  code: DiscountTerms & DiscountConditions & { id: string; code: string };
  buyer: Omit<DiscountBuyer, "subtotalCents">;
  /** The category of each product of the order. */
  categories: ReadonlyMap<string, string>;
}

/** What the order's code takes off each line, and the order's discount (null: no code). */
export interface DecidedDiscount {
  perLine: number[];
  totalCents: number;
  discount: { codeId: string; code: string; totalCents: number } | null;
}

/**
 * The checkout's decision on its code, on the lines as priced for the order: what it takes off
 * each, or a 422 with why it cannot be used now (the cart said otherwise a moment ago: the code
 * ended, the last use went to another order, a line changed).
 */
export function decideDiscount(
  offer: DiscountOffer | undefined,
  priced: readonly { productId: string; lineTotalCents: number }[],
): DecidedDiscount {
  if (!offer) return { perLine: priced.map(() => 0), totalCents: 0, discount: null };
  const lines = priced.map((l) => ({ ...l, category: offer.categories.get(l.productId) ?? null }));
  const d = discountLines(offer.code, lines);
  const subtotalCents = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
  const refusal = discountRefusal(offer.code, { ...offer.buyer, subtotalCents }, d.eligibleCents);
  if (refusal) throw refused(refusal);
  return {
    perLine: d.perLine,
    totalCents: d.totalCents,
    discount: { codeId: offer.code.id, code: offer.code.code, totalCents: d.totalCents },
  };
}

/**
 * The share of an order line's discount (`order_items.discount_cents`) in its first `units`
 * units, rounded so that all of them add up to it: a refund of units `a` to `b` gives back
 * their price less `discountOfUnits(line, b) − discountOfUnits(line, a)`, what was paid for them.
 */
export const discountOfUnits = (line: { qty: number; discountCents: number }, units: number) =>
  line.qty === 0 ? 0 : Math.round((line.discountCents * units) / line.qty);
