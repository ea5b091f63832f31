import { plural, pluralCount } from "./count";
import { z } from "zod";
import { wholeNumber } from "./common";
import { productCategories } from "./constants";
import { text } from "./text";

// Typed attributes of parts, defined per category (docs/attributes.md): a brake disc's diameter
// in mm, a spark plug's thread, a wiper's connector. Product answers carry a part's values as
// `attributes: [{ name, value, unit }]`; All products filters by them (facets).

export const attributeKinds = ["number", "text", "choice"] as const;
export type AttributeKind = (typeof attributeKinds)[number];

export const MAX_ATTRIBUTE_NAME = 60;
export const MAX_ATTRIBUTE_UNIT = 12;
export const MAX_ATTRIBUTE_TEXT = 200;
export const MAX_ATTRIBUTE_CHOICES = 50;
/** One choice of a choice attribute, at most. */
export const MAX_ATTRIBUTE_CHOICE = 60;
/** The largest position (the order attributes are listed in). */
export const MAX_ATTRIBUTE_POSITION = 1000;
/** A category has at most this many attributes. */
export const MAX_ATTRIBUTES_PER_CATEGORY = 40;

export const attributeMessages = {
  name: `Name the attribute in 1 to ${MAX_ATTRIBUTE_NAME} characters`,
  unit: `A unit is 1 to ${MAX_ATTRIBUTE_UNIT} characters, and only numbers have one`,
  choices: `A choice attribute lists 1 to ${MAX_ATTRIBUTE_CHOICES} different choices`,
  taken: (name: string, category: string) => `${category} already has an attribute named ${name}`,
  tooMany: (category: string) =>
    `${category} has ${MAX_ATTRIBUTES_PER_CATEGORY} attributes, the most a category can have`,
  notANumber: (name: string) => `${name} is a number: enter digits, such as 280 or 11.5`,
  notAChoice: (name: string, choices: readonly string[]) =>
    `${name} is one of ${choices.join(", ")}`,
  text: (name: string) => `${name} is 1 to ${MAX_ATTRIBUTE_TEXT} characters`,
  unknown: (name: string, category: string) => `${category} parts have no attribute named ${name}`,
  choice: `A choice is 1 to ${MAX_ATTRIBUTE_CHOICE} characters`,
  position: `The position is a whole number from 0 to ${MAX_ATTRIBUTE_POSITION}`,
  category: "Choose a category",
  kind: "Choose a kind: number, text or choice",
  kindFixed: "An attribute's kind cannot change: remove it and add a new one",
  notFound: "Attribute not found",
  id: "Not an attribute id",
  choiceInUse: (choice: string, parts: number) =>
    `${plural(parts, "part uses", "parts use")} the choice ${choice}: give ${parts === 1 ? "it" : "them"} another value first`,
  otherCategory: (name: string, category: string) =>
    `${name} is not an attribute of ${category} parts`,
  oneValueEach: "Give each attribute at most one value",
  valueLength: `A value is at most ${MAX_ATTRIBUTE_TEXT} characters`,
  /** The remove dialog: its question, and what it says of the parts with a value. */
  removeTitle: (name: string) => `Remove the attribute ${name}?`,
  removeParts: (parts: number) =>
    parts === 0
      ? "No part has a value for it."
      : `${pluralCount(parts, "part loses its value", "parts lose their value")}.`,
  added: (name: string) => `Attribute ${name} added`,
  changed: (name: string) => `Attribute ${name} saved`,
  removed: (name: string) => `Attribute ${name} removed`,
  saved: "Attributes saved",
  csvFormat:
    "is not Name=Value; Name=Value (a ; or = inside a name or value is written \\; or \\=)",
  csvTwice: (name: string) => `${name} is named twice`,
} as const;

/** A value as a product answer carries it: `unit` only for numbers that have one. */
export const productAttributeSchema = z.object({
  name: z.string(),
  value: z.string(),
  unit: z.string().nullable(),
});
export type ProductAttribute = z.infer<typeof productAttributeSchema>;

export const attributeDefinitionSchema = z.object({
  id: z.uuid(),
  category: z.enum(productCategories),
  name: z.string(),
  kind: z.enum(attributeKinds),
  unit: z.string().nullable(),
  choices: z.array(z.string()),
  position: z.number().int(),
  filterable: z.boolean(),
});
export type AttributeDefinition = z.infer<typeof attributeDefinitionSchema>;

