import { newProductValues, replaceCrossReferences } from "./writes";
import { and, asc, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import { MAX_OFFSET, productCategories } from "../../contract/constants";
import {
  productFieldMessages,
  type AdminProduct,
  type CrossReference,
  type Product,
  type ProductCreate,
  type ProductDetail,
  type ProductListItem,
  type ProductListQuery,
  type ProductUpdate,
} from "../../contract/products";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { productCrossReferences, products } from "./tables";
import { conflict, HttpError, notFound, unprocessable } from "../errors";
import { onSaleElsewhere } from "../inventory/elsewhere";
import { availabilityColumns, type Availability } from "../inventory/availability";
import { centsToUnits, unitsToCents } from "../money";
import type { FitmentDetail } from "../../contract/vehicles";
import { fitDetailsColumn, fitsCondition } from "./fitment";
import { type VehicleMatch } from "../vehicles/service";
import { queryKey } from "./read-cache";
import {
  createSearchReader,
  describeMatch,
  matchedNumber,
  productIdColumn,
  inSearchTier,
  searchCondition,
  searchTier,
  searchTiers,
  type NumberMatch,
  type Search,
} from "./search";
import { isUniqueViolation } from "../db/postgres-errors";
import type { ProductAttribute } from "../../contract/attributes";
import { attributesFromJson, attributesJson, attributesOfProduct } from "./attributes/reads";
import {
  attributeFilterCondition,
  resolveAttributeFilters,
  type AttributeFilter,
} from "./attributes/facets";
import { storedBreaks, wireBreaks } from "../money";
import { productEventData } from "../webhooks/events";
import { recordWebhookEvent } from "../webhooks/outbox";

type ProductRow = typeof products.$inferSelect;

export function toProduct(row: ProductRow): Product {
  return {
    _id: row.id,
    img: row.img,
    name: row.name,
    partNumber: row.partNumber,
    category: row.category,
    price: centsToUnits(row.priceCents),
    minimumOrder: row.minimumOrder,
    retailMinimum: row.retailMinimum,
    packSize: row.packSize,
    availableQuantity: row.availableQuantity,
    shortDescription: row.shortDescription,
    warranty: row.warrantyMonths,
    coreDeposit: row.coreDepositCents === null ? null : centsToUnits(row.coreDepositCents),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The facts of a product the admin's answers carry: the product, its numbers, public breaks and
 * attribute values (attributes/reads.ts).
 */
function toProductFacts(
  row: ProductRow,
  crossReferences: CrossReference[],
  attributes: ProductAttribute[],
): Omit<ProductDetail, keyof Availability> {
  return {
    ...toProduct(row),
    crossReferences,
    attributes,
    breaks: wireBreaks(row.breaks),
    weightGrams: row.weightGrams,
    lengthMm: row.lengthMm,
    widthMm: row.widthMm,
    heightMm: row.heightMm,
  };
}

/**
 * The product page's and the edit form's answer: its facts, where it is on sale and its backorder
 * offer (inventory/availability.ts).
 */
export function toProductDetail(
  row: ProductRow,
  crossReferences: CrossReference[],
  attributes: ProductAttribute[],
  availability: Availability,
): ProductDetail {
  return { ...toProductFacts(row, crossReferences, attributes), ...availability };
}

export function toAdminProduct(
  row: ProductRow,
  crossReferences: CrossReference[],
  attributes: ProductAttribute[],
): AdminProduct {
  return { ...toProductFacts(row, crossReferences, attributes), email: row.creatorEmail };
}

/** A product's availability as columns of a statement over `products` (the list, the detail). */
const productAvailabilityColumns = availabilityColumns(
  productIdColumn,
  sql.raw(`"products"."available_quantity"`),
);

/** The filters of a list (everything but sort and paging): what its total depends on. */
export type ProductFilters = Omit<ProductListQuery, "sort" | "limit" | "offset">;

/**
 * @param useIndexes false: only conditions checked row by row, for walking a sort order.
 * @param attributes the list's `attr` filters, resolved (`attributeFilters`); none adds nothing.
 */
function whereOf(
  filters: ProductFilters,
  search: Search | undefined,
  vehicle?: VehicleMatch,
  useIndexes = true,
  attributes?: readonly AttributeFilter[],
): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    vehicle ? fitsCondition(productIdColumn, vehicle) : undefined,
    search ? searchCondition(search, useIndexes) : undefined,
    filters.category ? eq(products.category, filters.category) : undefined,
    filters.minPrice !== undefined
      ? sql`${products.priceCents} >= ${unitsToCents(filters.minPrice)}`
      : undefined,
    filters.maxPrice !== undefined
      ? sql`${products.priceCents} <= ${unitsToCents(filters.maxPrice)}`
      : undefined,
    // In stock: at least one minimum order can be placed.
    filters.inStock === "true"
      ? sql`${products.availableQuantity} >= ${products.minimumOrder}`
      : undefined,
    attributes?.length ? attributeFilterCondition(attributes) : undefined,
  ];
  return and(...conditions.filter((c): c is SQL => c !== undefined));
}

/**
 * How the next reads of a transaction find products: through the indexes (bitmap scans, then
 * sorted), or by walking a sort order's index row by row, checking each, until a page is full.
 */
async function readPlan(tx: DbOrTx, plan: "indexes" | "walk"): Promise<void> {
  const [index, bitmap] = plan === "walk" ? ["on", "off"] : ["off", "on"];
  await tx.execute(sql`select set_config('enable_seqscan', 'off', true),
    set_config('enable_indexscan', ${index}, true), set_config('enable_bitmapscan', ${bitmap}, true)`);
}

/** A ranked search reads up to this many matches before it walks the sort order instead. */
const RANKED_PROBE = 500;
/** Searches remembered as matching many products, at most. */
const MAX_REMEMBERED_SEARCHES = 10_000;
/** A tier is walked when at least this share of the first matches read were of it. */
const COMMON_TIER_SHARE = 0.1;

const orderings: Record<ProductListQuery["sort"], SQL[]> = {
  newest: [desc(products.createdAt), desc(products.id)],
  price_asc: [asc(products.priceCents), asc(products.id)],
  price_desc: [desc(products.priceCents), desc(products.id)],
  name: [asc(products.name), asc(products.id)],
};

/** The columns an edit touches; fields left out of the edit keep their value. */
function toColumns(input: ProductUpdate): Partial<typeof products.$inferInsert> {
  return {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.partNumber !== undefined && { partNumber: input.partNumber.toUpperCase() }),
    ...(input.category !== undefined && { category: input.category }),
    ...(input.img !== undefined && { img: input.img }),
    ...(input.price !== undefined && { priceCents: unitsToCents(input.price) }),
    ...(input.minimumOrder !== undefined && { minimumOrder: input.minimumOrder }),
    ...(input.retailMinimum !== undefined && { retailMinimum: input.retailMinimum }),
    ...(input.packSize !== undefined && { packSize: input.packSize }),
    ...(input.availableQuantity !== undefined && { availableQuantity: input.availableQuantity }),
    ...(input.shortDescription !== undefined && { shortDescription: input.shortDescription }),
    ...(input.warranty !== undefined && { warrantyMonths: input.warranty }),
    ...(input.weightGrams !== undefined && { weightGrams: input.weightGrams }),
    // The contract lets the three through only together: all numbers, or all null (removed).
    ...(input.lengthMm !== undefined && { lengthMm: input.lengthMm }),
    ...(input.widthMm !== undefined && { widthMm: input.widthMm }),
    ...(input.heightMm !== undefined && { heightMm: input.heightMm }),
    ...(input.breaks !== undefined && { breaks: storedBreaks(input.breaks) }),
  };
}

