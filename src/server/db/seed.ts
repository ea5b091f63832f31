import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { count, eq } from "drizzle-orm";
import type { Db } from "./database";
import { account, productCrossReferences, products, reviews, user } from "./schema";
import { demoProducts } from "./seed-products";
import { advisoryLocks, waitForLock } from "./advisory-locks";

/** The demo accounts (README, "Try it"). Only created outside production. */
export const demoAccounts = {
  admin: { email: "admin@example.com", password: "admin123", name: "Avery Admin", role: "admin" },
  customer: {
    email: "customer@example.com",
    password: "customer123",
    name: "Casey Customer",
    role: "user",
  },
} as const;

export const DEMO_ADMIN_EMAIL = demoAccounts.admin.email;

const demoReviews = [
  {
    authorName: "Marta Kowalski",
    email: "marta.kowalski@example.com",
    ratings: 5,
    descreption:
      "Ordered forty brake kits for our fleet workshop. Every box arrived labelled with the OE cross-reference and fitment was spot on.",
  },
  {
    authorName: "Daniel Okafor",
    email: "daniel.okafor@example.com",
    ratings: 4,
    descreption:
      "Good alternators at a fair wholesale price. Delivery took a day longer than promised, but support kept me posted the whole way.",
  },
  {
    authorName: "Sofia Lindqvist",
    email: "sofia.lindqvist@example.com",
    ratings: 5,
    descreption:
      "The radiators are properly finished, no sharp fins and the tanks are crimped cleanly. Our customers have had zero comebacks.",
  },
  {
    authorName: "Rahul Mehta",
    email: "rahul.mehta@example.com",
    ratings: 4,
    descreption:
      "Minimum order on spark plugs is sensible for a garage our size. Paying by card was quick and the invoice came straight away.",
  },
];

/** Shipping weights of the demo parts (one unit), for the weight-band shipping rates. */
const demoWeightGrams: Record<string, number> = {
  "brake-disc-kit": 9_500,
  "oil-filter": 350,
  "iridium-spark-plugs": 60,
  "alternator-120a": 5_800,
  "aluminium-radiator": 4_200,
  "gas-shock-absorber": 2_300,
  "timing-belt-kit": 1_600,
  "clutch-kit": 7_400,
  "electric-fuel-pump": 900,
  "led-headlight": 1_100,
  "air-filter": 450,
  "water-pump": 1_300,
  "wheel-bearing-hub": 2_700,
  "wiper-blade-set": 400,
};

/**
 * Fills an empty catalog with the demo products and reviews. Products get staggered creation
 * times so "newest" is stable. Returns whether it inserted anything.
 */
export async function seedDemoData(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Serialise concurrent first starts: only one process seeds.
    await waitForLock(tx, advisoryLocks.seedDemoCatalog);
    const [row] = await tx.select({ n: count() }).from(products);
    if ((row?.n ?? 0) > 0) return false;
    const now = Date.now();
    const inserted = await tx
      .insert(products)
      .values(
        demoProducts.map((p, i) => ({
          name: p.name,
          partNumber: p.partNumber,
          category: p.category,
          img: `/images/products/${p.slug}.svg`,
          priceCents: p.priceCents,
          minimumOrder: p.minimumOrder,
          availableQuantity: p.availableQuantity,
          shortDescription: p.shortDescription,
          warrantyMonths: p.warrantyMonths,
          weightGrams: demoWeightGrams[p.slug] ?? 500,
          creatorEmail: DEMO_ADMIN_EMAIL,
          createdAt: new Date(now - (demoProducts.length - i) * 60_000),
        })),
      )
      .returning({ id: products.id, partNumber: products.partNumber });
    const idOf = new Map(inserted.map((r) => [r.partNumber, r.id]));
    await tx.insert(productCrossReferences).values(
      demoProducts.flatMap((p) =>
        p.crossReferences.map((r, position) => ({
          ...r,
          productId: idOf.get(p.partNumber)!,
          position,
        })),
      ),
    );
    await tx
      .insert(reviews)
      .values(
        demoReviews.map((r, i) => ({ ...r, createdAt: new Date(now - (i + 1) * 3_600_000) })),
      );
    return true;
  });
}

/** Creates the demo admin and customer (email/password accounts) unless they exist. */
export async function seedDemoAccounts(db: Db): Promise<string[]> {
  const created: string[] = [];
  for (const a of Object.values(demoAccounts)) {
    const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, a.email));
    if (existing) continue;
    const id = randomUUID();
    const passwordHash = await hashPassword(a.password);
    const inserted = await db.transaction(async (tx) => {
      // Processes starting together on an empty database: one creates, the others find it.
      await waitForLock(tx, advisoryLocks.seedDemoAccounts);
      const [again] = await tx.select({ id: user.id }).from(user).where(eq(user.email, a.email));
      if (again) return false;
      await tx.insert(user).values({
        id,
        email: a.email,
        name: a.name,
        role: a.role,
        emailVerified: true,
      });
      await tx.insert(account).values({
        id: randomUUID(),
        accountId: id,
        providerId: "credential",
        userId: id,
        password: passwordHash,
      });
      return true;
    });
    if (inserted) created.push(a.email);
  }
  return created;
}
