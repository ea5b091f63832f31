import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import {
  normalizePartNumber,
  productCategories,
  type CrossReferenceKind,
} from "../../contract/constants";
import {
  productFieldMessages,
  type AdminProduct,
  type CrossReference,
  type CrossReferenceInput,
  type Product,
  type ProductCreate,
  type ProductDetail,
  type ProductListItem,
  type ProductListQuery,
  type ProductUpdate,
} from "../../contract/products";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import {
  orderItems,
  orders,
  productCrossReferences,
  products,
  productSearchText,
} from "../db/schema";
import { conflict, HttpError, notFound } from "../errors";
import { centsToUnits, unitsToCents } from "../money";
import { containsPattern } from "../db/like";
import type { FitmentDetail } from "../../contract/vehicles";
import { fitDetailsColumn, fitsCondition, type VehicleMatch } from "../fitment/service";

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
    availableQuantity: row.availableQuantity,
    shortDescription: row.shortDescription,
    warranty: row.warrantyMonths,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toAdminProduct(row: ProductRow, crossReferences: CrossReference[]): AdminProduct {
  return { ...toProduct(row), crossReferences, email: row.creatorEmail };
}

export const unpaidOrdersMessage =
  "This product has unpaid orders; wait until they are paid or cancelled";

/** The filters of a list (everything but sort and paging): what its total depends on. */
export type ProductFilters = Omit<ProductListQuery, "sort" | "limit" | "offset">;

/** A search split into what the SQL needs; see docs/decisions/009-catalog-search.md. */
export interface Search {
  /** The words, letters and digits only (a dash or dot splits a word), stop words left out. */
  words: string[];
  /** The text had words, even if every one was a stop word (which then asks nothing). */
  hadWords: boolean;
  /** Every word as a prefix of a name word, all required: `brake:*A & pads:*A`. */
  allWordsInName: string;
  /** The whole search as a part number (upper-case letters and digits), or "" if too short. */
  number: string;
  /** The literal text, lower-cased, as a LIKE pattern (`%` and `_` taken literally). */
  literal: string;
}

/** Words shorter than this never match by spelling similarity alone (too many false hits). */
const MIN_TYPO_WORD = 4;
/** A number this long or longer also matches numbers that start with it. */
const MIN_NUMBER_PREFIX = 4;
const MAX_WORDS = 10;

/** The words of a search, lower-case. */
export function searchWords(q: string): string[] {
  return q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_WORDS);
}

/**
 * @param isStopWord words the english dictionary ignores ("for", "the") ask nothing: they are
 *   left out (see `stopWords` in the service).
 */
export function parseSearch(
  q: string,
  isStopWord: (word: string) => boolean = () => false,
): Search {
  const all = searchWords(q);
  const words = all.filter((w) => !isStopWord(w));
  const number = normalizePartNumber(q);
  return {
    words,
    hadWords: all.length > 0,
    allWordsInName: words.map((w) => `${w}:*A`).join(" & "),
    number: number.length >= 2 ? number : "",
    literal: containsPattern(q),
  };
}

/*
 * Every arm below is one indexed condition on `products` (the stored document's GIN index, the
 * trigram indexes), so PostgreSQL combines them as bitmap scans instead of reading every row.
 * The words in a tsquery are letters and digits only (split above), so they need no quoting.
 */
const englishQuery = (text: string) => sql`to_tsquery('english'::regconfig, ${text})`;
const simpleQuery = (text: string) => sql`to_tsquery('simple'::regconfig, ${text})`;

/** The number as a query on the document's numbers (weight C): equal, or from 4 characters a prefix. */
function numberQuery(number: string): string {
  const n = number.toLowerCase();
  return number.length >= MIN_NUMBER_PREFIX ? `${n}:*C` : `${n}:C`;
}

/** The whole search is one of the product's numbers (ours or a cross-reference), or starts one. */
function numberHit(number: string): SQL {
  if (!number) return sql`false`;
  return sql`${products.searchDocument} @@ ${simpleQuery(numberQuery(number))}`;
}

/**
 * One word is found in the name, description or category (stemmed, as a prefix), at the start of
 * a cross-reference number, as a brand, anywhere in our part number, or spelt nearly so.
 */
function wordMatches(word: string): SQL {
  const number = normalizePartNumber(word);
  const inDocument = sql`${products.searchDocument} @@ (${englishQuery(`${word}:*AB`)}
    || ${simpleQuery(`${word}:D`)}
    ${number.length >= 3 ? sql`|| ${simpleQuery(`${number.toLowerCase()}:*C`)}` : sql``})`;
  return sql`(${inDocument}
    ${word.length >= MIN_TYPO_WORD ? sql`or ${word} <% ${productSearchText}` : sql``}
    ${number.length >= 3 ? sql`or ${products.partNumberNormalized} like ${`%${number}%`}` : sql``})`;
}

