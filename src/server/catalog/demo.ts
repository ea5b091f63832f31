import { and, inArray } from "drizzle-orm";
import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import { demoFitment, type DemoApplication } from "../vehicles/demo-vehicles";
import { baseVehicles, vehicleEngines, vehicleMakes, vehicleModels } from "../vehicles/tables";
import { demoAttributeDefinitions, demoAttributeValues, demoProducts } from "./demo-products";
import type { ProductCategory } from "../../contract/constants";
import {
  definitionsOf,
  insertDefinition,
  parseAttributeValue,
  replaceProductAttributes,
} from "./attributes/writes";
import { productCrossReferences, productFitments, products } from "./tables";

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
 * Adds the demo products with their numbers, created a minute apart up to `now` (so "newest" is
 * stable); `creatorEmail` is the demo admin's.
 */
export async function seedDemoCatalog(tx: DbOrTx, now: number, creatorEmail: string) {
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
        creatorEmail,
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
  await ensureDemoAttributeDefinitions(tx);
  for (const [partNumber, values] of Object.entries(demoAttributeValues)) {
    const product = demoProducts.find((p) => p.partNumber === partNumber)!;
    await setDemoValues(tx, idOf.get(partNumber)!, product.category, values);
  }
}

/**
 * The demo categories' attribute definitions (demo-products.ts), those a category lacks by name
 * (any case) added after its own; an existing one is never changed.
 */
export async function ensureDemoAttributeDefinitions(tx: DbOrTx): Promise<void> {
  for (const [category, wanted] of Object.entries(demoAttributeDefinitions)) {
    const existing = await definitionsOf(tx, category as ProductCategory);
    const known = new Set(existing.map((d) => d.name.toLowerCase()));
    let position = existing.reduce((max, d) => Math.max(max, d.position + 1), 0);
    for (const d of wanted) {
      if (known.has(d.name.toLowerCase())) continue;
      await insertDefinition(tx, {
        category: category as ProductCategory,
        name: d.name,
        kind: d.kind,
        unit: d.unit ?? null,
        choices: d.choices ?? [],
        position: position++,
        filterable: true,
      });
    }
  }
}

/** A demo part's values by attribute name, checked as the product screen checks them. */
async function setDemoValues(
  tx: DbOrTx,
  productId: string,
  category: ProductCategory,
  values: Record<string, string>,
) {
  const defs = await definitionsOf(tx, category);
  const stored = Object.entries(values).map(([name, raw]) => {
    const def = defs.find((d) => d.name.toLowerCase() === name.toLowerCase());
    if (!def) throw new Error(`demo: ${category} has no attribute ${name}`);
    const parsed = parseAttributeValue(def, raw);
    if ("error" in parsed) throw new Error(`demo: ${parsed.error}`);
    return { attributeId: def.id, ...parsed };
  });
  await replaceProductAttributes(tx, productId, stored);
}

/**
 * Adds the demo products' fitment (demo-vehicles.ts names it); a demo product that has any
 * fitment row is left as it is (an admin's edits survive a restart). Returns the rows inserted.
 */
export async function insertDemoFitment(tx: DbOrTx): Promise<number> {
  const partNumbers = Object.keys(demoFitment);
  const targets = await tx
    .select({ id: products.id, partNumber: products.partNumber })
    .from(products)
    .where(
      and(
        inArray(products.partNumber, partNumbers),
        sql`not exists (select 1 from ${productFitments} f where f.product_id = ${products.id})`,
      ),
    );
  let inserted = 0;
  for (const product of targets) {
    for (const app of demoFitment[product.partNumber] ?? []) {
      inserted += await insertApplication(tx, product.id, app);
    }
  }
  return inserted;
}

async function insertApplication(tx: DbOrTx, productId: string, app: DemoApplication) {
  const rows = await tx.execute<{ id: number; engine_id: number | null }>(sql`
    select bv.id, e.id as engine_id
    from ${baseVehicles} bv
    join ${vehicleModels} m on m.id = bv.model_id
    join ${vehicleMakes} mk on mk.id = m.make_id
    left join ${vehicleEngines} e on e.name = ${app.engine ?? null}
    where mk.name = ${app.make} and m.name = ${app.model}
      and bv.year between ${app.years[0]} and ${app.years[1]}`);
  if (rows.rows.length === 0) return 0;
  const result = await tx
    .insert(productFitments)
    .values(
      rows.rows.map((r) => ({
        productId,
        baseVehicleId: r.id,
        engineId: r.engine_id,
        position: app.position ?? null,
        quantity: app.quantity ?? 1,
        note: app.note ?? null,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: productFitments.id });
  return result.length;
}
