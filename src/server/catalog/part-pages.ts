import { and, asc, eq, gt, inArray, or } from "drizzle-orm";
import { sql } from "../db/sql";
import { normalizePartNumber } from "../../contract/constants";
import { STORE_BRAND, type PartAsset, type PartPage } from "../../contract/parts";
import type { Db } from "../db/database";
import { builderStatementName } from "../db/prepared";
import { applicationRowsJson, groupApplications } from "./fitment";
import { productDetailColumns, productDetailOf } from "./service";
import { productIdColumn } from "./search";
import { productAssets, products } from "./tables";

/** What an address `/parts/{slug}` leads to: the part, the part under its current address, or nothing. */
export type PartLookup = { part: PartPage } | { movedTo: string } | undefined;

/**
 * The public part pages (docs/catalog.md "Part pages"): a part by its address, and every address
 * for the sitemap. Reads only; products are written by `writes.ts`.
 */
export function createPartPages(db: Db, currency: string) {
  /**
   * A part's page in one statement, named where the connection allows it: its five reads as
   * separate statements took 4.6 ms p50 at 100,000 products in the server; this statement takes
   * PostgreSQL 2.1 ms unnamed (parsed and planned every time), 1.0 ms named (measured 2026-12-03).
   */
  const partBySlug = db
    .select({
      ...productDetailColumns,
      // The public page never says where a part is on sale: not read.
      stockByLocation: sql<[]>`'[]'::json`,
      applications: applicationRowsJson,
      assets: sql<{ kind: "image" | "document"; title: string; url: string }[]>`(
        select coalesce(json_agg(json_build_object('kind', a.kind, 'title', a.title, 'url', a.url)
          order by a.position, a.title, a.id), '[]')
        from ${productAssets} a
        where a.product_id = ${productIdColumn})`,
    })
    .from(products)
    .where(eq(products.slug, sql.placeholder("slug")))
    .orderBy(asc(products.createdAt), asc(products.id))
    .limit(1)
    .prepare(builderStatementName(db, "part_page_by_slug"));

  /**
   * The part whose address is exactly `slug` (lower-case), as its page shows it (the oldest
   * product, should two addresses meet).
   */
  async function bySlug(slug: string): Promise<PartPage | undefined> {
    const [read] = await partBySlug.execute({ slug });
    if (!read) return undefined;
    const product = productDetailOf(read);
    const assetsOf = (kind: "image" | "document"): PartAsset[] =>
      read.assets.filter((a) => a.kind === kind).map(({ title, url }) => ({ title, url }));
    return {
      _id: product._id,
      slug,
      name: product.name,
      partNumber: product.partNumber,
      category: product.category,
      img: product.img,
      shortDescription: product.shortDescription,
      price: product.price,
      currency,
      breaks: product.breaks,
      minimumOrder: product.minimumOrder,
      retailMinimum: product.retailMinimum,
      packSize: product.packSize,
      warranty: product.warranty,
      coreDeposit: product.coreDeposit,
      weightGrams: product.weightGrams,
      lengthMm: product.lengthMm,
      widthMm: product.widthMm,
      heightMm: product.heightMm,
      inStock: product.availableQuantity > 0,
      // The date one more unit can be promised; never how many come, nor where it is on sale.
      backorder: product.backorder && {
        available: product.backorder.available,
        expectedOn: product.backorder.expectedOn,
      },
      crossReferences: product.crossReferences,
      applications: groupApplications(read.applications),
      brand: read.row.brand ?? STORE_BRAND,
      attributes: product.attributes,
      images: assetsOf("image"),
      documents: assetsOf("document"),
    };
  }

  /**
   * An address that is not a part's: the same in other letter case, or one whose start is a
   * part number we sell (the part was renamed since the link was made) leads to the part's
   * current address. The longest part number wins.
   */
  async function currentAddressOf(slug: string): Promise<string | undefined> {
    const words = slug.toLowerCase().split("-").slice(0, 12);
    const numbers = words.map((_, i) => normalizePartNumber(words.slice(0, i + 1).join("")));
    const [row] = await db
      .select({ slug: products.slug })
      .from(products)
      .where(inArray(products.partNumberNormalized, [...new Set(numbers)]))
      .orderBy(sql`length(${products.partNumberNormalized}) desc`)
      .limit(1);
    return row?.slug;
  }

  return {
    bySlug,
    currentAddressOf,

    /** The part at `slug`, or where it lives now (a 301 for the browser), or nothing (404). */
    async lookup(slug: string): Promise<PartLookup> {
      const part = await bySlug(slug);
      if (part) return { part };
      const current = await currentAddressOf(slug);
      return current === undefined || current === slug ? undefined : { movedTo: current };
    },

    /** How many parts there are (the sitemap's files are cut by it). */
    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(products);
      return row?.n ?? 0;
    },

    /**
     * Part addresses in order, from the `skip`-th on, at most `limit`, read `batch` at a time (a
     * sitemap file is streamed as it is read: 50,000 addresses are never all in memory).
     */
    async *addresses(skip: number, limit: number, batch = 5000): AsyncGenerator<string[]> {
      let after: { slug: string; id: string } | undefined;
      let left = limit;
      while (left > 0) {
        const rows = await db
          .select({ slug: products.slug, id: products.id })
          .from(products)
          .where(
            after &&
              or(
                gt(products.slug, after.slug),
                and(eq(products.slug, after.slug), gt(products.id, after.id)),
              ),
          )
          .orderBy(asc(products.slug), asc(products.id))
          .offset(after ? 0 : skip)
          .limit(Math.min(batch, left));
        if (rows.length === 0) return;
        after = rows.at(-1)!;
        left -= rows.length;
        yield rows.map((r) => r.slug);
      }
    },
  };
}

export type PartPages = ReturnType<typeof createPartPages>;
