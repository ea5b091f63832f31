import { eq, inArray } from "drizzle-orm";
import { sql } from "../db/sql";
import { sqlInts, sqlUuids, writeInStatements } from "../db/sql-arrays";
import { normalizePartNumber } from "../../contract/constants";
import type { CrossReference, CrossReferenceInput, ProductCreate } from "../../contract/products";
import type { DbOrTx } from "../db/database";
import { unitsToCents } from "../money";
import { productAssets, productCrossReferences, productFitments, products } from "./tables";
import { recordWebhookEvent } from "../webhooks/outbox";

/**
 * The catalog's writes that other modules ask for (the product CSV import, the admin home's
 * reorder level, core charges): the catalog alone writes products and their numbers.
 */

/** A product's cross-reference numbers replaced by `refs`, in their order. */
export async function replaceCrossReferences(
  tx: DbOrTx,
  productId: string,
  refs: CrossReferenceInput[],
): Promise<CrossReference[]> {
  await tx.delete(productCrossReferences).where(eq(productCrossReferences.productId, productId));
  if (refs.length > 0) {
    await tx
      .insert(productCrossReferences)
      .values(refs.map((r, position) => ({ ...r, productId, position })));
  }
  return refs.map(({ kind, brand, number }) => ({ kind, brand, number }));
}

/**
 * A new product's columns from the admin's fields (the product form, a CSV or PIES row): a
 * retail minimum and pack size not given are 1; a weight or dimensions not given are the
 * table's defaults (0 g, none). Its breaks, brand and stock elsewhere are the caller's.
 */
export const newProductValues = (p: ProductCreate, creatorEmail: string) => ({
  partNumber: p.partNumber.toUpperCase(),
  name: p.name,
  shortDescription: p.shortDescription,
  category: p.category,
  priceCents: unitsToCents(p.price),
  availableQuantity: p.availableQuantity,
  minimumOrder: p.minimumOrder,
  retailMinimum: p.retailMinimum ?? 1,
  packSize: p.packSize ?? 1,
  warrantyMonths: p.warranty,
  weightGrams: p.weightGrams,
  lengthMm: p.lengthMm,
  widthMm: p.widthMm,
  heightMm: p.heightMm,
  img: p.img,
  creatorEmail,
});

/** A row of `upsertProductsByPartNumber`. */
export type UpsertProductRow = ProductCreate & {
  /** Replaced when given; undefined (the PIES import's item without interchange) leaves them. */
  crossReferences?: CrossReferenceInput[];
  /** The Auto Care brand code and label (the PIES import); undefined leaves them as they are. */
  brandCode?: string | null;
  brand?: string | null;
};

/**
 * Products written by part number in one statement: new ones inserted, existing ones (by the
 * normalised part number) updated, each with its cross-references replaced when the row gives
 * them. Answers each row's id and whether it was new, by normalised part number. Rows without a
 * weight (a file without the weight column) leave an existing product's weight as it is; a new one
 * then weighs 0 g. So do rows without a retail minimum or pack size (a new product then has 1). Likewise rows without dimensions (a file without those columns) leave them as
 * they are; a new product then has none. Rows with them (numbers, or null: none) set all three.
 * So do the brand code and label: rows without them (the product CSV) leave them as they are; a
 * new product then has none (the store's own). The rows of one call give the same fields.
 * `keepStock` leaves an existing product's stock as it is (the PIES import, which does not know
 * it; a new product gets the row's).
 */
