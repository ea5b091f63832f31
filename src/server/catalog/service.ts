import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import {
  productFieldMessages,
  type AdminProduct,
  type Product,
  type ProductCreate,
  type ProductListQuery,
  type ProductUpdate,
} from "../../contract/products";
import type { Db, DbOrTx } from "../db/database";
import { orderItems, orders, products, productSearchText } from "../db/schema";
import { conflict, HttpError, notFound } from "../errors";
import { centsToUnits, unitsToCents } from "../money";
import { containsPattern } from "../db/like";

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

export function toAdminProduct(row: ProductRow): AdminProduct {
  return { ...toProduct(row), email: row.creatorEmail };
}

export const unpaidOrdersMessage =
  "This product has unpaid orders; wait until they are paid or cancelled";

const searchFilter = (q: string | undefined) =>
  q ? sql`${productSearchText} like ${containsPattern(q)}` : undefined;

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

export function createCatalogService(db: Db) {
  return {
    /** One page of products (the route caches it; see read-cache.ts). */
    async page(query: ProductListQuery): Promise<Product[]> {
      const rows = await db
        .select()
        .from(products)
        .where(searchFilter(query.q))
        .orderBy(...orderings[query.sort])
        .limit(query.limit)
        .offset(query.offset);
      return rows.map(toProduct);
    },

    /** How many products match (all of them without `q`). */
    async count(q: string | undefined): Promise<number> {
      const [row] = await db.select({ total: count() }).from(products).where(searchFilter(q));
      return row?.total ?? 0;
    },

    async get(id: string): Promise<Product | undefined> {
      const [row] = await db.select().from(products).where(eq(products.id, id));
      return row ? toProduct(row) : undefined;
    },

    /** Adds a product; the creator is the signed-in admin, never a name taken from the body. */
    async create(creatorEmail: string, input: ProductCreate, tx: DbOrTx = db) {
      const [row] = await tx
        .insert(products)
        .values({
          name: input.name,
          img: input.img,
          priceCents: unitsToCents(input.price),
          minimumOrder: input.minimumOrder,
          availableQuantity: input.availableQuantity,
          shortDescription: input.shortDescription,
          warrantyMonths: input.warranty,
          creatorEmail,
        })
        .returning();
      return toAdminProduct(row!);
    },

    /**
     * Edits some fields. The row is locked while the edit is checked against the merged product,
     * so an order reserving stock meanwhile cannot interleave with the check.
     */
    async update(id: string, input: ProductUpdate): Promise<AdminProduct> {
      return db.transaction(async (tx) => {
        const [current] = await tx.select().from(products).where(eq(products.id, id)).for("update");
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
        const [row] = await tx
          .update(products)
          .set(toColumns(input))
          .where(eq(products.id, id))
          .returning();
        return toAdminProduct(row!);
      });
    },

    /**
     * Deletes a product unless a customer still holds stock of it in an unpaid order. The product
     * row is locked first: placing an order updates that row, so no order can slip in between
     * the check and the delete. Paid orders keep their product name and price (productId -> null).
     */
    async remove(id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ id: products.id })
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
      });
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