function searchCondition(search: Search): SQL {
  const literal = sql`${productSearchText} like ${search.literal}`;
  if (!search.hadWords) return literal;
  const allWords = search.words.length > 0 ? and(...search.words.map(wordMatches)) : sql`true`;
  // Cheapest and most often true first: PostgreSQL evaluates an OR's arms in the order written,
  // and rechecks every row a bitmap scan found.
  return sql`((${allWords}) or ${numberHit(search.number)} or ${literal})`;
}

function whereOf(
  filters: ProductFilters,
  search: Search | undefined,
  vehicle?: VehicleMatch,
): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    vehicle ? fitsCondition(productIdColumn, vehicle) : undefined,
    search ? searchCondition(search) : undefined,
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
  ];
  return and(...conditions.filter((c): c is SQL => c !== undefined));
}

/** 0: a number matched; 1: every word is in the name; 2: anything else (description, spelling). */
function tier(search: Search): SQL<number> {
  const inName = search.allWordsInName
    ? sql`${products.searchDocument} @@ ${englishQuery(search.allWordsInName)}`
    : sql`false`;
  return sql<number>`case when ${numberHit(search.number)} then 0 when ${inName} then 1 else 2 end`;
}

/**
 * The product's id, qualified: Drizzle writes a one-table select's columns unqualified, which
 * inside a subquery on the cross-references would mean their own id.
 */
const productIdColumn = sql.raw(`"products"."id"`);

/** Stop words remembered (english dictionary: "for", "the"); bounded, words come from shoppers. */
const MAX_REMEMBERED_WORDS = 10_000;

interface NumberMatch {
  kind: CrossReferenceKind | "ours";
  brand: string;
  number: string;
}

/** The number a search hit, best first: ours, then an exact cross-reference, then a prefix. */
function matchedNumber(number: string): SQL<string | null> {
  if (!number) return sql`null`;
  const prefix = number.length >= MIN_NUMBER_PREFIX ? `${number}%` : number;
  // As JSON text: the driver hands jsonb over as text in this select.
  return sql<string | null>`case when ${products.partNumberNormalized} like ${prefix}
    then json_build_object('kind', 'ours', 'brand', '', 'number', ${products.partNumber})::text
    else (select json_build_object('kind', r.kind, 'brand', r.brand, 'number', r.number)::text
      from ${productCrossReferences} r
      where r.product_id = ${productIdColumn} and r.number_normalized like ${prefix}
      order by r.number_normalized = ${number} desc, r.position limit 1) end`;
}

/** Why a product was found, in words for its card. */
export function describeMatch(m: NumberMatch): string {
  switch (m.kind) {
    case "ours":
      return `matches part number ${m.number}`;
    case "OE":
      return `matches OE ${m.number} (${m.brand})`;
    case "competitor":
      return `matches ${m.brand} ${m.number}`;
    case "superseded":
      return `replaces ${m.brand} ${m.number}`;
  }
}

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
    ...(input.availableQuantity !== undefined && { availableQuantity: input.availableQuantity }),
    ...(input.shortDescription !== undefined && { shortDescription: input.shortDescription }),
    ...(input.warranty !== undefined && { warrantyMonths: input.warranty }),
  };
}

const minimumAboveStock = () =>
  new HttpError(400, "validation", `minimumOrder: ${productFieldMessages.minimumAboveStock}`, {
    minimumOrder: productFieldMessages.minimumAboveStock,
  });

/** A product's cross-references in the order the admin listed them. */
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

