import { z } from "zod";
import { productBackorderSchema } from "./availability";
import { crossReferenceSchema, productDetailSchema } from "./products";
import { text } from "./text";
import { applicationGroupSchema } from "./vehicles";

/** A picture or document of a part, by its https address. */
export const partAssetSchema = z.object({ title: z.string(), url: z.string() });
export type PartAsset = z.infer<typeof partAssetSchema>;

/**
 * A part's public page (`/parts/{slug}`, docs/catalog.md "Part pages"): what anyone may read
 * without signing in. The list price and the public quantity breaks (never a company's), in stock
 * or not (never how many, nor where) and its backorder offer (the date one more unit can be
 * promised), the numbers it replaces and the vehicles it fits.
 */
export const partPageSchema = productDetailSchema
  .pick({
    _id: true,
    name: true,
    partNumber: true,
    category: true,
    img: true,
    shortDescription: true,
    price: true,
    taxIncluded: true,
    breaks: true,
    minimumOrder: true,
    retailMinimum: true,
    packSize: true,
    warranty: true,
    coreDeposit: true,
    weightGrams: true,
    lengthMm: true,
    widthMm: true,
    heightMm: true,
    attributes: true,
  })
  .extend({
    /** Who makes it: the part's brand, or the store's own (`STORE_BRAND`) when it has none. */
    brand: z.string(),
    /** More pictures besides `img` (https addresses), in their order. */
    images: z.array(partAssetSchema),
    /** Documents such as installation guides (https addresses), in their order. */
    documents: z.array(partAssetSchema),
    /** The page's address: `/parts/{slug}` (`partSlug` in contract/paths.ts). */
    slug: z.string(),
    /** The store's currency (ISO 4217), which `price` and `breaks` are in. */
    currency: z.string().length(3),
    inStock: z.boolean(),
    /** Its backorder offer as DESIGN.md §8 names it (no count of the units coming); null: none. */
    backorder: productBackorderSchema.pick({ available: true, expectedOn: true }).nullable(),
    crossReferences: z.array(crossReferenceSchema),
    /** The vehicles it fits, by make and model, the years as ranges. */
    applications: z.array(applicationGroupSchema),
  });
export type PartPage = z.infer<typeof partPageSchema>;

/** The brand a part without one is shown under: the store's own. */
export const STORE_BRAND = "PartsWorks";

export const partParamsSchema = z.object({
  slug: text()
    .trim()
    .min(1, "Name a part")
    .max(200, "No part has so long an address")
    .regex(/^[A-Za-z0-9-]+$/, "A part's address has only letters, digits and hyphens"),
});
