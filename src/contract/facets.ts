import { z } from "zod";
import { MAX_ATTRIBUTE_TEXT, attributeKinds } from "./attributes";
import { attributeFilterParam, MAX_ATTRIBUTE_FILTERS, splitAttributeFilter } from "./facet-params";
import { text } from "./text";

// Filters by attribute values on All products, with counts (docs/attributes.md, "Facets"). A
// filter is `attr=<attribute id>:<value>`, repeated: several values of one attribute mean any of
// them, different attributes all apply. The value is written as a facet shows it (a number as
// `formatAttributeNumber` gives it, a text or choice as it is). The parameter's helpers, without
// zod, are in facet-params.ts.

export * from "./facet-params";

/** A facet lists at most this many values (the chosen ones, then the most common). */
export const MAX_FACET_VALUES = 50;

export const facetMessages = {
  malformed: "Filter by an attribute as attr=<attribute id>:<value>",
  tooMany: `Filter by at most ${MAX_ATTRIBUTE_FILTERS} attribute values at once`,
  unknown: "We do not know one of these attributes: choose the filters again",
  otherCategory: (name: string, category: string) =>
    `${name} is not an attribute of ${category} parts: choose the filters again`,
} as const;

/** One `attr` parameter split, or undefined when it is not one (a value of 1–200 characters). */
export function parseAttributeFilter(
  param: string,
): { attributeId: string; value: string } | undefined {
  const f = splitAttributeFilter(param);
  return f && f.value.length <= MAX_ATTRIBUTE_TEXT ? f : undefined;
}

/**
 * `attr`, once or repeated, as a list: each one well-formed, at most MAX_ATTRIBUTE_FILTERS,
 * written the one way (id in lower case, value trimmed), each once and sorted, so the same
 * filters are the same query (and the same cache key) in any order.
 */
export const attributeFiltersSchema = z
  .preprocess(
    (v) => (typeof v === "string" ? [v] : v),
    z
      .array(text().refine((s) => parseAttributeFilter(s) !== undefined, facetMessages.malformed))
      .max(MAX_ATTRIBUTE_FILTERS, facetMessages.tooMany),
  )
  .transform((list) =>
    [
      ...new Set(
        list.map((s) => {
          const f = parseAttributeFilter(s)!;
          return attributeFilterParam(f.attributeId, f.value);
        }),
      ),
    ].sort(),
  )
  .optional();

/** One value of a facet and how many products have it (with every other filter applied). */
export const facetValueSchema = z.object({
  /** As the filter takes it: a number as `formatAttributeNumber` writes it, or the text. */
  value: z.string(),
  count: z.number().int(),
});

export const facetSchema = z.object({
  attributeId: z.uuid(),
  name: z.string(),
  kind: z.enum(attributeKinds),
  unit: z.string().nullable(),
  /**
   * Numbers ascending, choices in the definition's order, texts alphabetically; at most
   * MAX_FACET_VALUES. A chosen value is listed even when nothing has it now (count 0).
   */
  values: z.array(facetValueSchema),
});
export type Facet = z.infer<typeof facetSchema>;

/** `GET /api/products/facets`: the chosen category's filterable attributes (none without one). */
export const facetsSchema = z.object({ facets: z.array(facetSchema) });
export type Facets = z.infer<typeof facetsSchema>;
