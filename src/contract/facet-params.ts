// Filters by attribute values on All products (docs/attributes.md, "Facets"): the `attr`
// parameter as both sides write and read it. No zod here: the web's All products page imports
// this and stays light (its schemas are in facets.ts).

/** A list query carries at most this many `attr` parameters. */
export const MAX_ATTRIBUTE_FILTERS = 20;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One `attr` parameter, `<attribute id>:<value>`, split at its first colon (the value may hold
 * colons), the id in lower case and the value trimmed; undefined when it is not one.
 */
export function splitAttributeFilter(
  param: string,
): { attributeId: string; value: string } | undefined {
  const colon = param.indexOf(":");
  if (colon < 0) return undefined;
  const attributeId = param.slice(0, colon).toLowerCase();
  const value = param.slice(colon + 1).trim();
  if (!UUID.test(attributeId) || value.length === 0) return undefined;
  return { attributeId, value };
}

/** The `attr` parameter that filters by one value of an attribute. */
export const attributeFilterParam = (attributeId: string, value: string) =>
  `${attributeId}:${value}`;

/** A facet's legend: its name, with its unit when it has one ("Diameter (mm)"). */
export const facetLegend = (f: { name: string; unit: string | null }) =>
  f.unit ? `${f.name} (${f.unit})` : f.name;
