import { asc, eq, inArray, type SQLWrapper } from "drizzle-orm";
import { formatAttributeNumber, type ProductAttribute } from "../../../contract/attributes";
import type { DbOrTx } from "../../db/database";
import { sql } from "../../db/sql";
import { attributeDefinitions, productAttributes } from "./tables";

/**
 * Products' attribute values (`"all"`: every product's, for the CSV export) as answers carry them (docs/attributes.md): `{ name, value, unit }`
 * in their definitions' order, numbers written for people ("280", "11.5"), the unit only for
 * numbers that have one. A product without values is absent from the map.
 */
export async function attributesOf(
  db: DbOrTx,
  productIds: readonly string[] | "all",
): Promise<Map<string, ProductAttribute[]>> {
  const byProduct = new Map<string, ProductAttribute[]>();
  const ids = productIds === "all" ? undefined : [...new Set(productIds)];
  if (ids?.length === 0) return byProduct;
  const rows = await db
    .select({
      productId: productAttributes.productId,
      name: attributeDefinitions.name,
      unit: attributeDefinitions.unit,
      numberValue: productAttributes.numberValue,
      textValue: productAttributes.textValue,
    })
    .from(productAttributes)
    .innerJoin(attributeDefinitions, eq(attributeDefinitions.id, productAttributes.attributeId))
    .where(ids && inArray(productAttributes.productId, ids))
    .orderBy(
      asc(productAttributes.productId),
      asc(attributeDefinitions.position),
      asc(attributeDefinitions.name),
    );
  for (const r of rows) {
    const list = byProduct.get(r.productId) ?? [];
    list.push(toProductAttribute(r));
    byProduct.set(r.productId, list);
  }
  return byProduct;
}

/** A stored value as answers carry it. */
interface AttributeRow {
  name: string;
  unit: string | null;
  numberValue: string | null;
  textValue: string | null;
}

function toProductAttribute(r: AttributeRow): ProductAttribute {
  return r.numberValue !== null
    ? { name: r.name, value: formatAttributeNumber(r.numberValue), unit: r.unit }
    : { name: r.name, value: r.textValue ?? "", unit: null };
}

/**
 * The product `productId`'s values (a column of the statement's row) as one JSON value, in their
 * definitions' order: for a read that takes them in its own statement (`attributesFromJson`).
 */
export const attributesJson = (productId: SQLWrapper) => sql<AttributeRow[]>`(
  select coalesce(json_agg(json_build_object(
      'name', d.name, 'unit', d.unit, 'numberValue', v.number_value::text, 'textValue', v.text_value
    ) order by d.position, d.name), '[]')
  from ${productAttributes} v
  join ${attributeDefinitions} d on d.id = v.attribute_id
  where v.product_id = ${productId})`;

export const attributesFromJson = (rows: AttributeRow[]): ProductAttribute[] =>
  rows.map(toProductAttribute);

/** One product's values (empty when it has none). */
export async function attributesOfProduct(
  db: DbOrTx,
  productId: string,
): Promise<ProductAttribute[]> {
  return (await attributesOf(db, [productId])).get(productId) ?? [];
}
