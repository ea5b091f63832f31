import type { DbOrTx } from "../db/database";
import { shippingMethods, shippingZones } from "./tables";

/** EU member states the demo ships to (its "European Union" zone). */
const EU = ["AT", "BE", "DE", "DK", "ES", "FI", "FR", "IE", "IT", "LU", "NL", "PL", "PT", "SE"];

/**
 * The demo's shipping zones (the US; the European Union; the United Kingdom) and methods, with
 * their days in transit, so the demo's checkout shows when parts arrive (docs/shipping.md
 * "Delivery estimates").
 */
export async function seedDemoShipping(tx: DbOrTx): Promise<void> {
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
      transitMinDays: 3,
      transitMaxDays: 5,
      kind: "free_over",
      priceCents: 995,
      freeOverCents: 25_000,
    },
    {
      zoneId: us!.id,
      position: 1,
      name: "Express",
      estimate: "1-2 business days",
      transitMinDays: 1,
      transitMaxDays: 2,
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
      transitMinDays: 4,
      transitMaxDays: 7,
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
      transitMinDays: 2,
      transitMaxDays: 3,
      kind: "flat",
      priceCents: 5_995,
    },
    {
      zoneId: uk!.id,
      position: 0,
      name: "UK Tracked",
      estimate: "2-4 business days",
      transitMinDays: 2,
      transitMaxDays: 4,
      kind: "flat",
      priceCents: 1_295,
    },
  ]);
}
