import { asc, eq, inArray } from "drizzle-orm";
import { formatAttributeNumber, type ProductAttribute } from "../../contract/attributes";
import type { DbOrTx } from "../db/database";
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
    list.push(
      r.numberValue !== null
        ? { name: r.name, value: formatAttributeNumber(r.numberValue), unit: r.unit }
        : { name: r.name, value: r.textValue ?? "", unit: null },
    );
    byProduct.set(r.productId, list);
  }
  return byProduct;
}

/** One product's values (empty when it has none). */
export async function attributesOfProduct(
  db: DbOrTx,
  productId: string,
): Promise<ProductAttribute[]> {
  return (await attributesOf(db, [productId])).get(productId) ?? [];
}
