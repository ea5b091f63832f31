import { eq } from "drizzle-orm";
import type { Db } from "../../src/server/db/database";
import { products } from "../../src/server/catalog/tables";
import { reviews } from "../../src/server/reviews/tables";

let n = 0;

export async function insertProduct(
  db: Db,
  overrides: Partial<typeof products.$inferInsert> = {},
): Promise<typeof products.$inferSelect> {
  n += 1;
  const [row] = await db
    .insert(products)
    .values({
      name: `Test part ${n}`,
      partNumber: `TP-${process.pid}-${n}`,
      category: "Other",
      img: "/images/products/oil-filter.svg",
      priceCents: 1000 + n,
      minimumOrder: 2,
      availableQuantity: 100,
      shortDescription: `Description of test part ${n}`,
      warrantyMonths: 12,
      creatorEmail: "admin@example.com",
      ...overrides,
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

export async function insertReview(
  db: Db,
  overrides: Partial<typeof reviews.$inferInsert> = {},
): Promise<typeof reviews.$inferSelect> {
  n += 1;
  const [row] = await db
    .insert(reviews)
    .values({
      authorName: `Reviewer ${n}`,
      email: `reviewer${n}@example.com`,
      ratings: 4,
      descreption: `Review text ${n}`,
      ...overrides,
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return row;
}

/** A product's stock as the database holds it now (its available quantity; none once deleted). */
export async function availableQuantityOf(db: Db, productId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ n: products.availableQuantity })
    .from(products)
    .where(eq(products.id, productId));
  return row?.n;
}
