import { z } from "zod";
import { productCategories } from "./constants";

// Typed attributes of parts, defined per category (docs/attributes.md): a brake disc's diameter
// in mm, a spark plug's thread, a wiper's connector. Product answers carry a part's values as
// `attributes: [{ name, value, unit }]`; All products filters by them (facets).

export const attributeKinds = ["number", "text", "choice"] as const;
export type AttributeKind = (typeof attributeKinds)[number];

export const MAX_ATTRIBUTE_NAME = 60;
export const MAX_ATTRIBUTE_UNIT = 12;
export const MAX_ATTRIBUTE_TEXT = 200;
export const MAX_ATTRIBUTE_CHOICES = 50;
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
