import { count } from "drizzle-orm";
import type { Db } from "./database";
import { shippingMethods, shippingZones, taxRates } from "./schema";
import { advisoryLocks, waitForLock } from "./advisory-locks";

/** EU member states the demo ships to (its "European Union" zone). */
const EU = ["AT", "BE", "DE", "DK", "ES", "FI", "FR", "IE", "IT", "LU", "NL", "PL", "PT", "SE"];

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
    const [us, eu, uk] = await tx
      .insert(shippingZones)
      .values([
        { name: "United States", countries: ["US"], createdAt: new Date(Date.now() - 2000) },
        { name: "European Union", countries: EU, createdAt: new Date(Date.now() - 1000) },
        { name: "United Kingdom", countries: ["GB"] },
      ])
      .returning({ id: shippingZones.id });
    await tx.insert(shippingMethods).values([
      {
        zoneId: us!.id,
        position: 0,
        name: "Standard",
        estimate: "3-5 business days",
        kind: "free_over",
        priceCents: 995,
        freeOverCents: 25_000,
      },
      {
        zoneId: us!.id,
        position: 1,
        name: "Express",
        estimate: "1-2 business days",
        kind: "weight",
        bands: [
          { upToGrams: 5_000, priceCents: 1_995 },
          { upToGrams: 20_000, priceCents: 3_495 },
          { upToGrams: 70_000, priceCents: 6_995 },
        ],
      },
      {
        zoneId: eu!.id,
        position: 0,
        name: "EU Standard",
        estimate: "4-7 business days",
        kind: "weight",
        bands: [
          { upToGrams: 2_000, priceCents: 1_495 },
          { upToGrams: 10_000, priceCents: 2_995 },
          { upToGrams: 30_000, priceCents: 5_495 },
        ],
      },
      {
        zoneId: eu!.id,
        position: 1,
        name: "EU Express",
        estimate: "2-3 business days",
        kind: "flat",
        priceCents: 5_995,
      },
      {
        zoneId: uk!.id,
        position: 0,
        name: "UK Tracked",
        estimate: "2-4 business days",
        kind: "flat",
        priceCents: 1_295,
      },
    ]);
    const state = (region: string, name: string, percent: number, shipping: boolean) => ({
      country: "US",
      region,
      name,
      rateMillipercent: Math.round(percent * 1000),
      appliesToShipping: shipping,
    });
    const vat = (country: string, percent: number) => ({
      country,
      region: "",
      name: "VAT",
      rateMillipercent: Math.round(percent * 1000),
      appliesToShipping: true,
    });
    await tx
      .insert(taxRates)
      .values([
        state("CA", "California sales tax", 7.25, false),
        state("TX", "Texas sales tax", 6.25, true),
        state("NY", "New York sales tax", 4, true),
        state("IL", "Illinois sales tax", 6.25, false),
        state("WA", "Washington sales tax", 6.5, true),
        state("FL", "Florida sales tax", 6, true),
        vat("DE", 19),
        vat("FR", 20),
        vat("NL", 21),
        vat("BE", 21),
        vat("AT", 20),
        vat("IT", 22),
        vat("ES", 21),
        vat("IE", 23),
        vat("PL", 23),
        vat("GB", 20),
      ]);
    return true;
  });
}