export async function upsertProductsByPartNumber(
  tx: DbOrTx,
  rows: UpsertProductRow[],
  creatorEmail: string,
  opts: { keepStock?: boolean } = {},
): Promise<{ id: string; key: string; inserted: boolean }[]> {
  const written = await tx
    .insert(products)
    .values(
      rows.map((p) => ({
        ...newProductValues(p, creatorEmail),
        brandCode: p.brandCode ?? null,
        brand: p.brand ?? null,
      })),
    )
    .onConflictDoUpdate({
      target: products.partNumberNormalized,
      set: {
        partNumber: sql`excluded.part_number`,
        name: sql`excluded.name`,
        shortDescription: sql`excluded.short_description`,
        category: sql`excluded.category`,
        priceCents: sql`excluded.price_cents`,
        ...(!opts.keepStock && { availableQuantity: sql`excluded.available_quantity` }),
        minimumOrder: sql`excluded.minimum_order`,
        ...(rows.some((p) => p.retailMinimum !== undefined) && {
          retailMinimum: sql`excluded.retail_minimum`,
        }),
        ...(rows.some((p) => p.packSize !== undefined) && {
          packSize: sql`excluded.pack_size`,
        }),
        warrantyMonths: sql`excluded.warranty_months`,
        ...(rows.some((p) => p.weightGrams !== undefined) && {
          weightGrams: sql`excluded.weight_grams`,
        }),
        ...(rows.some((p) => p.lengthMm !== undefined) && {
          lengthMm: sql`excluded.length_mm`,
          widthMm: sql`excluded.width_mm`,
          heightMm: sql`excluded.height_mm`,
        }),
        img: sql`excluded.img`,
        ...(rows.some((p) => p.brandCode !== undefined) && {
          brandCode: sql`excluded.brand_code`,
        }),
        ...(rows.some((p) => p.brand !== undefined) && { brand: sql`excluded.brand` }),
      },
    })
    .returning({
      id: products.id,
      key: products.partNumberNormalized,
      // xmax is 0 on a row this statement inserted, set on one it updated.
      inserted: sql<boolean>`(xmax = 0)`,
    });
  const idOf = new Map(written.map((w) => [w.key, w.id]));
  const withRefs = rows.filter((p) => p.crossReferences !== undefined);
  if (withRefs.length === 0) return written;
  await tx.delete(productCrossReferences).where(
    inArray(
      productCrossReferences.productId,
      withRefs.map((p) => idOf.get(normalizePartNumber(p.partNumber))!),
    ),
  );
  const refs = withRefs.flatMap((p) =>
    p.crossReferences!.map((r, position) => ({
      ...r,
      position,
      productId: idOf.get(normalizePartNumber(p.partNumber))!,
    })),
  );
  if (refs.length > 0) await tx.insert(productCrossReferences).values(refs);
  return written;
}

/** A product's digital asset as the PIES import gives it (docs/imports.md). */
export interface ProductAssetInput {
  kind: "image" | "document";
  title: string;
  /** An https address (the table refuses others). */
  url: string;
}

/**
 * A product's digital assets (more pictures, documents) replaced by `assets`, in their order; an
 * address listed twice is kept once (the first).
 */
export async function replaceProductAssets(
  tx: DbOrTx,
  productId: string,
  assets: ProductAssetInput[],
): Promise<void> {
  await tx.delete(productAssets).where(eq(productAssets.productId, productId));
  const seen = new Set<string>();
  const rows = assets.filter((a) => !seen.has(a.url) && seen.add(a.url));
  if (rows.length === 0) return;
  await tx.insert(productAssets).values(rows.map((a, position) => ({ productId, ...a, position })));
}

/** Sets a product's reorder level (null: twice its minimum order); undefined when it is gone. */
export async function setReorderLevel(tx: DbOrTx, productId: string, level: number | null) {
  const [row] = await tx
    .update(products)
    .set({ reorderLevel: level })
    .where(eq(products.id, productId))
    .returning();
  return row;
}

/**
 * Sets the list price (cents) of many products, a statement per 20,000 (each bounded by the
 * statement timeout), in the caller's transaction (the bulk price sync,
 * pricing/price-levels.ts, which checked and locked them); answers how many changed.
 */
export async function setListPrices(
  tx: DbOrTx,
  changes: readonly { productId: string; cents: number }[],
): Promise<number> {
  return writeInStatements(
    tx,
    changes,
    20_000,
    (chunk) => sql`
      update products p set price_cents = c.cents
        from unnest(${sqlUuids(chunk.map((c) => c.productId))},
                    ${sqlInts(chunk.map((c) => c.cents))}) as c(id, cents)
       where p.id = c.id and p.price_cents is distinct from c.cents`,
  );
}

