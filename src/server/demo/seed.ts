import { randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { count, eq } from "drizzle-orm";
import type { Db } from "../db/database";
import { insertCredentialAccount } from "../auth/credentials";
import { insertDemoFitment, seedDemoCatalog } from "../catalog/demo";
import { ensureDemoVehicles } from "../vehicles/demo";
import { products } from "../catalog/tables";
import { seedDemoReviews } from "../reviews/demo";
import { insertUser } from "../users/service";
import { user } from "../users/tables";
import { advisoryLocks, waitForLock } from "../db/advisory-locks";

/**
 * The demo's data, loaded on a first start outside production (README, "Try it"): each module
 * writes its own part; this only says when.
 */

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
    await seedDemoCatalog(tx, now, DEMO_ADMIN_EMAIL);
    await seedDemoReviews(tx, now);
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
      await insertUser(tx, { id, email: a.email, name: a.name, role: a.role, emailVerified: true });
      await insertCredentialAccount(tx, id, passwordHash);
      return true;
    });
    if (inserted) created.push(a.email);
  }
  return created;
}

/**
 * Adds the demo vehicles (makes, models, model years, engines) and the demo products' fitment.
 * Idempotent: vehicles already there are kept, and a demo product that has any fitment row is
 * left as it is (an admin's edits survive a restart). Returns the fitment rows it inserted.
 */
export async function seedDemoFitment(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await waitForLock(tx, advisoryLocks.seedDemoFitment);
    await ensureDemoVehicles(tx);
    return insertDemoFitment(tx);
  });
}
