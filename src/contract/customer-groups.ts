import { z } from "zod";
import {
  dateRangeAnswerFields,
  dateRangeFields,
  DATES_ORDER_MESSAGE,
  nestedIdParams,
  refineDateRange,
  wholeNumber,
} from "./common";
import { productCategories } from "./constants";
import { requiredName, shortText } from "./text";

/**
 * Customer groups and their price rules (docs/pricing.md "Customer groups and price rules"):
 * every company belongs to a group; a customer without a company is in their own (retail unless an
 * admin chooses another on Manage users), visitors are retail. A
 * group's rule takes a percentage off the list price of a category, a brand or one part, between
 * optional dates. Percentages are whole numbers; money stays in the pricing module's cents.
 */

/** The seeded groups' fixed ids (migration 0079): retail is everyone without a company. */
export const RETAIL_GROUP_ID = "00000000-0000-4000-8000-000000000001";
/** A new company's group unless an admin chooses another. */
export const GARAGE_GROUP_ID = "00000000-0000-4000-8000-000000000002";

export const priceRuleScopes = ["category", "brand", "part"] as const;
export type PriceRuleScope = (typeof priceRuleScopes)[number];

export const customerGroupMessages = {
  nameTaken: "A customer group with this name exists already",
  notFound: "Customer group not found",
  retailKept: "The retail group is everyone without a company: it cannot be removed",
  retailNoRules:
    "Retail prices are the list prices and public quantity breaks: price rules are for the other groups",
  inUse: "Companies belong to this group: move them to another group first",
  customersInUse:
    "Customers belong to this group: move them to another group on Manage users first",
  ruleNotFound: "Price rule not found",
  unknownPart: "No part has this part number",
  category: "Choose a category",
  brand: "Brand is Required",
  partNumber: "Part number is Required",
  datesOrder: DATES_ORDER_MESSAGE,
  percent: "A percentage is a whole number from 1 to 100",
  /** A trade buyer's quantity that is not a multiple of the part's pack size. */
  packs: (packSize: number) => `Order this part in packs of ${packSize}`,
} as const;

const groupName = requiredName(60);

export const customerGroupCreateSchema = z.strictObject({
  name: groupName,
  /** Whether its buyers keep each part's minimum order (false: they may buy one). */
  tradeMinimums: z.boolean().default(true),
});
export type CustomerGroupCreate = z.input<typeof customerGroupCreateSchema>;

export const customerGroupUpdateSchema = z
  .strictObject({ name: groupName.optional(), tradeMinimums: z.boolean().optional() })
  .refine((v) => Object.keys(v).length > 0, { message: "Nothing to change" });
export type CustomerGroupUpdate = z.input<typeof customerGroupUpdateSchema>;

export const customerGroupSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  tradeMinimums: z.boolean(),
  /** The retail group: everyone without a company (cannot be removed). */
  retail: z.boolean(),
  companyCount: z.number(),
  /** Customers placed in it on Manage users (their own group, counted while in no company too). */
  customerCount: z.number(),
  ruleCount: z.number(),
});
export type CustomerGroup = z.infer<typeof customerGroupSchema>;

export const priceRuleInputSchema = z
  .strictObject({
    percent: wholeNumber(customerGroupMessages.percent, 1, 100),
    scope: z.enum(priceRuleScopes, { error: "Choose category, brand or part" }),
    category: z.enum(productCategories, { error: customerGroupMessages.category }).optional(),
    brand: shortText(80).optional(),
    partNumber: shortText(60).optional(),
    ...dateRangeFields,
  })
  .superRefine((v, ctx) => {
    const need = { category: "category", brand: "brand", part: "partNumber" } as const;
    const field = need[v.scope];
    if (!v[field])
      ctx.addIssue({ code: "custom", path: [field], message: customerGroupMessages[field] });
    refineDateRange(v, ctx);
  });
export type PriceRuleInput = z.input<typeof priceRuleInputSchema>;

export const priceRuleSchema = z.object({
  id: z.uuid(),
  groupId: z.uuid(),
  percent: z.number(),
  scope: z.enum(priceRuleScopes),
  category: z.string().nullable(),
  brand: z.string().nullable(),
  productId: z.uuid().nullable(),
  partNumber: z.string().nullable(),
  ...dateRangeAnswerFields,
  /** What the buyer reads: "20 % off brakes". */
  words: z.string(),
});
export type PriceRule = z.infer<typeof priceRuleSchema>;

export const priceRuleParamsSchema = nestedIdParams("ruleId");

/** A rule's words: "20 % off brakes", "15 % off Bosch", "10 % off this part". */
export function priceRuleWords(rule: {
  percent: number;
  scope: PriceRuleScope;
  category?: string | null;
  brand?: string | null;
}): string {
  const target =
    rule.scope === "category"
      ? (rule.category ?? "").toLowerCase()
      : rule.scope === "brand"
        ? (rule.brand ?? "")
        : "this part";
  return `${rule.percent} % off ${target}`;
}

/** What a buyer is told beside a price a rule gave: "Garage price: 20 % off brakes". */
export const groupPriceNote = (groupName: string, words: string) => `${groupName} price: ${words}`;
