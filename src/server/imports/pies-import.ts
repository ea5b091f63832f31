import type { Readable } from "node:stream";
import { asc, eq, inArray } from "drizzle-orm";
import { attributeMessages, MAX_ATTRIBUTES_PER_CATEGORY } from "../../contract/attributes";
import { productCategories, type ProductCategory } from "../../contract/constants";
import { minimumFitsPack, productFieldMessages } from "../../contract/products";
import { MAX_IMPORT_ERRORS_KEPT, type ImportError, type PiesCounts } from "../../contract/imports";
import {
  ensureDefinitions,
  parseAttributeValue,
  replaceProductAttributes,
  type StoredValue,
} from "../catalog/attributes/writes";
import { attributeDefinitions, productAttributes } from "../catalog/attributes/tables";
import { productAssets, productCrossReferences, products } from "../catalog/tables";
import {
  replaceProductAssets,
  upsertProductsByPartNumber,
  type ProductAssetInput,
  type UpsertProductRow,
} from "../catalog/writes";
import type { DbOrTx } from "../db/database";
import { rowsForKeys } from "../db/sql-arrays";
import { collectingSooner } from "./collect-sooner";
import { readPies, type PiesItem, type PiesLimits } from "./pies";

/**
 * A PIES file applied to the catalog (docs/imports.md), item by item in batches as the file
 * streams: each item checked against the products (another brand's part is refused), then
 * compared with what the store has, so the counts say what is new, changed or unchanged. The
 * preview stops there (nothing written); the import writes the new and changed parts (products
 * through the catalog's writes, attribute values through the attributes module's), in the
 * caller's transaction. Memory stays that of one batch, with the part numbers seen so far (a part
 * number listed twice is refused the second time).
 */

/** The picture of a product the file gives none for (a shipped image, public/images/products). */
export const NO_PICTURE_IMAGE = "/images/products/no-picture.svg";

/** Items handled per batch. */
const BATCH = 500;

export interface PiesOutcome {
  /** The items' brand codes ("BKRW", "BKRW, ACME", at most three then "…"). */
  brand: string;
  counts: PiesCounts;
  errorCount: number;
  /** The first MAX_IMPORT_ERRORS_KEPT, in file order. */
  errors: ImportError[];
}

type Existing = typeof products.$inferSelect;

/** A category's definitions by lower-case name, and those the file adds (not written yet). */
interface CategoryDefs {
  byName: Map<
    string,
    { id?: string; name: string; kind: "number" | "text" | "choice"; choices: string[] }
  >;
  adding: { name: string; kind: "number" | "text"; unit: string | null }[];
}

const NUMERIC = /^-?\d{1,12}([.,]\d{1,6})?$/;

const sameList = <T>(a: T[], b: T[], key: (x: T) => string) =>
  a.length === b.length && a.every((x, i) => key(x) === key(b[i]!));

/**
 * Reads the PIES file `open` gives, checks and compares every item, and (with `write`) writes the
 * new and changed parts. `onProgress` hears how many items are done after each batch. Throws
 * `ImportFileError` for a file it refuses.
 */
