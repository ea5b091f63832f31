import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../src/server/db/database";
import { products } from "../../src/server/catalog/tables";
import { orders } from "../../src/server/orders/tables";
import { reviews } from "../../src/server/reviews/tables";
import { baseVehicles, vehicleMakes, vehicleModels } from "../../src/server/vehicles/tables";

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

/**
 * A valid body of `POST /api/products`, as the admin's form sends it: a front brake caliper with a
 * fresh name and part number.
 */
export const caliperProductBody = () => ({
  name: `Brake caliper ${randomUUID().slice(0, 8)}`,
  partNumber: `PW-T-${randomUUID().slice(0, 8)}`,
  category: "Brakes",
  price: 89.99,
  minimumOrder: 2,
  availableQuantity: 40,
  warranty: 24,
  shortDescription: "Two-piston front caliper",
  img: "https://cdn.example.com/parts/caliper.png",
});

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

/**
 * An order row with no lines, for tests of stock moves: what the units taken for it are
 * allocated under (the allocation's order must exist when the transaction commits).
 */
export async function insertBareOrder(
  db: Db,
  shipTo: { country: string; region: string } | null = null,
): Promise<{ orderId: string; shipTo: { country: string; region: string } | null }> {
  const [row] = await db
    .insert(orders)
    .values({
      orderEmail: "stock@example.com",
      customerName: "Stock test",
      totalCents: 0,
      currency: "USD",
      phone: "+1 555 0100",
      address: "1 Test Street",
      holdExpiresAt: new Date(Date.now() + 3_600_000),
    })
    .returning({ id: orders.id });
  return { orderId: row!.id, shipTo };
}

/**
 * A model in the vehicle catalog, written straight: `make` a new make's name or an existing make's
 * id, `model` its name, built in each of `years` (a base vehicle each). Hands back `choice`, the
 * `{ year, make, model }` a customer picks (of the first year), and the base vehicles' ids in the
 * order of `years`.
 */
export async function insertVehicle(
  db: DbOrTx,
  make: string | number,
  model: string,
  years: number[],
): Promise<{ choice: { year: number; make: number; model: number }; baseVehicleIds: number[] }> {
  const makeId =
    typeof make === "number"
      ? make
      : (await db.insert(vehicleMakes).values({ name: make }).returning())[0]!.id;
  const [row] = await db.insert(vehicleModels).values({ makeId, name: model }).returning();
  const bases = await db
    .insert(baseVehicles)
    .values(years.map((year) => ({ year, modelId: row!.id })))
    .returning();
  return {
    choice: { year: years[0]!, make: makeId, model: row!.id },
    baseVehicleIds: bases.map((b) => b.id),
  };
}