async function replaceCrossReferences(
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

/** A unique part number taken by another product, as the 409 the admin reads. */
function partNumberTaken(err: unknown, partNumber: string | undefined): HttpError | undefined {
  for (let e = err, hops = 0; e && typeof e === "object" && hops < 5; hops++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === "23505" && constraint === "products_part_number_normalized_unique") {
      const message = productFieldMessages.partNumberTaken(partNumber?.toUpperCase() ?? "");
      return new HttpError(409, "conflict", message, { partNumber: message });
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function createCatalogService(db: Db) {
  const stopWords = new Map<string, boolean>();

  /** The search of a query, its stop words asked of the database once per word. */
  async function searchOf(q: string | undefined): Promise<Search | undefined> {
    if (!q) return undefined;
    const unknown = searchWords(q).filter((w) => !stopWords.has(w));
    if (unknown.length > 0) {
      const result = await db.execute<{ word: string; stop: boolean }>(sql`
        select w as word, numnode(to_tsquery('english'::regconfig, w || ':*')) = 0 as stop
        from unnest(${`{${unknown.map((w) => `"${w}"`).join(",")}}`}::text[]) as w`);
      if (stopWords.size + unknown.length > MAX_REMEMBERED_WORDS) stopWords.clear();
      for (const { word, stop } of result.rows) stopWords.set(word, stop);
    }
    return parseSearch(q, (w) => stopWords.get(w) ?? false);
  }

  return {
    /** One page of products (the route caches it; see read-cache.ts). */
    async page(query: ProductListQuery, vehicle?: VehicleMatch): Promise<ProductListItem[]> {
      const search = await searchOf(query.q);
      const rows = await db
        .select({
          product: products,
          matched: search ? matchedNumber(search.number) : sql<null>`null`,
          fit: vehicle ? fitDetailsColumn(productIdColumn, vehicle) : sql<null>`null`,
        })
        .from(products)
        .where(whereOf(query, search, vehicle))
        .orderBy(...(search ? [asc(tier(search))] : []), ...orderings[query.sort])
        .limit(query.limit)
        .offset(query.offset);
      return rows.map(({ product, matched, fit }) => ({
        ...toProduct(product),
        ...(matched && { matched: describeMatch(JSON.parse(matched) as NumberMatch) }),
        ...(vehicle && {
          fit: { fits: true, details: fit ? (JSON.parse(fit) as FitmentDetail[]) : [] },
        }),
      }));
    },

    /** How many products match the filters (all of them without any). */
    async count(filters: ProductFilters, vehicle?: VehicleMatch): Promise<number> {
      const search = await searchOf(filters.q);
      const [row] = await db
        .select({ total: count() })
        .from(products)
        .where(whereOf(filters, search, vehicle));
      return row?.total ?? 0;
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

    async get(id: string): Promise<ProductDetail | undefined> {
      const [row] = await db.select().from(products).where(eq(products.id, id));
      if (!row) return undefined;
      return { ...toProduct(row), crossReferences: await crossReferencesOf(db, id) };
    },

    /** Adds a product; the creator is the signed-in admin, never a name taken from the body. */
    async create(creatorEmail: string, input: ProductCreate, actor?: AuditActor) {
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(products)
            .values({
              name: input.name,
              partNumber: input.partNumber.toUpperCase(),
              category: input.category,
              img: input.img,
              priceCents: unitsToCents(input.price),
              minimumOrder: input.minimumOrder,
              availableQuantity: input.availableQuantity,
              shortDescription: input.shortDescription,
              warrantyMonths: input.warranty,
              creatorEmail,
            })
            .returning();
          const refs = await replaceCrossReferences(tx, row!.id, input.crossReferences ?? []);
          if (actor) {
            await recordAdminAction(tx, {
              actor,
              action: "product.create",
              target: { type: "product", id: row!.id },
              summary: `Added ${row!.name} (${row!.partNumber})`,
            });
          }
          return toAdminProduct(row!, refs);
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
            throw new HttpError(409, "conflict", message, { availableQuantity: message });
          }
          // Orders may leave stock below the minimum; a price-only edit must still go through, so
          // the pair is checked only when the edit touches one of them.
          const touchesStock =
            input.minimumOrder !== undefined || input.availableQuantity !== undefined;
          const minimumOrder = input.minimumOrder ?? current.minimumOrder;
          const availableQuantity = input.availableQuantity ?? current.availableQuantity;
          if (touchesStock && minimumOrder > availableQuantity) throw minimumAboveStock();
          const columns = toColumns(input);
          const [row] =
            Object.keys(columns).length > 0
              ? await tx.update(products).set(columns).where(eq(products.id, id)).returning()
              : [current];
          const refs = input.crossReferences
            ? await replaceCrossReferences(tx, id, input.crossReferences)
            : await crossReferencesOf(tx, id);
          if (actor) {
            const fields = Object.keys(input).filter((k) => k !== "availableQuantityWas");
            await recordAdminAction(tx, {
              actor,
              action: "product.edit",
              target: { type: "product", id },
              summary: `Edited ${row!.name} (${row!.partNumber}): ${fields.join(", ") || "nothing"}`,
            });
          }
          return toAdminProduct(row!, refs);
        })
        .catch((e: unknown) => {
          throw partNumberTaken(e, input.partNumber) ?? e;
        });
    },

    /**
     * Deletes a product unless a customer still holds stock of it in an unpaid order. The product
     * row is locked first: placing an order updates that row, so no order can slip in between
     * the check and the delete. Paid orders keep their product name and price (productId -> null).
     */
    async remove(id: string, actor?: AuditActor): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ id: products.id, name: products.name, partNumber: products.partNumber })
          .from(products)
          .where(eq(products.id, id))
          .for("update");
        if (!row) throw notFound("Product not found");
        const [unpaid] = await tx
          .select({ id: orders.id })
          .from(orderItems)
          .innerJoin(orders, eq(orders.id, orderItems.orderId))
          .where(and(eq(orderItems.productId, id), eq(orders.status, "unpaid")))
          .limit(1);
        if (unpaid) throw conflict(unpaidOrdersMessage);
        await tx.delete(products).where(eq(products.id, id));
        if (actor) {
          await recordAdminAction(tx, {
            actor,
            action: "product.delete",
            target: { type: "product", id },
            summary: `Deleted ${row.name} (${row.partNumber})`,
          });
        }
      });
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