export async function applyPies(
  tx: DbOrTx,
  open: () => Promise<Readable>,
  limits: PiesLimits,
  opts: { write: boolean; creatorEmail: string; onProgress?: (done: number) => Promise<void> },
): Promise<PiesOutcome> {
  const counts: PiesCounts = {
    items: 0,
    newParts: 0,
    updatedParts: 0,
    unchangedParts: 0,
    attributeValues: 0,
    newAttributes: 0,
    interchangeNumbers: 0,
    assets: 0,
  };
  let errorCount = 0;
  const errors: ImportError[] = [];
  const brands = new Set<string>();
  const seenParts = new Set<string>();
  const categories = new Map<ProductCategory, CategoryDefs>();
  let batch: PiesItem[] = [];

  const problem = (item: PiesItem, kind: ImportError["kind"], message: string) => {
    errorCount++;
    if (errors.length < MAX_IMPORT_ERRORS_KEPT) {
      errors.push({ appId: item.partNumber, line: item.line, kind, message });
    }
  };

  /** The category's definitions, read once per file. */
  async function defsOf(category: ProductCategory): Promise<CategoryDefs> {
    let defs = categories.get(category);
    if (!defs) {
      const rows = await tx
        .select({
          id: attributeDefinitions.id,
          name: attributeDefinitions.name,
          kind: attributeDefinitions.kind,
          choices: attributeDefinitions.choices,
        })
        .from(attributeDefinitions)
        .where(eq(attributeDefinitions.category, category));
      defs = { byName: new Map(rows.map((r) => [r.name.toLowerCase(), r])), adding: [] };
      categories.set(category, defs);
    }
    return defs;
  }

  async function handle(items: PiesItem[]) {
    const keys = items.map((i) => i.partKey).filter((k) => k !== "");
    const found = await rowsForKeys(keys, (wanted) =>
      tx.select().from(products).where(inArray(products.partNumberNormalized, wanted)),
    );
    const existingOf = new Map(found.map((p) => [p.partNumberNormalized, p]));
    const ids = found.map((p) => p.id);
    /** The found products' rows of a table: none read when no product was found. */
    const ofFound = async <T>(read: () => PromiseLike<T[]>): Promise<T[]> =>
      ids.length === 0 ? [] : await read();
    // One after the other: a transaction's statements share its one connection.
    const refs = await ofFound(() =>
      tx
        .select()
        .from(productCrossReferences)
        .where(inArray(productCrossReferences.productId, ids))
        .orderBy(asc(productCrossReferences.position)),
    );
    const values = await ofFound(() =>
      tx.select().from(productAttributes).where(inArray(productAttributes.productId, ids)),
    );
    const assets = await ofFound(() =>
      tx
        .select()
        .from(productAssets)
        .where(inArray(productAssets.productId, ids))
        .orderBy(asc(productAssets.position)),
    );
    const byProduct = <T extends { productId: string }>(rows: T[]) => {
      const map = new Map<string, T[]>();
      for (const r of rows) map.set(r.productId, [...(map.get(r.productId) ?? []), r]);
      return map;
    };
    const refsOf = byProduct(refs);
    const valuesOf = byProduct(values);
    const assetsOf = byProduct(assets);

    const changed: {
      item: PiesItem;
      row: UpsertProductRow;
      category: ProductCategory;
      values?: { key: string; value: StoredValue }[];
      assets?: ProductAssetInput[];
    }[] = [];

    for (const item of items) {
      counts.items++;
      // The record names a few brands; a file of thousands of brands is not kept whole.
      if (item.brandCode && brands.size < 4) brands.add(item.brandCode);
      if (item.problem) {
        problem(item, item.problem.kind, item.problem.message);
        continue;
      }
      if (seenParts.has(item.partKey)) {
        problem(
          item,
          "duplicate_part",
          `Part "${item.partNumber}" is listed twice in the file: the first is imported`,
        );
        continue;
      }
      seenParts.add(item.partKey);
      const existing: Existing | undefined = existingOf.get(item.partKey);
      if (existing?.brandCode && existing.brandCode !== item.brandCode) {
        problem(
          item,
          "other_brand",
          `Part "${item.partNumber}" belongs to brand ${existing.brandCode}, not ${item.brandCode}: it is not changed`,
        );
        continue;
      }
      if (!existing && !item.category) {
        problem(
          item,
          "unknown_category",
          item.productGroup
            ? `ProductGroupCode "${item.productGroup}" is none of our categories (${productCategories.join(", ")}): a new part needs one`
            : `The item has no ProductGroupCode: a new part needs one of our categories (${productCategories.join(", ")})`,
        );
        continue;
      }
      if (!existing && item.listPriceCents === undefined) {
        problem(
          item,
          "no_price",
          "The item has no list price (Pricing PriceType LST): a new part needs one",
        );
        continue;
      }
      if (!existing && !item.name) {
        problem(
          item,
          "bad_value",
          "The item has no DES description: a new part needs it as its name",
        );
        continue;
      }
      const category = item.category ?? existing!.category;

      // Attribute values, checked against the category's definitions (or those the file adds).
      let wantedValues: { key: string; value: StoredValue }[] | undefined;
      const adding: CategoryDefs["adding"] = [];
      if (item.attributes) {
        const defs = await defsOf(category);
        wantedValues = [];
        let bad: string | undefined;
        for (const a of item.attributes) {
          const key = a.name.toLowerCase();
          let def = defs.byName.get(key) ?? adding.find((d) => d.name.toLowerCase() === key);
          const planned = defs.adding.find((d) => d.name.toLowerCase() === key);
          if (!def && planned) def = { ...planned, choices: [] };
          if (!def) {
            const kind = a.unit && NUMERIC.test(a.value.trim()) ? "number" : "text";
            const added = { name: a.name, kind, unit: kind === "number" ? a.unit : null } as const;
            adding.push(added);
            def = added;
          }
          const parsed = parseAttributeValue(
            { name: def.name, kind: def.kind, choices: "choices" in def ? def.choices : [] },
            a.value,
          );
          if ("error" in parsed) {
            bad = parsed.error;
            break;
          }
          wantedValues.push({ key, value: parsed });
        }
        if (
          !bad &&
          defs.byName.size + defs.adding.length + adding.length > MAX_ATTRIBUTES_PER_CATEGORY
        ) {
          bad = attributeMessages.tooMany(category);
        }
        if (bad) {
          problem(item, "bad_value", bad);
          continue;
        }
        defs.adding.push(...adding);
        counts.newAttributes += adding.length;
      }

      // A trade minimum is a whole number of the part's packs (docs/pricing.md "Quantities by
      // group"), as on the product's screens and in the product CSV; PIES carries no pack size.
      const packSize = existing?.packSize ?? 1;
      if (!minimumFitsPack({ minimumOrder: item.minimumOrder, packSize })) {
        problem(item, "bad_value", productFieldMessages.minimumNotPackMultiple(packSize));
        continue;
      }
      const firstPicture = item.assets?.find((a) => a.kind === "image")?.url;
      const row: UpsertProductRow = {
        partNumber: existing?.partNumber ?? item.partNumber,
        name: item.name ?? existing!.name,
        shortDescription: item.description ?? existing?.shortDescription ?? item.name!,
        category,
        price: (item.listPriceCents ?? existing!.priceCents) / 100,
        availableQuantity: existing?.availableQuantity ?? 0,
        minimumOrder: item.minimumOrder ?? existing?.minimumOrder ?? 1,
        warranty: existing?.warrantyMonths ?? 0,
        weightGrams: item.weightGrams ?? existing?.weightGrams ?? 0,
        lengthMm: item.dimensions?.lengthMm ?? existing?.lengthMm ?? null,
        widthMm: item.dimensions?.widthMm ?? existing?.widthMm ?? null,
        heightMm: item.dimensions?.heightMm ?? existing?.heightMm ?? null,
        img:
          !existing || existing.img === NO_PICTURE_IMAGE
            ? (firstPicture ?? NO_PICTURE_IMAGE)
            : existing.img,
        brandCode: item.brandCode!,
        brand: item.brandLabel ?? existing?.brand ?? null,
        crossReferences: item.interchange,
      };
      counts.attributeValues += wantedValues?.length ?? 0;
      counts.interchangeNumbers += item.interchange?.length ?? 0;
      counts.assets += item.assets?.length ?? 0;

      if (existing && unchanged(existing, row, wantedValues, item.assets, adding.length)) {
        counts.unchangedParts++;
        continue;
      }
      if (existing) counts.updatedParts++;
      else counts.newParts++;
      changed.push({ item, row, category, values: wantedValues, assets: item.assets });
    }

    function unchanged(
      p: Existing,
      row: UpsertProductRow,
      wanted: { key: string; value: StoredValue }[] | undefined,
      wantedAssets: ProductAssetInput[] | undefined,
      newDefinitions: number,
    ) {
      const same =
        p.name === row.name &&
        p.shortDescription === row.shortDescription &&
        p.category === row.category &&
        p.priceCents === Math.round(row.price * 100) &&
        p.minimumOrder === row.minimumOrder &&
        p.weightGrams === row.weightGrams &&
        p.lengthMm === row.lengthMm &&
        p.widthMm === row.widthMm &&
        p.heightMm === row.heightMm &&
        p.img === row.img &&
        p.brandCode === row.brandCode &&
        p.brand === row.brand;
      if (!same || newDefinitions > 0) return false;
      if (
        row.crossReferences &&
        !sameList(
          refsOf.get(p.id) ?? [],
          row.crossReferences,
          (r) => `${r.kind}\u0000${r.brand}\u0000${r.number}`,
        )
      ) {
        return false;
      }
      if (
        wantedAssets &&
        !sameList(
          assetsOf.get(p.id) ?? [],
          wantedAssets,
          (a) => `${a.kind}\u0000${a.title}\u0000${a.url}`,
        )
      ) {
        return false;
      }
      if (wanted) {
        const defs = categories.get(row.category)!;
        const idOf = (key: string) => defs.byName.get(key)?.id;
        const have = new Map(
          (valuesOf.get(p.id) ?? []).map((v) => [v.attributeId, v.numberValue ?? v.textValue]),
        );
        if (have.size !== wanted.length) return false;
        for (const w of wanted) {
          const id = idOf(w.key);
          if (!id || have.get(id) !== (w.value.numberValue ?? w.value.textValue)) return false;
        }
      }
      return true;
    }

    if (!opts.write || changed.length === 0) return;
    // The definitions the batch's items add, then the parts, then their values and assets.
    for (const [category, defs] of categories) {
      if (defs.adding.length === 0) continue;
      const all = await ensureDefinitions(tx, category, defs.adding);
      defs.adding = [];
      defs.byName = new Map(all.map((d) => [d.name.toLowerCase(), d]));
    }
    const written = await upsertProductsByPartNumber(
      tx,
      changed.map((c) => c.row),
      opts.creatorEmail,
      { keepStock: true },
    );
    const idOf = new Map(written.map((w) => [w.key, w.id]));
    for (const c of changed) {
      const productId = idOf.get(c.item.partKey)!;
      if (c.values) {
        const defs = categories.get(c.category)!;
        await replaceProductAttributes(
          tx,
          productId,
          c.values.map((v) => ({ attributeId: defs.byName.get(v.key)!.id!, ...v.value })),
        );
      }
      if (c.assets) await replaceProductAssets(tx, productId, c.assets);
    }
  }

  const flush = async () => {
    if (batch.length === 0) return;
    const items = batch;
    batch = [];
    await handle(items);
    await opts.onProgress?.(counts.items);
  };
  await collectingSooner(async () => {
    await readPies(await open(), limits, {
      onItems: async (items) => {
        batch.push(...items);
        if (batch.length >= BATCH) await flush();
      },
    });
    await flush();
  });
  const codes = [...brands].sort();
  return {
    brand:
      codes.length === 0 ? "—" : codes.slice(0, 3).join(", ") + (codes.length > 3 ? ", …" : ""),
    counts,
    errorCount,
    errors,
  };
}
