import { and, count, eq, inArray } from "drizzle-orm";
import { formatAttributeNumber, type AttributeKind } from "../../../contract/attributes";
import type { ProductCategory } from "../../../contract/constants";
import {
  facetMessages,
  MAX_FACET_VALUES,
  parseAttributeFilter,
  type Facet,
} from "../../../contract/facets";
import type { ProductFilters } from "../service";
import { products } from "../tables";
import type { Db, DbOrTx } from "../../db/database";
import { sql, type SQL } from "../../db/sql";
import { fieldError } from "../../errors";
import type { VehicleMatch } from "../../vehicles/service";
import { attributeDefinitionColumns, attributeDefinitions, productAttributes } from "./tables";
import { parseAttributeValue } from "./writes";

// Facets on All products (docs/attributes.md, "Facets"): the list filtered by attribute values,
// and each filterable attribute's values counted over the products the other filters leave.

/** One attribute's chosen values, as stored: numbers as numeric text, else the text. */
export interface AttributeFilter {
  attributeId: string;
  kind: AttributeKind;
  values: string[];
}

const badFilter = (message: string) => fieldError("attr", message);

/**
 * The list query's `attr` parameters (well-formed already: the contract checks them) as filters,
 * one per attribute, by attribute id: each attribute must exist, belong to the chosen category
 * (when one is), and each value must be one it can have ("Diameter is a number: …"). Anything
 * else is a 400 naming the problem.
 */
export async function resolveAttributeFilters(
  db: DbOrTx,
  params: readonly string[],
  category: ProductCategory | undefined,
): Promise<AttributeFilter[]> {
  const parsed = params.map((p) => parseAttributeFilter(p)!);
  const ids = [...new Set(parsed.map((p) => p.attributeId))];
  const defs = await db
    .select(attributeDefinitionColumns)
    .from(attributeDefinitions)
    .where(inArray(attributeDefinitions.id, ids));
  const byId = new Map(defs.map((d) => [d.id, d]));
  const filters = new Map<string, AttributeFilter>();
  for (const { attributeId, value } of parsed) {
    const def = byId.get(attributeId);
    if (!def) throw badFilter(facetMessages.unknown);
    if (category && def.category !== category) {
      throw badFilter(facetMessages.otherCategory(def.name, category));
    }
    const stored = parseAttributeValue(def, value);
    if ("error" in stored) throw badFilter(stored.error);
    const filter = filters.get(attributeId) ?? { attributeId, kind: def.kind, values: [] };
    const v = stored.numberValue ?? stored.textValue;
    if (!filter.values.includes(v)) filter.values.push(v);
    filters.set(attributeId, filter);
  }
  return [...filters.values()].sort((a, b) => (a.attributeId < b.attributeId ? -1 : 1));
}

/**
 * The products that have, for every attribute filtered, one of its chosen values: one
 * `exists (…)` per attribute, each a lookup in migration 0057's (attribute, value, product)
 * indexes. Undefined when there is nothing to filter by (the list's SQL is then unchanged).
 */
export function attributeFilterCondition(filters: readonly AttributeFilter[]): SQL | undefined {
  if (filters.length === 0) return undefined;
  return and(
    ...filters.map((f) => {
      const values =
        f.kind === "number"
          ? sql`pa.number_value in (${sql.join(
              f.values.map((v) => sql`${v}::numeric`),
              sql`, `,
            )})`
          : sql`pa.text_value in (${sql.join(
              f.values.map((v) => sql`${v}`),
              sql`, `,
            )})`;
      return sql`exists (select 1 from ${productAttributes} pa
        where pa.product_id = ${products.id} and pa.attribute_id = ${f.attributeId} and ${values})`;
    }),
  );
}

/** What the facets need from the catalog: the condition its list query uses for some filters. */
export interface FacetCatalog {
  /** The list's condition for these filters (search, category, price, stock, vehicle, attributes). */
  matching(
    filters: ProductFilters,
    vehicle: VehicleMatch | undefined,
    attributes: readonly AttributeFilter[],
  ): Promise<SQL | undefined>;
}

/** A number written one way: "0280", "280.0" and "280" are "280". */
const sameNumber = (v: string) => formatAttributeNumber(v.replace(/^(-?)0+(?=\d)/, "$1"));