const breakNotCheaper = () =>
  new HttpError(400, "validation", `breaks: ${productFieldMessages.breakCheaper}`, {
    breaks: productFieldMessages.breakCheaper,
  });

const minimumAboveStock = () =>
  new HttpError(400, "validation", `minimumOrder: ${productFieldMessages.minimumAboveStock}`, {
    minimumOrder: productFieldMessages.minimumAboveStock,
  });

/** A trade minimum that is not a whole number of packs, refused beside the minimum. */
const minimumNotInPacks = (pack: number) => {
  const message = productFieldMessages.minimumNotPackMultiple(pack);
  return new HttpError(400, "validation", `minimumOrder: ${message}`, { minimumOrder: message });
};

/** A product's cross-references in the order the admin listed them. */
/**
 * What a product's detail is read from, as columns of one statement over `products`: the row,
 * its cross-references (in the admin's order) and its attribute values (`productDetailOf`).
 */
export const productDetailColumns = {
  row: products,
  references: sql<CrossReference[]>`(
    select coalesce(json_agg(json_build_object('kind', r.kind, 'brand', r.brand, 'number', r.number)
      order by r.position, r.id), '[]')
    from ${productCrossReferences} r
    where r.product_id = ${productIdColumn})`,
  attributes: attributesJson(productIdColumn),
  ...productAvailabilityColumns,
};

