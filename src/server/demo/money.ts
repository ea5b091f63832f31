import { count } from "drizzle-orm";
import type { Db } from "../db/database";
import { advisoryLocks, waitForLock } from "../db/advisory-locks";
import { seedDemoShipping } from "../shipping/demo";
import { shippingZones } from "../shipping/tables";
import { seedDemoTax } from "../tax/demo";
import { taxRates } from "../tax/tables";

/**
 * Demo shipping zones (the US; the European Union; the United Kingdom) and tax rates (a few US states' sales tax, EU
 * VAT), so the demo store charges delivery and tax. Added when the store has neither zones nor
 * rates; an admin's own are never touched. Returns whether it inserted them.
 */
export async function seedDemoMoney(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    await waitForLock(tx, advisoryLocks.seedDemoMoney);
    const [zones] = await tx.select({ n: count() }).from(shippingZones);
    const [rates] = await tx.select({ n: count() }).from(taxRates);
    if ((zones?.n ?? 0) > 0 || (rates?.n ?? 0) > 0) return false;
    await seedDemoShipping(tx);
    await seedDemoTax(tx);
    return true;
  });
}