/** A number as written for people: no trailing zeros ("280", "11.5"), never exponent form. */
export function formatAttributeNumber(numeric: string): string {
  if (!numeric.includes(".")) return numeric;
  return numeric.replace(/\.?0+$/, "");
}

/** `?category=`: one category's definitions; all of them without it. */
export const attributeListQuerySchema = z.object({
  category: z.enum(productCategories, { error: attributeMessages.category }).optional(),
});
export type AttributeListQuery = z.infer<typeof attributeListQuerySchema>;

/** What the admin's table shows: a definition and how many parts have a value for it. */
export const adminAttributeDefinitionSchema = attributeDefinitionSchema.extend({
  usedBy: z.number().int(),
});
export type AdminAttributeDefinition = z.infer<typeof adminAttributeDefinitionSchema>;

export const attributeParamsSchema = z.object({
  id: z.uuid({ error: attributeMessages.id }),
});

const attributeName = text({ error: attributeMessages.name })
  .trim()
  .min(1, attributeMessages.name)
  .max(MAX_ATTRIBUTE_NAME, attributeMessages.name);
const attributeUnit = text({ error: attributeMessages.unit })
  .trim()
  .min(1, attributeMessages.unit)
  .max(MAX_ATTRIBUTE_UNIT, attributeMessages.unit);
const attributeChoices = z
  .array(
    text({ error: attributeMessages.choice })
      .trim()
      .min(1, attributeMessages.choice)
      .max(MAX_ATTRIBUTE_CHOICE, attributeMessages.choice),
    { error: attributeMessages.choices },
  )
  .min(1, attributeMessages.choices)
  .max(MAX_ATTRIBUTE_CHOICES, attributeMessages.choices)
  .refine(
    (list) => new Set(list.map((c) => c.toLowerCase())).size === list.length,
    attributeMessages.choices,
  );
const attributePosition = wholeNumber(attributeMessages.position, 0, MAX_ATTRIBUTE_POSITION);

/** A new definition: a unit only for numbers, choices only (and always) for choices. */
export const attributeCreateSchema = z
  .strictObject({
    category: z.enum(productCategories, { error: attributeMessages.category }),
    name: attributeName,
    kind: z.enum(attributeKinds, { error: attributeMessages.kind }),
    unit: attributeUnit.nullable().optional(),
    choices: attributeChoices.optional(),
    filterable: z.boolean().optional(),
  })
  .superRefine((d, ctx) => {
    if (d.unit != null && d.kind !== "number") {
      ctx.addIssue({ code: "custom", path: ["unit"], message: attributeMessages.unit });
    }
    if (d.kind === "choice" && !d.choices) {
      ctx.addIssue({ code: "custom", path: ["choices"], message: attributeMessages.choices });
    }
    if (d.kind !== "choice" && d.choices && d.choices.length > 0) {
      ctx.addIssue({ code: "custom", path: ["choices"], message: attributeMessages.choices });
    }
  });
export type AttributeCreate = z.infer<typeof attributeCreateSchema>;

/** A change: any of these; the kind and the category stay. */
export const attributeChangeSchema = z
  .strictObject({
    name: attributeName.optional(),
    unit: attributeUnit.nullable().optional(),
    choices: attributeChoices.optional(),
    position: attributePosition.optional(),
    filterable: z.boolean().optional(),
    kind: z.undefined({ error: attributeMessages.kindFixed }).optional(),
  })
  .refine((c) => Object.values(c).some((v) => v !== undefined), "Change at least one field");
export type AttributeChange = z.infer<typeof attributeChangeSchema>;

/** `PUT /api/products/:id/attributes`: the product's values, all of them (the rest are cleared). */
export const productAttributeValuesSchema = z.strictObject({
  values: z
    .array(
      z.strictObject({
        attributeId: z.uuid({ error: attributeMessages.id }),
        /** Blank: no value. */
        value: text().max(MAX_ATTRIBUTE_TEXT, attributeMessages.valueLength),
      }),
    )
    .max(MAX_ATTRIBUTES_PER_CATEGORY, attributeMessages.oneValueEach)
    .refine(
      (list) => new Set(list.map((v) => v.attributeId)).size === list.length,
      attributeMessages.oneValueEach,
    ),
});
export type ProductAttributeValues = z.infer<typeof productAttributeValuesSchema>;
export const productAttributesAnswerSchema = z.object({
  attributes: z.array(productAttributeSchema),
});