/** Where a choice is listed; one no longer among the choices goes last. */
const choiceRank = (choices: readonly string[], v: string) => {
  const i = choices.indexOf(v);
  return i < 0 ? choices.length : i;
};

export function createFacetService(db: Db, catalog: FacetCatalog) {
  /** Each value's products among those `where` leaves, for these attributes. */
  async function countValues(attributeIds: string[], where: SQL | undefined) {
    if (attributeIds.length === 0) return [];
    return db
      .select({
        attributeId: productAttributes.attributeId,
        numberValue: productAttributes.numberValue,
        textValue: productAttributes.textValue,
        count: count(),
      })
      .from(productAttributes)
      .innerJoin(products, eq(products.id, productAttributes.productId))
      .where(and(inArray(productAttributes.attributeId, attributeIds), where))
      .groupBy(
        productAttributes.attributeId,
        productAttributes.numberValue,
        productAttributes.textValue,
      );
  }

  return {
    /**
     * The chosen category's filterable attributes with their values' counts (none without a
     * category). Counts are disjunctive: an attribute's values are counted with every filter
     * but its own, so choosing a value leaves its siblings' counts as they were. One query for
     * the attributes not filtered by, one per attribute filtered by.
     */
    async facets(
      filters: ProductFilters,
      vehicle: VehicleMatch | undefined,
      attributes: readonly AttributeFilter[],
    ): Promise<Facet[]> {
      if (!filters.category) return [];
      const defs = await db
        .select({
          id: attributeDefinitions.id,
          name: attributeDefinitions.name,
          kind: attributeDefinitions.kind,
          unit: attributeDefinitions.unit,
          choices: attributeDefinitions.choices,
        })
        .from(attributeDefinitions)
        .where(
          and(
            eq(attributeDefinitions.category, filters.category),
            eq(attributeDefinitions.filterable, true),
          ),
        )
        .orderBy(attributeDefinitions.position, attributeDefinitions.name);
      if (defs.length === 0) return [];
      const chosen = new Map(attributes.map((a) => [a.attributeId, a]));
      const unfiltered = defs.filter((d) => !chosen.has(d.id)).map((d) => d.id);
      const filtered = defs.filter((d) => chosen.has(d.id)).map((d) => d.id);
      const rows = (
        await Promise.all([
          catalog
            .matching(filters, vehicle, attributes)
            .then((where) => countValues(unfiltered, where)),
          ...filtered.map((id) =>
            catalog
              .matching(
                filters,
                vehicle,
                attributes.filter((a) => a.attributeId !== id),
              )
              .then((where) => countValues([id], where)),
          ),
        ])
      ).flat();

      return defs.flatMap((def): Facet[] => {
        const counts = new Map<string, number>();
        for (const r of rows) {
          if (r.attributeId !== def.id) continue;
          const value = r.numberValue !== null ? sameNumber(r.numberValue) : r.textValue!;
          counts.set(value, (counts.get(value) ?? 0) + r.count);
        }
        // A chosen value stays listed (to be unticked) when nothing has it any more.
        const picked = (chosen.get(def.id)?.values ?? []).map((v) =>
          def.kind === "number" ? sameNumber(v) : v,
        );
        for (const v of picked) if (!counts.has(v)) counts.set(v, 0);
        if (counts.size === 0) return [];
        let values = [...counts].map(([value, n]) => ({ value, count: n }));
        if (values.length > MAX_FACET_VALUES) {
          // The chosen values, then the most common ones.
          values = values
            .sort(
              (a, b) =>
                Number(picked.includes(b.value)) - Number(picked.includes(a.value)) ||
                b.count - a.count,
            )
            .slice(0, MAX_FACET_VALUES);
        }
        const order =
          def.kind === "number"
            ? (a: string, b: string) => Number(a) - Number(b)
            : def.kind === "choice"
              ? (a: string, b: string) => choiceRank(def.choices, a) - choiceRank(def.choices, b)
              : (a: string, b: string) => a.localeCompare(b, "en");
        values.sort((a, b) => order(a.value, b.value));
        return [{ attributeId: def.id, name: def.name, kind: def.kind, unit: def.unit, values }];
      });
    },
  };
}

export type FacetService = ReturnType<typeof createFacetService>;
