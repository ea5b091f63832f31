import { asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Product, ProductListQuery } from "../../contract/products";
import type { DbOrTx } from "../db/database";
import { products, productSearchText } from "../db/schema";
import { centsToUnits } from "../money";

type ProductRow = typeof products.$inferSelect;

export function toProduct(row: ProductRow): Product {
  return {
    _id: row.id,
    img: row.img,
    name: row.name,
    price: centsToUnits(row.priceCents),
    minimumOrder: row.minimumOrder,
    availableQuantity: row.availableQuantity,
    shortDescription: row.shortDescription,
    warranty: row.warrantyMonths,
    createdAt: row.createdAt.toISOString(),
  };
}

const orderings: Record<ProductListQuery["sort"], SQL[]> = {
  newest: [desc(products.createdAt), desc(products.id)],
  price_asc: [asc(products.priceCents), asc(products.id)],
  price_desc: [desc(products.priceCents), desc(products.id)],
  name: [asc(products.name), asc(products.id)],
};

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createCatalogService(db: DbOrTx) {
  return {
    async list(query: ProductListQuery): Promise<{ items: Product[]; total: number }> {
      const filter = query.q ? sql`${productSearchText} like ${likePattern(query.q)}` : undefined;
      const [rows, [totalRow]] = await Promise.all([
        db
          .select()
          .from(products)
          .where(filter)
          .orderBy(...orderings[query.sort])
          .limit(query.limit)
          .offset(query.offset),
        db.select({ total: count() }).from(products).where(filter),
      ]);
      return { items: rows.map(toProduct), total: totalRow?.total ?? 0 };
    },

    async get(id: string): Promise<Product | undefined> {
      const [row] = await db.select().from(products).where(eq(products.id, id));
      return row ? toProduct(row) : undefined;
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