/** Sets a product's core deposit per unit (null: none); undefined when it is gone. */
export async function setCoreDeposit(tx: DbOrTx, productId: string, cents: number | null) {
  const [row] = await tx
    .update(products)
    .set({ coreDepositCents: cents })
    .where(eq(products.id, productId))
    .returning({ name: products.name, partNumber: products.partNumber });
  return row;
}

/** A product's row locked for the rest of the caller's transaction (undefined: no such product). */
export async function lockProduct(tx: DbOrTx, id: string) {
  const [row] = await tx
    .select({ id: products.id, name: products.name, partNumber: products.partNumber })
    .from(products)
    .where(eq(products.id, id))
    .for("update");
  return row;
}

/** Deletes a product; paid orders keep its name and price (their lines' productId → null). */
export async function deleteProduct(tx: DbOrTx, id: string): Promise<void> {
  const [gone] = await tx
    .delete(products)
    .where(eq(products.id, id))
    .returning({ partNumber: products.partNumber, name: products.name });
  if (gone) {
    await recordWebhookEvent(tx, {
      type: "product.deleted",
      data: { productId: id, partNumber: gone.partNumber, name: gone.name },
    });
  }
}

type FitmentRow = typeof productFitments.$inferInsert;

/**
 * The fitment of these products replaced by `rows` (the fitment editor's one product, or a CSV
 * import's batch), written `batch` rows per statement; a row listed twice is written once.
 */
export async function replaceFitments(
  tx: DbOrTx,
  productIds: string[],
  rows: FitmentRow[],
  batch = rows.length,
): Promise<void> {
  if (productIds.length > 0) {
    await tx.delete(productFitments).where(inArray(productFitments.productId, productIds));
  }
  for (let i = 0; i < rows.length; i += Math.max(batch, 1)) {
    await tx
      .insert(productFitments)
      .values(rows.slice(i, i + Math.max(batch, 1)))
      .onConflictDoNothing();
  }
}

/**
 * The fitment of a set of products replaced, set-based, by the rows a caller prepared in two
 * temporary tables of its transaction (the ACES import, imports/aces-import.ts): `products` lists
 * the products (`product_id`), `rows` the fitment they should have, shaped as product_fitments'
 * columns, one row per unique key. Rows already as wanted stay (quantity and note included);
 * the others of those products are deleted, and the missing ones inserted. Products not listed
 * keep their fitment. Answers how many rows went and came.
 */
export async function replaceFitmentsFromStaging(
  tx: DbOrTx,
  staging: { products: string; rows: string },
): Promise<{ deleted: number; inserted: number }> {
  const listed = sql.identifier(staging.products);
  const wanted = sql.identifier(staging.rows);
  const deleted = await tx.execute(sql`
    delete from product_fitments f
    using ${listed} p
    where f.product_id = p.product_id
      and not exists (
        select 1 from ${wanted} w
        where w.product_id = f.product_id
          and w.base_vehicle_id = f.base_vehicle_id
          and w.submodel_id is not distinct from f.submodel_id
          and w.engine_id is not distinct from f.engine_id
          and w.position is not distinct from f.position
          and w.quantity = f.quantity
          and w.note is not distinct from f.note)`);
  const inserted = await tx.execute(sql`
    insert into product_fitments
      (product_id, base_vehicle_id, submodel_id, engine_id, position, quantity, note)
    select w.product_id, w.base_vehicle_id, w.submodel_id, w.engine_id, w.position, w.quantity, w.note
    from ${wanted} w
    join ${listed} p on p.product_id = w.product_id
    on conflict on constraint product_fitments_unique do nothing`);
  return { deleted: deleted.rowCount ?? 0, inserted: inserted.rowCount ?? 0 };
}
