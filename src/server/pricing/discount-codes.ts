import { dayWords } from "../../contract/calendar";
import { and, asc, eq, ilike, inArray } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  discountCodeInputSchema,
  discountCodeMessages as msg,
  discountWords,
  type DiscountCode,
  type DiscountCodeInput,
} from "../../contract/discount-codes";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { containsPattern } from "../db/like";
import { pageOf } from "../db/page";
import { isUniqueViolation, transactionAnswering } from "../db/postgres-errors";
import { conflict, fieldError, notFound } from "../errors";
import { products } from "../catalog/tables";
import { centsToUnits, formatCents, unitsToCents } from "../money";
import { systemClock, type Clock } from "../clock";
import {
  discountLines,
  discountRefusal,
  refused,
  type DiscountOffer,
  type DiscountableLine,
  type DiscountConditions,
  type DiscountTerms,
  type LineDiscounts,
} from "./discounts";
import { partIdOf, requireCustomerGroup } from "./groups";
import { codeInMarket } from "./market-money";
import type { PricingMarket } from "./pricing";
import { cartDiscountCodes, customerGroups, discountCodes, discountRedemptions } from "./tables";

/** A code as the rules read it. */
export interface CodeRow extends DiscountTerms, DiscountConditions {
  id: string;
  code: string;
  partNumber: string | null;
}

const codeColumns = {
  id: discountCodes.id,
  code: discountCodes.code,
  kind: discountCodes.kind,
  percent: discountCodes.percent,
  amountCents: discountCodes.amountCents,
  scope: discountCodes.scope,
  category: discountCodes.category,
  productId: discountCodes.productId,
  partNumber: products.partNumber,
  minSubtotalCents: discountCodes.minSubtotalCents,
  startsOn: discountCodes.startsOn,
  endsOn: discountCodes.endsOn,
  usageLimit: discountCodes.usageLimit,
  perCustomerLimit: discountCodes.perCustomerLimit,
  usedCount: discountCodes.usedCount,
  customerGroupId: discountCodes.customerGroupId,
  active: discountCodes.active,
};

const selectCodes = (tx: DbOrTx) =>
  tx
    .select({ ...codeColumns, customerGroupName: customerGroups.name })
    .from(discountCodes)
    .leftJoin(products, eq(products.id, discountCodes.productId))
    .leftJoin(customerGroups, eq(customerGroups.id, discountCodes.customerGroupId));

/** A code by what a buyer typed (any case); undefined: no such code. */
export async function codeByText(tx: DbOrTx, text: string): Promise<CodeRow | undefined> {
  const [row] = await selectCodes(tx).where(
    eq(sql`lower(${discountCodes.code})`, text.trim().toLowerCase()),
  );
  return row;
}

/** A code by what a buyer typed; 422 "This code is unknown or has ended" when there is none. */
export async function knownCode(tx: DbOrTx, text: string): Promise<CodeRow> {
  const code = await codeByText(tx, text);
  if (!code) throw refused(msg.unknownOrEnded);
  return code;
}

/** "10 % off brakes", "$5.00 off everything". */
export const codeWords = (c: CodeRow, currency: string) =>
  discountWords(c, formatCents(c.amountCents ?? 0, currency));

const today = (now: Clock) => now().toISOString().slice(0, 10);

/** How many orders of this buyer used the code. */
async function usesBy(tx: DbOrTx, codeId: string, userId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(discountRedemptions)
    .where(and(eq(discountRedemptions.codeId, codeId), eq(discountRedemptions.userId, userId)));
  return row?.n ?? 0;
}

/** A code applied to priced lines: what it takes off each, or why the buyer may not use it. */
export interface AppliedDiscount {
  code: CodeRow;
  words: string;
  lines: LineDiscounts;
  /** Null: it applies. */
  refusal: string | null;
}

/**
 * The code (found by `codeByText` or applied to the cart) against the buyer's priced lines, as
 * the cart's quote and the checkout both read it.
 */
