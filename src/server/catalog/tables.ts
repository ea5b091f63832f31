import { sql } from "../db/sql";
import {
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { requiredUuidRef, timestampNow, uuidPrimaryKey } from "../db/columns";
import { crossReferenceKinds, productCategories } from "../../contract/constants";
import type { PriceBreak } from "../money";
import { baseVehicles, vehicleEngines, vehicleSubmodels } from "../vehicles/tables";

/** Text searched by the catalog's `q` filter; the trigram index below is built on the same expression. */
export const productSearchText = sql`(lower(name || ' ' || short_description))`;

/** The name's `english` words, as in the search document's weight A (and indexed on their own). */
export const productNameWords = sql`to_tsvector('english'::regconfig, name)`;

/**
 * A product's stored search document (migration 0008 keeps it up to date with triggers): the name
 * (weight A) and the description and category (B) as `english` words, our part number and every
 * cross-reference number normalised (C), and the cross-references' brands (D).
 */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** A part number as compared: letters and digits only, upper-case (as `normalizePartNumber`). */
const normalizedNumber = (column: string) =>
  sql.raw(`upper(regexp_replace(${column}, '[^A-Za-z0-9]', '', 'g'))`);

export const products = pgTable(
  "products",
  {
    id: uuidPrimaryKey(),
    name: text("name").notNull(),
    /** Our part number as written (upper-case); unique by its normalised form below. */
    partNumber: text("part_number").notNull(),
    partNumberNormalized: text("part_number_normalized")
      .notNull()
      .generatedAlwaysAs(normalizedNumber("part_number")),
    category: text("category", { enum: productCategories }).notNull(),
    img: text("img").notNull(),
    /** Unit price in minor units (cents). */
    priceCents: integer("price_cents").notNull(),
    minimumOrder: integer("minimum_order").notNull(),
    /** What a retail customer or a visitor buys at least (docs/pricing.md "Quantities by group"). */
    retailMinimum: integer("retail_minimum").notNull().default(1),
    /** Trade groups order this part in multiples of it (1: any quantity). */
    packSize: integer("pack_size").notNull().default(1),
    availableQuantity: integer("available_quantity").notNull(),
    shortDescription: text("short_description").notNull(),
    warrantyMonths: integer("warranty_months").notNull(),
    /** Shipping weight of one unit in grams (weight-band shipping rates); 0 when not given. */
    weightGrams: integer("weight_grams").notNull().default(0),
    /** The package's outside measures in millimetres (the product page); null when not given. */
    lengthMm: integer("length_mm"),
    widthMm: integer("width_mm"),
    heightMm: integer("height_mm"),
    /** Stock below this is low (admin home, low-stock email); null: 2 × the minimum order. */
    reorderLevel: integer("reorder_level"),
    /**
     * A remanufacturable part's core deposit per unit, in minor units (docs/core-charges.md):
     * charged as its own line and refunded when the old part comes back; null: no deposit.
     */
    coreDepositCents: integer("core_deposit_cents"),
    /**
     * Public quantity breaks for everyone, visitors included (docs/pricing.md): sorted by
     * minQty, each minQty once, each cheaper than the price (checked before it is written).
     */
    breaks: jsonb("breaks").$type<PriceBreak[]>().notNull().default([]),
    /** The Auto Care brand code (PIES and ACES `BrandAAIAID`, e.g. "BKRW"); null: the store's own. */
    brandCode: text("brand_code"),
    /** The brand as shown (PIES `BrandLabel`); null: the store's name. */
    brand: text("brand"),
    creatorEmail: text("creator_email").notNull(),
    createdAt: timestampNow("created_at"),
    /** The part page's address (`partSlug` in contract/paths.ts), kept by PostgreSQL. */
    slug: text("slug")
      .notNull()
      .generatedAlwaysAs(
        sql.raw(
          `lower(btrim(regexp_replace(part_number || '-' || name, '[^A-Za-z0-9]+', '-', 'g'), '-'))`,
        ),
      ),
    /** Written by triggers only (see `tsvector` above); never set by the application. */
    searchDocument: tsvector("search_document")
      .notNull()
      .default(sql`''::tsvector`),
  },
  (t) => [
    check("products_price_nonnegative", sql`${t.priceCents} >= 0`),
    check("products_minimum_order_positive", sql`${t.minimumOrder} >= 1`),
    check("products_retail_minimum_range", sql`${t.retailMinimum} between 1 and 10000000`),
    check("products_pack_size_range", sql`${t.packSize} between 1 and 10000000`),
    check("products_stock_nonnegative", sql`${t.availableQuantity} >= 0`),
    check("products_warranty_nonnegative", sql`${t.warrantyMonths} >= 0`),
    check("products_weight_nonnegative", sql`${t.weightGrams} >= 0`),
    check(
      "products_dimensions_positive",
      sql`${t.lengthMm} > 0 and ${t.widthMm} > 0 and ${t.heightMm} > 0`,
    ),
    check("products_reorder_level_nonnegative", sql`${t.reorderLevel} >= 0`),
    check("products_core_deposit_positive", sql`${t.coreDepositCents} > 0`),
    check("products_brand_code_valid", sql`${t.brandCode} ~ '^[A-Z0-9]{1,20}$'`),
    check("products_brand_length", sql`char_length(${t.brand}) between 1 and 60`),
    index("products_brand_code_idx")
      .on(t.brandCode)
      .where(sql`${t.brandCode} is not null`),
    index("products_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("products_price_idx").on(t.priceCents, t.id),
    index("products_name_idx").on(t.name, t.id),
    index("products_search_trgm_idx").using("gin", sql`${productSearchText} gin_trgm_ops`),
    index("products_search_document_idx").using("gin", t.searchDocument),
    // "Every word is in the name", a search's second rank, looked up without the other words.
    index("products_name_words_idx").using("gin", productNameWords),
    // Our part number matches a word anywhere in it (`like '%X%'`).
    index("products_part_number_trgm_idx").using(
      "gin",
      sql`${t.partNumberNormalized} gin_trgm_ops`,
    ),
    uniqueIndex("products_part_number_normalized_unique").on(t.partNumberNormalized),
    index("products_part_number_prefix_idx").on(t.partNumberNormalized.op("text_pattern_ops")),
    index("products_category_idx").on(t.category, t.id),
    // A part page by its address; the sitemap walks them in order.
    index("products_slug_idx").on(t.slug, t.id),
  ],
);

/** Numbers a product replaces or is sold as: the carmaker's (OE), other brands', our old ones. */
export const productCrossReferences = pgTable(
  "product_cross_references",
  {
    id: uuidPrimaryKey(),
    productId: requiredUuidRef("product_id", () => products.id, "cascade"),
    kind: text("kind", { enum: crossReferenceKinds }).notNull(),
    brand: text("brand").notNull(),
    /** As printed on the part, e.g. "04465-02220". */
    number: text("number").notNull(),
    numberNormalized: text("number_normalized")
      .notNull()
      .generatedAlwaysAs(normalizedNumber("number")),
    /** The order the admin listed them in. */
    position: integer("position").notNull().default(0),
  },
  (t) => [
    check(
      "product_cross_references_kind_valid",
      sql`${t.kind} in ('OE', 'competitor', 'superseded')`,
    ),
    index("product_cross_references_product_idx").on(t.productId, t.position),
    // text_pattern_ops: equality and prefix (`like 'X%'`) both use it.
    index("product_cross_references_number_idx").on(t.numberNormalized.op("text_pattern_ops")),
  ],
);

/**
 * A product fits a base vehicle (ACES application), one row per model year. An empty submodel or
 * engine means every one of that base vehicle.
 */
export const productFitments = pgTable(
  "product_fitments",
  {
    id: uuidPrimaryKey(),
    productId: requiredUuidRef("product_id", () => products.id, "cascade"),
    baseVehicleId: integer("base_vehicle_id")
      .notNull()
      .references(() => baseVehicles.id, { onDelete: "cascade" }),
    submodelId: integer("submodel_id").references(() => vehicleSubmodels.id, {
      onDelete: "cascade",
    }),
    engineId: integer("engine_id").references(() => vehicleEngines.id, { onDelete: "cascade" }),
    /** "Front", "Rear", "Front Left" ...; empty when the part has no position. */
    position: text("position"),
    /** Parts needed per vehicle (ACES Qty). */
    quantity: integer("quantity").notNull().default(1),
    /** Qualifier, e.g. "with A/C" or "from 03/2015". */
    note: text("note"),
  },
  (t) => [
    check("product_fitments_quantity_positive", sql`${t.quantity} between 1 and 100`),
    // "Parts that fit vehicle X": an index-only probe per product, or a walk of X's rows.
    index("product_fitments_vehicle_product_idx").on(t.baseVehicleId, t.productId),
    index("product_fitments_product_idx").on(t.productId),
    unique("product_fitments_unique")
      .on(t.productId, t.baseVehicleId, t.submodelId, t.engineId, t.position)
      .nullsNotDistinct(),
  ],
);

/**
 * A part's digital assets beyond its main picture (PIES `DigitalAssets`): more pictures and
 * documents such as installation guides, by their https address (never fetched by the store).
 */
export const productAssets = pgTable(
  "product_assets",
  {
    id: uuidPrimaryKey(),
    productId: requiredUuidRef("product_id", () => products.id, "cascade"),
    kind: text("kind", { enum: ["image", "document"] }).notNull(),
    title: text("title").notNull(),
    url: text("url").notNull(),
    position: integer("position").notNull().default(0),
  },
  (t) => [
    check("product_assets_kind_valid", sql`${t.kind} in ('image', 'document')`),
    check("product_assets_title_length", sql`char_length(${t.title}) between 1 and 120`),
    check(
      "product_assets_url_https",
      sql`${t.url} ~ '^https://' and char_length(${t.url}) <= 2000`,
    ),
    index("product_assets_product_idx").on(t.productId, t.position),
    uniqueIndex("product_assets_product_url_unique").on(t.productId, t.url),
  ],
);