export const productDetailOf = (
  read: {
    row: ProductRow;
    references: CrossReference[];
    attributes: Parameters<typeof attributesFromJson>[0];
  } & Availability,
): ProductDetail =>
  toProductDetail(read.row, read.references, attributesFromJson(read.attributes), {
    stockByLocation: read.stockByLocation,
    backorder: read.backorder,
  });

async function crossReferencesOf(tx: DbOrTx, productId: string): Promise<CrossReference[]> {
  return tx
    .select({
      kind: productCrossReferences.kind,
      brand: productCrossReferences.brand,
      number: productCrossReferences.number,
    })
    .from(productCrossReferences)
    .where(eq(productCrossReferences.productId, productId))
    .orderBy(asc(productCrossReferences.position), asc(productCrossReferences.id));
}

/** A unique part number taken by another product, as the 409 the admin reads. */
function partNumberTaken(err: unknown, partNumber: string | undefined): HttpError | undefined {
  if (!isUniqueViolation(err, "products_part_number_normalized_unique")) return undefined;
  const message = productFieldMessages.partNumberTaken(partNumber?.toUpperCase() ?? "");
  return conflict(message, "partNumber");
}

export function createCatalogService(db: Db) {
  const searches = createSearchReader(db);
  const searchOf = (q: string | undefined) => searches.read(q);
  /**
   * Searches (with their filters) known to match more than RANKED_PROBE products, and which of
   * their ranks to walk, until the catalog changes: the first read is not made again. Stale, it
   * only costs time: each rank is still read whole, walked or through the indexes.
   */
  const manyMatches = new Map<string, boolean[]>();

  /** Products in the given order, with why a search found them and how they fit the vehicle. */
  async function listed(
    tx: DbOrTx,
    where: SQL | undefined,
    order: SQL[],
    page: { limit: number; offset: number },
    search?: Search,
    vehicle?: VehicleMatch,
  ): Promise<ProductListItem[]> {
    const rows = await tx
      .select({
        product: products,
        matched: search ? matchedNumber(search.number) : sql<null>`null`,
        fit: vehicle ? fitDetailsColumn(productIdColumn, vehicle) : sql<null>`null`,
        backorder: productAvailabilityColumns.backorder,
      })
      .from(products)
      .where(where)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset);
    return rows.map(({ product, matched, fit, backorder }) => ({
      ...toProduct(product),
      backorder,
      ...(product.breaks.length > 0 && { breaks: wireBreaks(product.breaks) }),
      ...(matched && { matched: describeMatch(JSON.parse(matched) as NumberMatch) }),
      ...(vehicle && {
        fit: { fits: true, details: fit ? (JSON.parse(fit) as FitmentDetail[]) : [] },
      }),
    }));
  }

  /**
   * A page of a ranked search. Ranking needs every match's tier, so a search that matches few
   * products reads them all through the indexes and sorts them. One that matches many would read
   * thousands of rows for one page: instead each tier walks the chosen sort order and stops once
   * the page is full. The first read (up to RANKED_PROBE matches, in no order) tells which case it
   * is, and which tiers are common enough to walk; a tier it hardly saw is read through the
   * indexes. PostgreSQL's estimates for text-search prefixes are too rough to choose between the
   * two, so each read says which it wants (`readPlan`). See docs/decisions/009-catalog-search.md.
   */
  async function rankedPage(
    query: ProductListQuery,
    search: Search,
    attributes: readonly AttributeFilter[] | undefined,
  ) {
    const wanted = query.offset + query.limit;
    const ranked = [asc(searchTier(search)), ...orderings[query.sort]];
    /** The matches of `where`, all of them or up to `limit`, read through the indexes. */
    const ids = (tx: DbOrTx, where: SQL | undefined, limit: number) =>
      tx
        .select({ id: products.id, tier: searchTier(search) })
        .from(products)
        .where(where)
        .limit(limit);
    const byIds = (tx: DbOrTx, rows: { id: string }[], page: { limit: number; offset: number }) =>
      rows.length === 0
        ? []
        : listed(
            tx,
            inArray(
              products.id,
              rows.map((r) => r.id),
            ),
            ranked,
            page,
            search,
          );

    return db.transaction(async (tx) => {
      const key = queryKey("search", {
        ...query,
        sort: undefined,
        limit: undefined,
        offset: undefined,
      });
      let common = manyMatches.get(key);
      if (!common) {
        await readPlan(tx, "indexes");
        const probe = await ids(
          tx,
          whereOf(query, search, undefined, true, attributes),
          RANKED_PROBE + 1,
        );
        if (probe.length <= RANKED_PROBE) return byIds(tx, probe, query);
        common = searchTiers.map(
          (t) => probe.filter((r) => r.tier === t).length >= RANKED_PROBE * COMMON_TIER_SHARE,
        );
        if (manyMatches.size >= MAX_REMEMBERED_SEARCHES) manyMatches.clear();
        manyMatches.set(key, common);
      }
      const items: ProductListItem[] = [];
      for (const tier of searchTiers) {
        if (items.length >= wanted) break;
        if (tier === 0 && !search.number) continue;
        const page = { limit: wanted - items.length, offset: 0 };
        if (common[tier]) {
          await readPlan(tx, "walk");
          const where = and(
            whereOf(query, search, undefined, false, attributes),
            inSearchTier(search, tier, false),
          );
          items.push(...(await listed(tx, where, orderings[query.sort], page, search)));
        } else {
          // A number hit and every word in the name are index lookups of their own; the last
          // rank is checked on the rows the words' lookups found.
          await readPlan(tx, "indexes");
          const where = and(
            whereOf(query, search, undefined, true, attributes),
            inSearchTier(search, tier, tier !== 2),
          );
          items.push(...(await byIds(tx, await ids(tx, where, MAX_OFFSET + query.limit), page)));
        }
      }
      return items.slice(query.offset, wanted);
    });
  }

  return {
    /** The catalog changed (any process): what the search remembered of its words may be stale. */
    catalogChanged() {
      searches.forgetCounts();
      manyMatches.clear();
    },

    /**
     * The list query's attribute filters (`attr`) checked against their definitions: a 400 for
     * an unknown attribute, one of another category, or a value it cannot have.
     */
    attributeFilters(filters: Pick<ProductFilters, "attr" | "category">) {
      return resolveAttributeFilters(db, filters.attr ?? [], filters.category);
    },

    /** One page of products (the route caches it; see read-cache.ts). */
    async page(
      query: ProductListQuery,
      vehicle?: VehicleMatch,
      attributes?: readonly AttributeFilter[],
    ): Promise<ProductListItem[]> {
      const search = await searchOf(query.q);
      // A deep page, or one narrowed to a vehicle (a join of its own), is sorted whole.
      if (search && !vehicle && query.offset + query.limit <= RANKED_PROBE) {
        return rankedPage(query, search, attributes);
      }
      const order = [...(search ? [asc(searchTier(search))] : []), ...orderings[query.sort]];
      const where = whereOf(query, search, vehicle, true, attributes);
      return listed(db, where, order, query, search, vehicle);
    },

    /** How many products match the filters (all of them without any). */
    async count(
      filters: ProductFilters,
      vehicle?: VehicleMatch,
      attributes?: readonly AttributeFilter[],
    ): Promise<number> {
      const search = await searchOf(filters.q);
      const [row] = await db
        .select({ total: count() })
        .from(products)
        .where(whereOf(filters, search, vehicle, true, attributes));
      return row?.total ?? 0;
    },

    /** The list's condition for these filters, for counting facets (attributes/facets.ts). */
    async matching(
      filters: ProductFilters,
      vehicle: VehicleMatch | undefined,
      attributes: readonly AttributeFilter[],
    ): Promise<SQL | undefined> {
      return whereOf(filters, await searchOf(filters.q), vehicle, true, attributes);
    },

    /**
     * What to offer when a search finds nothing: product names and categories spelt like it
     * (trigram similarity), best first.
     */
    async suggestions(q: string): Promise<string[]> {
      const text = q.toLowerCase();
      const result = await db.execute<{ suggestion: string }>(sql`
        select suggestion from (
          select name as suggestion, word_similarity(${text}, lower(name)) as score from products
          where ${text} <% lower(name) or word_similarity(${text}, lower(name)) >= 0.3
          union all
          select c, word_similarity(${text}, lower(c)) from unnest(${sql.raw(
            `array[${productCategories.map((c) => `'${c}'`).join(",")}]`,
          )}::text[]) as c
          where word_similarity(${text}, lower(c)) >= 0.3
        ) s
        order by score desc, suggestion limit 5`);
      return [...new Set(result.rows.map((r) => r.suggestion))];
    },

    /** A product with its cross-references and attribute values: one statement. */
    async get(id: string): Promise<ProductDetail | undefined> {
      const [read] = await db
        .select(productDetailColumns)
        .from(products)
        .where(eq(products.id, id));
      return read && productDetailOf(read);
    },

    /** Adds a product; the creator is the signed-in admin, never a name taken from the body. */
    async create(creatorEmail: string, input: ProductCreate, actor?: AuditActor) {
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(products)
            .values({
              ...newProductValues(input, creatorEmail),
              breaks: storedBreaks(input.breaks ?? []),
            })
            .returning();
          const refs = await replaceCrossReferences(tx, row!.id, input.crossReferences ?? []);
          await recordWebhookEvent(tx, { type: "product.created", data: productEventData(row!) });
          if (actor) {
            await recordAdminAction(tx, {
              actor,
              action: "product.create",
              target: { type: "product", id: row!.id },
              summary: `Added ${row!.name} (${row!.partNumber})`,
            });
          }
          // A new product has no attribute values yet (PUT /products/:id/attributes sets them).
          return toAdminProduct(row!, refs, []);
        });
      } catch (e) {
        throw partNumberTaken(e, input.partNumber) ?? e;
      }
    },

    /**
     * Edits some fields. The row is locked while the edit is checked against the merged product,
     * so an order reserving stock meanwhile cannot interleave with the check.
     */
    async update(id: string, input: ProductUpdate, actor?: AuditActor): Promise<AdminProduct> {
      return db
        .transaction(async (tx) => {
          const [current] = await tx
            .select()
            .from(products)
            .where(eq(products.id, id))
            .for("update");
          if (!current) throw notFound("Product not found");
          if (
            input.availableQuantity !== undefined &&
            input.availableQuantityWas !== undefined &&
            input.availableQuantityWas !== current.availableQuantity
          ) {
            const message = productFieldMessages.stockChanged(current.availableQuantity);
            throw conflict(message, "availableQuantity");
          }
          // Orders may leave stock below the minimum; a price-only edit must still go through, so
          // the pair is checked only when the edit touches one of them.
          const touchesStock =
            input.minimumOrder !== undefined || input.availableQuantity !== undefined;
          const minimumOrder = input.minimumOrder ?? current.minimumOrder;
          const availableQuantity = input.availableQuantity ?? current.availableQuantity;
          if (touchesStock && minimumOrder > availableQuantity) throw minimumAboveStock();
          // The trade minimum stays a whole number of packs, whichever of the two the edit sets.
          const packSize = input.packSize ?? current.packSize;
          const touchesPacks = input.minimumOrder !== undefined || input.packSize !== undefined;
          if (touchesPacks && minimumOrder % packSize !== 0) throw minimumNotInPacks(packSize);
          if (input.availableQuantity !== undefined) {
            const elsewhere = (await onSaleElsewhere(tx, [id])).get(id) ?? 0;
            if (availableQuantity < elsewhere) {
              const message = productFieldMessages.belowLocations(elsewhere);
              throw unprocessable(message, "availableQuantity");
            }
          }
          // Every public break stays cheaper than the price, whichever of the two the edit sets.
          if (input.breaks !== undefined || input.price !== undefined) {
            const priceCents =
              input.price !== undefined ? unitsToCents(input.price) : current.priceCents;
            const breaks = input.breaks !== undefined ? storedBreaks(input.breaks) : current.breaks;
            if (breaks.some((b) => b.unitPriceCents >= priceCents)) throw breakNotCheaper();
          }
          const columns = toColumns(input);
          const [row] =
            Object.keys(columns).length > 0
              ? await tx.update(products).set(columns).where(eq(products.id, id)).returning()
              : [current];
          const refs = input.crossReferences
            ? await replaceCrossReferences(tx, id, input.crossReferences)
            : await crossReferencesOf(tx, id);
          const changed = Object.keys(input).filter((k) => k !== "availableQuantityWas");
          if (changed.length > 0) {
            await recordWebhookEvent(tx, {
              type: "product.updated",
              data: productEventData(row!, { fields: changed.join(",") }),
            });
          }
          if (actor) {
            const fields = Object.keys(input).filter((k) => k !== "availableQuantityWas");
            await recordAdminAction(tx, {
              actor,
              action: "product.edit",
              target: { type: "product", id },
              summary: `Edited ${row!.name} (${row!.partNumber}): ${fields.join(", ") || "nothing"}`,
            });
          }
          return toAdminProduct(row!, refs, await attributesOfProduct(tx, id));
        })
        .catch((e: unknown) => {
          throw partNumberTaken(e, input.partNumber) ?? e;
        });
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