export async function applyCode(
  tx: DbOrTx,
  code: CodeRow,
  buyer: { userId: string; groupId: string | null; currency: string; now?: Clock },
  lines: readonly DiscountableLine[],
): Promise<AppliedDiscount> {
  const computed = discountLines(code, lines);
  const subtotalCents = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
  const refusal = discountRefusal(
    code,
    {
      today: today(buyer.now ?? systemClock),
      groupId: buyer.groupId,
      usesByBuyer: code.perCustomerLimit === null ? 0 : await usesBy(tx, code.id, buyer.userId),
      subtotalCents,
      currency: buyer.currency,
    },
    computed.eligibleCents,
  );
  return { code, words: codeWords(code, buyer.currency), lines: computed, refusal };
}

/** The code a customer applied to their cart, if any (and if it still exists). */
export async function cartCodeOf(tx: DbOrTx, userId: string): Promise<CodeRow | undefined> {
  const [row] = await selectCodes(tx)
    .innerJoin(cartDiscountCodes, eq(cartDiscountCodes.codeId, discountCodes.id))
    .where(eq(cartDiscountCodes.userId, userId));
  return row;
}

/** Applies a code to the customer's cart (replacing the one before). */
export async function setCartCode(tx: DbOrTx, userId: string, codeId: string): Promise<void> {
  await tx
    .insert(cartDiscountCodes)
    .values({ userId, codeId })
    .onConflictDoUpdate({
      target: cartDiscountCodes.userId,
      set: { codeId, appliedAt: sql`now()` },
    });
}

/** Takes the code off the customer's cart (removing it, or when the cart is checked out). */
export async function clearCartCode(tx: DbOrTx, userId: string): Promise<void> {
  await tx.delete(cartDiscountCodes).where(eq(cartDiscountCodes.userId, userId));
}

/**
 * An order's use of a code, in the order's transaction: one statement raises the count only
 * while it is below the limit (concurrent orders racing for the last use wait on the code's row:
 * one gets it, the others are told it is used up); then, holding that row, the buyer's own uses
 * are counted (a statement sees what committed before it: their other order's use included), and
 * the use is recorded. Throws 422 with the words when it cannot be used.
 */
export async function redeemCode(
  tx: DbOrTx,
  discount: { codeId: string; totalCents: number },
  userId: string,
  orderId: string,
): Promise<void> {
  const use = { codeId: discount.codeId, userId, orderId, discountCents: discount.totalCents };
  const raised = await tx.execute<{ code: string; per_customer_limit: number | null }>(sql`
    update discount_codes set used_count = used_count + 1
     where id = ${use.codeId} and active
       and (usage_limit is null or used_count < usage_limit)
    returning code, per_customer_limit`);
  const row = raised.rows[0];
  if (!row) throw refused(msg.usedUp);
  if (row.per_customer_limit !== null) {
    if ((await usesBy(tx, use.codeId, use.userId)) >= row.per_customer_limit) {
      throw refused(msg.usedByYou);
    }
  }
  await tx.insert(discountRedemptions).values({
    orderId: use.orderId,
    codeId: use.codeId,
    code: row.code,
    userId: use.userId,
    discountCents: use.discountCents,
  });
}

export { refused };

/**
 * The admin's discount codes (docs/pricing.md "Discount codes"): listed, created, edited,
 * switched off (a used code keeps its history: it is never removed). Each change is in the audit
 * log, in its own transaction.
 */
