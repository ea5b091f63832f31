import { z } from "zod";
import {
  dateRangeAnswerFields,
  dateRangeFields,
  DATES_ORDER_MESSAGE,
  pagingQuery,
  refineDateRange,
  wholeNumber,
} from "./common";
import { productCategories } from "./constants";
import { moneySchema } from "./pricing";
import { shortText, text } from "./text";

/**
 * Discount codes (docs/pricing.md "Discount codes"): a code a buyer types in the cart takes a
 * percentage or an amount off the parts it is for (all, a category or one part), after the
 * group's price; tax is computed on what is left. Money on the wire in currency units, stored in
 * integer cents by the pricing module.
 */

export const discountKinds = ["percent", "amount"] as const;
export type DiscountKind = (typeof discountKinds)[number];
export const discountScopes = ["all", "category", "part"] as const;
export type DiscountScope = (typeof discountScopes)[number];

/** Codes are letters, digits, dashes and underscores; compared without case. */
export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9_-]+$/;

export const discountCodeMessages = {
  code: "A code is 3 to 30 letters, digits, dashes or underscores",
  codeTaken: "A discount code with this code exists already",
  notFound: "Discount code not found",
  kind: "Choose percent or amount",
  percent: "A percentage is a whole number from 1 to 100",
  amount: "Enter the amount off",
  percentOrAmount: "Give a percentage for percent off, an amount for amount off",
  scope: "Choose all parts, a category or a part",
  category: "Choose a category",
  partNumber: "Part number is Required",
  unknownPart: "No part has this part number",
  unknownGroup: "Customer group not found",
  datesOrder: DATES_ORDER_MESSAGE,
  limit: "A limit is a whole number from 1 to 1,000,000",
  // What a buyer is told when a code is refused.
  unknownOrEnded: "This code is unknown or has ended",
  notStarted: (startsOn: string) => `This code starts on ${startsOn}`,
  minimum: (amount: string) => `Spend ${amount} or more to use this code`,
  usedUp: "This code has been used up",
  usedByYou: "You have already used this code",
  notForGroup: "This code is not for your customer group",
  nothingEligible: "This code is not for any part in your cart",
  signIn: "Sign in to use a discount code",
  /** At checkout: the code applied in the cart can no longer be used (its reason follows). */
  changed: "Your discount code can no longer be used",
} as const;

const limitSchema = wholeNumber(discountCodeMessages.limit, 1, 1_000_000).nullable().optional();

export const discountCodeValueSchema = text({ error: discountCodeMessages.code })
  .trim()
  .min(3, discountCodeMessages.code)
  .max(30, discountCodeMessages.code)
  .regex(DISCOUNT_CODE_PATTERN, discountCodeMessages.code);

/** A code as an admin writes it (created, or replaced whole when edited). */
export const discountCodeInputSchema = z
  .strictObject({
    code: discountCodeValueSchema,
    kind: z.enum(discountKinds, { error: discountCodeMessages.kind }),
    percent: wholeNumber(discountCodeMessages.percent, 1, 100).nullable().optional(),
    /** Amount off in currency units (12.5 = $12.50). */
    amount: moneySchema("Amount off").nullable().optional(),
    scope: z.enum(discountScopes, { error: discountCodeMessages.scope }).default("all"),
    category: z.enum(productCategories, { error: discountCodeMessages.category }).optional(),
    partNumber: shortText(60).optional(),
    /** The smallest order subtotal (before the discount) the code is for; 0: any. */
    minSubtotal: moneySchema("Minimum order").default(0),
    ...dateRangeFields,
    /** How many orders may use it in all (null: no limit). */
    usageLimit: limitSchema,
    /** How many orders each customer may use it on (null: no limit). */
    perCustomerLimit: limitSchema,
    /** Only this customer group's buyers may use it (null: everyone). */
    customerGroupId: z.uuid({ message: discountCodeMessages.unknownGroup }).nullable().optional(),
    active: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: "custom", path: [path], message });
    if (v.kind === "percent" && !v.percent) issue("percent", discountCodeMessages.percent);
    if (v.kind === "amount" && !v.amount) issue("amount", discountCodeMessages.amount);
    if (v.scope === "category" && !v.category) issue("category", discountCodeMessages.category);
    if (v.scope === "part" && !v.partNumber) issue("partNumber", discountCodeMessages.partNumber);
    refineDateRange(v, ctx);
  });
export type DiscountCodeInput = z.input<typeof discountCodeInputSchema>;

export const discountCodeSchema = z.object({
  id: z.uuid(),
  /** As the admin wrote it; buyers may type it in any case. */
  code: z.string(),
  kind: z.enum(discountKinds),
  percent: z.number().nullable(),
  amount: z.number().nullable(),
  scope: z.enum(discountScopes),
  category: z.string().nullable(),
  productId: z.uuid().nullable(),
  partNumber: z.string().nullable(),
  minSubtotal: z.number(),
  ...dateRangeAnswerFields,
  usageLimit: z.number().nullable(),
  perCustomerLimit: z.number().nullable(),
  customerGroupId: z.uuid().nullable(),
  customerGroupName: z.string().nullable(),
  active: z.boolean(),
  /** Orders that used it. */
  used: z.number(),
  /** What a buyer reads: "10 % off brakes", "$5.00 off PW-BK-3001". */
  words: z.string(),
});
export type DiscountCode = z.infer<typeof discountCodeSchema>;

export const discountCodeListQuerySchema = pagingQuery(50, { maxOffset: 100_000 }).extend({
  q: text().trim().max(30, "Search is at most 30 characters").optional(),
});

/** What a buyer sends to apply a code to their cart. */
export const applyDiscountCodeSchema = z.strictObject({
  code: text({ error: discountCodeMessages.unknownOrEnded })
    .trim()
    .min(1, "Enter a code")
    .max(30, discountCodeMessages.unknownOrEnded),
});

/**
 * The code a buyer sends with an order or a checkout, as the cart applied it: decided on the
 * order's lines and used once in its transaction, refused with 422 and why. Empty or absent: none.
 */
export const orderDiscountCodeSchema = text().trim().max(30).optional();

/** A discount code's line on an order or its total: the code and what it took off. */
export const discountLineSchema = z.object({ code: z.string(), amount: z.number() });

/**
 * The cart's discount line: the code, how much it takes off, what it applies to ("10 % off
 * brakes"). Null on the cart when no code is applied; a code that no longer applies is said in
 * `discountProblem` instead.
 */
export const cartDiscountSchema = discountLineSchema.extend({ appliesTo: z.string() });
export type CartDiscount = z.infer<typeof cartDiscountSchema>;

/** "Discount (SPRING10)": the line's label, the same in the cart, at checkout, on the order. */
export const discountLineLabel = (code: string) => `Discount (${code})`;

/** A code's words: "10 % off everything", "$5.00 off brakes", "10 % off PW-BK-3001". */
export function discountWords(
  c: {
    kind: DiscountKind;
    percent: number | null;
    scope: DiscountScope;
    category: string | null;
    partNumber: string | null;
  },
  amountText: string,
): string {
  const off = c.kind === "percent" ? `${c.percent} % off` : `${amountText} off`;
  if (c.scope === "category") return `${off} ${(c.category ?? "").toLowerCase()}`;
  if (c.scope === "part") return `${off} ${c.partNumber ?? "a removed part"}`;
  return `${off} everything`;
}