export function createDiscountCodeService(db: Db, opts: { currency: string }) {
  const toWire = (r: CodeRow & { customerGroupName: string | null }): DiscountCode => ({
    id: r.id,
    code: r.code,
    kind: r.kind,
    percent: r.percent,
    amount: r.amountCents === null ? null : centsToUnits(r.amountCents),
    scope: r.scope,
    category: r.category,
    productId: r.productId,
    partNumber: r.partNumber,
    minSubtotal: centsToUnits(r.minSubtotalCents),
    startsOn: r.startsOn,
    endsOn: r.endsOn,
    usageLimit: r.usageLimit,
    perCustomerLimit: r.perCustomerLimit,
    customerGroupId: r.customerGroupId,
    customerGroupName: r.customerGroupName,
    active: r.active,
    used: r.usedCount,
    words: codeWords(r, opts.currency),
  });

  async function one(tx: DbOrTx, id: string): Promise<DiscountCode> {
    const [row] = await selectCodes(tx).where(eq(discountCodes.id, id));
    if (!row) throw notFound(msg.notFound);
    return toWire(row);
  }

  /** The row's columns from the form: the part by its part number, the group checked. */
  async function columns(tx: DbOrTx, input: DiscountCodeInput) {
    const v = discountCodeInputSchema.parse(input);
    const productId =
      v.scope === "part" ? await partIdOf(tx, v.partNumber!, msg.unknownPart) : null;
    // The group's 400 says msg.unknownGroup's words ("Customer group not found").
    await requireCustomerGroup(tx, v.customerGroupId ?? undefined);
    return {
      code: v.code,
      kind: v.kind,
      percent: v.kind === "percent" ? v.percent! : null,
      amountCents: v.kind === "amount" ? unitsToCents(v.amount!) : null,
      scope: v.scope,
      category: v.scope === "category" ? v.category! : null,
      productId,
      minSubtotalCents: unitsToCents(v.minSubtotal),
      startsOn: v.startsOn ?? null,
      endsOn: v.endsOn ?? null,
      usageLimit: v.usageLimit ?? null,
      perCustomerLimit: v.perCustomerLimit ?? null,
      customerGroupId: v.customerGroupId ?? null,
      active: v.active,
    };
  }

  const taken = (err: unknown) =>
    isUniqueViolation(err, "discount_codes_code_unique") ? conflict(msg.codeTaken) : undefined;
  const summary = (c: DiscountCode) =>
    `${c.code}: ${c.words}${c.active ? "" : " (off)"}${c.startsOn ? ` from ${dayWords(c.startsOn)}` : ""}${c.endsOn ? ` to ${dayWords(c.endsOn)}` : ""}`;

  return {
    async list(q: { limit: number; offset: number; q?: string }) {
      const where = q.q ? ilike(discountCodes.code, containsPattern(q.q)) : undefined;
      const { rows, total } = await pageOf(
        db,
        selectCodes(db)
          .where(where)
          .orderBy(asc(sql`lower(${discountCodes.code})`), asc(discountCodes.id)),
        discountCodes,
        where,
        q,
      );
      return { items: rows.map(toWire), total };
    },

    get: (id: string) => one(db, id),

    async create(actor: AuditActor, input: DiscountCodeInput): Promise<DiscountCode> {
      return transactionAnswering(db, taken, async (tx) => {
        const [row] = await tx
          .insert(discountCodes)
          .values(await columns(tx, input))
          .returning({ id: discountCodes.id });
        const saved = await one(tx, row!.id);
        await recordAdminAction(tx, {
          actor,
          action: "discount-code.create",
          target: { type: "discount-code", id: saved.id },
          summary: `Created discount code ${summary(saved)}`,
        });
        return saved;
      });
    },

    /** The code replaced by what the same form gives; its uses so far stay counted. */
    async update(actor: AuditActor, id: string, input: DiscountCodeInput): Promise<DiscountCode> {
      return transactionAnswering(db, taken, async (tx) => {
        const before = await one(tx, id);
        const values = await columns(tx, input);
        if (values.usageLimit !== null && values.usageLimit < before.used) {
          const message = `It has been used ${before.used} times already: the limit cannot be lower`;
          throw fieldError("usageLimit", message);
        }
        await tx.update(discountCodes).set(values).where(eq(discountCodes.id, id));
        const after = await one(tx, id);
        await recordAdminAction(tx, {
          actor,
          action: "discount-code.update",
          target: { type: "discount-code", id },
          summary: `Changed discount code ${summary(before)} → ${summary(after)}`,
        });
        return after;
      });
    },

    /** Switched off: buyers are told it has ended; carts lose it; its history stays. */
    async deactivate(actor: AuditActor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const code = await one(tx, id);
        await tx.update(discountCodes).set({ active: false }).where(eq(discountCodes.id, id));
        await tx.delete(cartDiscountCodes).where(eq(cartDiscountCodes.codeId, id));
        await recordAdminAction(tx, {
          actor,
          action: "discount-code.deactivate",
          target: { type: "discount-code", id },
          summary: `Switched off discount code ${code.code}`,
        });
      });
    },
  };
}

export type DiscountCodeService = ReturnType<typeof createDiscountCodeService>;

/** A cart's discount: what it takes off each priced line, its line on the cart, or why not. */
export interface CartDiscountAnswer {
  perLine: number[];
  totalCents: number;
  discount: { code: string; amount: number; appliesTo: string } | null;
  problem: string | null;
}

/**
 * The cart's code against its priced lines (the quote and the cart page): a code the buyer may
 * use gives its line; one they may no longer use (the minimum not reached after a line was
 * removed, the code ended) stays applied and says why, taking nothing off.
 */
export async function cartDiscountFor(
  tx: DbOrTx,
  code: CodeRow | undefined,
  userId: string | undefined,
  pricing: { currency: string; group?: { id?: string }; market?: PricingMarket },
  priced: readonly { productId: string; cents: number }[],
  productOf: (id: string) => { category: string | null } | undefined,
): Promise<CartDiscountAnswer> {
  const lines = priced.map((l) => ({
    productId: l.productId,
    category: productOf(l.productId)?.category ?? null,
    lineTotalCents: l.cents,
  }));
  const none = { perLine: lines.map(() => 0), totalCents: 0, discount: null, problem: null };
  if (!code || !userId) return none;
  const buyer = { userId, groupId: pricing.group?.id ?? null, currency: pricing.currency };
  // Its amount and minimum in the cart's market, as the parts are (`market-money.ts`).
  const applied = await applyCode(tx, codeInMarket(code, pricing.market), buyer, lines);
  if (applied.refusal) return { ...none, problem: applied.refusal };
  return {
    perLine: applied.lines.perLine,
    totalCents: applied.lines.totalCents,
    discount: {
      code: code.code,
      amount: centsToUnits(applied.lines.totalCents),
      appliesTo: applied.words,
    },
    problem: null,
  };
}

/**
 * What the checkout decides its code on (`decideDiscount`), read in the order's transaction: the
 * code by what the buyer saw (422 when it is unknown), the buyer's uses of it, and the category
 * of each of the order's products.
 */
export async function placementDiscount(
  tx: DbOrTx,
  text: string,
  userId: string,
  facts: {
    pricing: { currency: string; group?: { id?: string }; market?: PricingMarket };
    wanted: readonly { productId: string }[];
  },
  now: Clock = systemClock,
): Promise<DiscountOffer> {
  const productIds = facts.wanted.map((w) => w.productId);
  const buyer = { userId, groupId: facts.pricing.group?.id ?? null };
  const code = await knownCode(tx, text);
  const [uses, rows] = await Promise.all([
    code.perCustomerLimit === null ? 0 : usesBy(tx, code.id, buyer.userId),
    tx
      .select({ id: products.id, category: products.category })
      .from(products)
      .where(inArray(products.id, productIds)),
  ]);
  return {
    code: codeInMarket(code, facts.pricing.market),
    buyer: {
      today: today(now),
      groupId: buyer.groupId,
      usesByBuyer: uses,
      currency: facts.pricing.currency,
    },
    categories: new Map(rows.map((r) => [r.id, r.category])),
  };
}
