import { z } from "zod";
import { hasAtMostTwoDecimals, pagingQuerySchema } from "./common";
import {
  crossReferenceKinds,
  normalizePartNumber,
  productCategories,
  productSorts,
} from "./constants";
import { attributeFiltersSchema } from "./facets";
import { productAttributeSchema } from "./attributes";
import { breaksCheaperThan, priceBreaksSchema } from "./pricing";
import { availabilityFields } from "./availability";

// Written here before; the pages that show them import them from count.ts (no zod).
export { formatDimensions, formatWeight } from "./count";
import { requiredName, text } from "./text";
import {
  optionalVehicleFields,
  productFitSchema,
  vehicleFieldsComplete,
  vehicleMessages,
} from "./vehicles";

/** A product as the public API shows it. `price` is in currency units (e.g. 89.99). */
export const productSchema = z.object({
  _id: z.uuid(),
  img: z.string(),
  name: z.string(),
  /** Our part number, e.g. "PW-BK-3001". */
  partNumber: z.string(),
  category: z.enum(productCategories),
  price: z.number(),
  /** The trade minimum: what trade groups order at least (docs/pricing.md "Quantities by group"). */
  minimumOrder: z.number().int(),
  /** What a retail customer or a visitor orders at least (1 unless the part says otherwise). */
  retailMinimum: z.number().int(),
  /** Trade groups order this part in multiples of it (1: any quantity). */
  packSize: z.number().int(),
  availableQuantity: z.number().int(),
  shortDescription: z.string(),
  /** Warranty in months. */
  warranty: z.number().int(),
  /**
   * A remanufacturable part's core deposit per unit, charged besides the price and refunded when
   * the old part comes back (docs/core-charges.md); null: none.
   */
  coreDeposit: z.number().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  /**
   * The currency of `price`, `coreDeposit` and the breaks: the catalog's answers are priced in the
   * request's market (docs/pricing.md "The market chosen"); absent: the store's currency.
   */
  currency: z.string().optional(),
  /**
   * A consumer's prices with VAT included (docs/tax.md "Prices with VAT included"): `price` and
   * the breaks are gross at this rate, and `note` is said beside them ("incl. 20 % VAT"). Absent:
   * net prices (the default market, a market without VAT included).
   */
  taxIncluded: z.object({ rateMillipercent: z.number().int(), note: z.string() }).optional(),
});
export type Product = z.infer<typeof productSchema>;

export const crossReferenceSchema = z.object({
  kind: z.enum(crossReferenceKinds),
  brand: z.string(),
  number: z.string(),
});
export type CrossReference = z.infer<typeof crossReferenceSchema>;

/** A product in a list: with a search, why it matched where a number did (shown on the card). */
/**
 * A buyer's own price of a product on a list (docs/pricing.md): one unit at their minimum order
 * (their company's price list, their group's rule), the deepest quantity break when one costs
 * less still, and their quantities when they are held to trade ones.
 */
export const yourListPriceSchema = z.object({
  yourPrice: z.number().optional(),
  yourLowestPrice: z.object({ minQty: z.number().int(), unitPrice: z.number() }).optional(),
  /** The buyer's group rule when it gives `yourPrice`: "Garage price: 20 % off brakes". */
  priceNote: z.string().optional(),
  /**
   * A buyer held to trade quantities (their group keeps trade minimums): their minimum order
   * (the part's trade minimum) and pack size; absent for everyone else, who are shown
   * `retailMinimum` (docs/pricing.md "Quantities by group").
   */
  yourMinimumOrder: z.number().int().optional(),
  yourPackSize: z.number().int().optional(),
});
export type YourListPrice = z.infer<typeof yourListPriceSchema>;

/** A product's public quantity breaks on the wire: sorted by minQty, currency units. */
const publicBreaksSchema = z.array(z.object({ minQty: z.number().int(), unitPrice: z.number() }));

export const productListItemSchema = productSchema.extend({
  /**
   * The product's public quantity breaks (docs/pricing.md), the same for everyone (the
   * cached list carries them); absent when it has none.
   */
  breaks: publicBreaksSchema.optional(),
  /** e.g. "matches OE 04465-02220 (Toyota)"; absent when the words matched. */
  matched: z.string().optional(),
  /** With a vehicle in the query: how the product fits it (position, note). */
  fit: productFitSchema.optional(),
  /**
   * Only for a signed-in buyer whose company's price list or group's rule prices this product
   * lower, or who is held to trade quantities; absent for everyone else (the shared cached
   * answer is unchanged).
   */
  ...yourListPriceSchema.shape,
  /**
   * Its backorder offer (contract/availability.ts). Where it is on sale is left to the product's
   * own answer: the list stays as small as it was (docs/inventory.md "What buyers see").
   */
  backorder: availabilityFields.backorder,
});
export type ProductListItem = z.infer<typeof productListItemSchema>;

/**
 * The minimum a card shows and its cart button puts in: a trade buyer's own (on their page),
 * else the part's retail minimum (retail customers and visitors; docs/pricing.md).
 */
export const buyerMinimum = (p: Pick<ProductListItem, "yourMinimumOrder" | "retailMinimum">) =>
  p.yourMinimumOrder ?? p.retailMinimum;

/**
 * One product with the numbers it replaces (the admin's answers after a change), and its public
 * quantity breaks: from `minQty` units on, `unitPrice` each, for everyone (docs/pricing.md).
 */
const productFactsSchema = productSchema.extend({
  crossReferences: z.array(crossReferenceSchema),
  /** Shipping weight of one unit in grams (weight-band shipping); 0 when not given. */
  weightGrams: z.number().int(),
  /** The packed product's length, width and height in millimetres: all three, or all null. */
  lengthMm: z.number().int().nullable(),
  widthMm: z.number().int().nullable(),
  heightMm: z.number().int().nullable(),
  /** Sorted by minQty; empty when the product has none. */
  breaks: publicBreaksSchema,
  /** Its attribute values in their definitions' order (docs/attributes.md); empty when none. */
  attributes: z.array(productAttributeSchema),
});

/**
 * One product as its page and the edit form read it (`GET /api/products/{id}`): its facts, where
 * it is on sale and its backorder offer (contract/availability.ts).
 */
export const productDetailSchema = productFactsSchema.extend(availabilityFields);
export type ProductDetail = z.infer<typeof productDetailSchema>;

/**
 * What admins see after adding or editing a product: its facts plus its creator's email (never
 * shown publicly); its availability is read with the product.
 */
export const adminProductSchema = productFactsSchema.extend({ email: z.string() });
export type AdminProduct = z.infer<typeof adminProductSchema>;

export const productListQuerySchema = pagingQuerySchema
  .extend({
    sort: z.enum(productSorts).default("newest"),
    q: text().trim().max(100).optional(),
    category: z.enum(productCategories, { error: "Unknown category" }).optional(),
    /** Price range in currency units, both ends included. */
    minPrice: z.coerce.number().min(0).max(1_000_000).optional(),
    maxPrice: z.coerce.number().min(0).max(1_000_000).optional(),
    /** "true": only products with stock on sale. */
    inStock: z.enum(["true", "false"]).optional(),
    /** A vehicle (year, make and model ids, perhaps the engine): only parts that fit it. */
    ...optionalVehicleFields,
    /** Attribute values, `<attribute id>:<value>`, repeated (contract/facets.ts). */
    attr: attributeFiltersSchema,
  })
  .refine(vehicleFieldsComplete, { message: vehicleMessages.incomplete, path: ["model"] });
export type ProductListQuery = z.infer<typeof productListQuerySchema>;

export const productSuggestionsQuerySchema = z.object({ q: text().trim().min(1).max(100) });

/** What an empty search result offers instead. */
export const productSuggestionsSchema = z.object({
  /** Product names and categories spelt like the search, best first. */
  didYouMean: z.array(z.string()),
});
export type ProductSuggestions = z.infer<typeof productSuggestionsSchema>;

/** The exact texts an admin sees after adding a product (SPEC section 8). */
export const productMessages = {
  added: "Your product is added",
  failed: "there is a problem adding your product! try again",
} as const;

export const MAX_PRICE = 1_000_000;
export const MAX_PART_NUMBER_LENGTH = 40;
export const MAX_BRAND_LENGTH = 60;
export const MAX_CROSS_REFERENCES = 30;
export const MAX_QUANTITY = 10_000_000;
export const MAX_WARRANTY_MONTHS = 600;
/** One unit's shipping weight, at most (a tonne). */
export const MAX_WEIGHT_GRAMS = 1_000_000;
/** One side of a product's box, at most (ten metres). */
export const MAX_DIMENSION_MM = 10_000;
export const MAX_PRODUCT_NAME_LENGTH = 120;
export const MAX_DESCRIPTION_LENGTH = 1000;
export const MAX_IMAGE_LINK_LENGTH = 2000;
/** Largest image file an admin may upload (the server refuses more with 413). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** What the upload accepts, checked on the server by the file's first bytes. */
export const imageMimeTypes = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

export const productFieldMessages = {
  minimumAtLeastOne: "Minimum order must be at least 1",
  minimumAboveStock: "Minimum order cannot exceed the available quantity",
  imageRequired: "Image link is Required",
  imageForm: "Use an http(s) link or upload an image",
  partNumberRequired: "Part number is Required",
  partNumberForm:
    "Use letters, digits, spaces, dashes, dots or slashes, starting with a letter or digit",
  partNumberTaken: (n: string) => `Part number ${n} is already used by another product`,
  categoryRequired: "Choose a category",
  /** A public break must lower the product's price (the same rule as a price list's breaks). */
  breakCheaper: "A quantity break must be cheaper than the price",
  stockWasRequired: "Send the stock you are replacing (availableQuantityWas) with a new stock",
  stockChanged: (now: number) =>
    `Orders changed the stock to ${now} since you opened this form: check the number and save again`,
  /**
   * The total is the sum over locations (docs/inventory.md): it cannot drop below what the other
   * locations have on sale.
   */
  belowLocations: (n: number) =>
    `At least ${n}: that many are on sale at other locations (count or move them on the Locations page first)`,
  /** Length, width and height are one fact: all three numbers, or none. */
  dimensionsTogether: "Give the length, width and height together, or none",
  dimensionAtLeastOne: "Must be 1 mm or more",
  dimensionAtMost: "Must be 10,000 mm or less",
  /** A trade minimum a buyer of packs could never order exactly (docs/pricing.md). */
  minimumNotPackMultiple: (pack: number) =>
    `The minimum order must be a multiple of the pack size (${pack})`,
} as const;

/**
 * A required number field. The browser's number inputs give NaN when empty, JSON gives undefined
 * or null: all three mean "nothing entered", anything else that is not a number is a typo.
 */
const requiredNumber = (label: string) =>
  z.number({
    error: (issue) =>
      issue.input === undefined || issue.input === null || Number.isNaN(issue.input)
        ? `${label} is Required`
        : "Enter a number",
  });

const wholeNumber = (label: string) => requiredNumber(label).int("Enter a whole number");

/** One side of the product's box in whole millimetres; null: none (see `dimensionsTogether`). */
const dimension = (label: string) =>
  wholeNumber(label)
    .min(1, productFieldMessages.dimensionAtLeastOne)
    .max(MAX_DIMENSION_MM, productFieldMessages.dimensionAtMost)
    .nullable()
    .optional();

/** Our own uploads, the pictures shipped with the app, or any http(s) address. */
const uploadedImage = /^\/uploads\/[0-9a-f-]{36}\.(png|jpg|webp|gif)$/;
const shippedImage = /^\/images\/[a-z0-9][a-z0-9/_-]*\.(svg|png|jpg|jpeg|webp|gif)$/i;

export function isImageLink(value: string): boolean {
  if (uploadedImage.test(value) || (shippedImage.test(value) && !value.includes("//"))) {
    return true;
  }
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return false;
  try {
    return Boolean(new URL(value).hostname);
  } catch {
    return false;
  }
}

/** Money on the wire has at most two decimals; a float's noise (0.29 * 100) is tolerated. */

/** A part number as people write it: letters and digits, with spaces, dashes, dots or slashes. */
const partNumberPattern = /^[A-Za-z0-9][A-Za-z0-9 ./-]*$/;

const partNumber = (required: string) =>
  text({ error: required })
    .trim()
    .min(1, required)
    .max(MAX_PART_NUMBER_LENGTH, `Must be ${MAX_PART_NUMBER_LENGTH} characters or shorter`)
    .regex(partNumberPattern, productFieldMessages.partNumberForm);

export const crossReferenceInputSchema = z.strictObject({
  kind: z.enum(crossReferenceKinds, { error: "Choose OE, competitor or superseded" }),
  brand: text({ error: "Brand is Required" })
    .trim()
    .min(1, "Brand is Required")
    .max(MAX_BRAND_LENGTH, `Must be ${MAX_BRAND_LENGTH} characters or shorter`),
  number: partNumber("Number is Required"),
});
export type CrossReferenceInput = z.infer<typeof crossReferenceInputSchema>;

const productFields = {
  partNumber: partNumber(productFieldMessages.partNumberRequired),
  /** Public quantity breaks (docs/pricing.md); each cheaper than `price`. */
  breaks: priceBreaksSchema.optional(),
  category: z.enum(productCategories, { error: productFieldMessages.categoryRequired }),
  crossReferences: z
    .array(crossReferenceInputSchema)
    .max(MAX_CROSS_REFERENCES, `At most ${MAX_CROSS_REFERENCES} numbers`)
    .refine(
      (refs) =>
        new Set(refs.map((r) => `${r.kind}:${normalizePartNumber(r.number)}`)).size === refs.length,
      "Each number once",
    )
    .optional(),
  name: requiredName(MAX_PRODUCT_NAME_LENGTH),
  price: requiredNumber("Price")
    .min(0, "Must be 0 or more")
    .lt(MAX_PRICE, "Must be less than 1,000,000")
    .refine(hasAtMostTwoDecimals, "Use at most 2 decimals"),
  minimumOrder: wholeNumber("Minimum order")
    .min(1, productFieldMessages.minimumAtLeastOne)
    .max(MAX_QUANTITY, "Must be 10,000,000 or less"),
  /** Optional: 1 when not given (retail customers buy single parts). */
  retailMinimum: wholeNumber("Retail minimum")
    .min(1, "Must be at least 1")
    .max(MAX_QUANTITY, "Must be 10,000,000 or less")
    .optional(),
  /** Optional: 1 when not given (trade groups order any quantity from the minimum). */
  packSize: wholeNumber("Pack size")
    .min(1, "Must be at least 1")
    .max(MAX_QUANTITY, "Must be 10,000,000 or less")
    .optional(),
  availableQuantity: wholeNumber("Available quantity")
    .min(0, "Must be 0 or more")
    .max(MAX_QUANTITY, "Must be 10,000,000 or less"),
  warranty: wholeNumber("Warranty")
    .min(0, "Must be 0 or more")
    .max(MAX_WARRANTY_MONTHS, "Must be 600 months or less"),
  /** Optional: a product added without it weighs 0 g, which weight-band shipping charges nothing for. */
  weightGrams: wholeNumber("Weight")
    .min(0, "Must be 0 or more")
    .max(MAX_WEIGHT_GRAMS, "Must be 1,000,000 g or less")
    .optional(),
  /**
   * Optional, all three or none (`dimensionsTogether`): the packed product's size in millimetres.
   * Null is none (an edit removes them by sending all three null).
   */
  lengthMm: dimension("Length"),
  widthMm: dimension("Width"),
  heightMm: dimension("Height"),
  shortDescription: text({ error: "Description is Required" }, { multiline: true })
    .trim()
    .min(1, "Description is Required")
    .max(MAX_DESCRIPTION_LENGTH, `Must be ${MAX_DESCRIPTION_LENGTH} characters or shorter`),
  img: text({ error: productFieldMessages.imageRequired })
    .trim()
    .min(1, productFieldMessages.imageRequired)
    .max(MAX_IMAGE_LINK_LENGTH, `Must be ${MAX_IMAGE_LINK_LENGTH} characters or shorter`)
    .refine(isImageLink, productFieldMessages.imageForm),
};

/** Every field an admin sets, without the cross-field rule (forms pick from it). */
export const productFieldsSchema = z.strictObject(productFields);

/** The three sides of a product's box, in their order (length × width × height). */
export const dimensionFields = ["lengthMm", "widthMm", "heightMm"] as const;
type Dimensions = Partial<Record<(typeof dimensionFields)[number], number | null>>;

const dimensionsShape = z.object({
  lengthMm: productFields.lengthMm,
  widthMm: productFields.widthMm,
  heightMm: productFields.heightMm,
});

/** True when the three sides are each valid (or absent), so checking them together means something. */
export const dimensionsValid = (payload: { value: unknown }) =>
  dimensionsShape.safeParse(payload.value).success;

/** The refusal of a product measured on some sides only, beside the first side `missing`. */
const dimensionsApart = (ctx: z.RefinementCtx, missing: (typeof dimensionFields)[number]) =>
  ctx.addIssue({
    code: "custom",
    path: [missing],
    message: productFieldMessages.dimensionsTogether,
  });

/**
 * Length, width and height come together: all three numbers, or none of them (left out or null,
 * alike: a form's untouched side and its emptied one are both none). Otherwise the message goes
 * beside the first side that is not a number. Used with `{ when: dimensionsValid }`: checked
 * even while other fields still have problems.
 */
export function dimensionsTogether(p: Dimensions, ctx: z.RefinementCtx): void {
  const numbers = dimensionFields.filter((f) => typeof p[f] === "number").length;
  if (numbers !== 0 && numbers !== 3) {
    dimensionsApart(
      ctx,
      dimensionFields.find((f) => typeof p[f] !== "number")!,
    );
  }
}

/**
 * An edit's sides: as `dimensionsTogether`, and sent all three or none, since a side left out
 * keeps its value: `{ lengthMm: null }` alone would leave a product half-measured. All three null
 * remove them.
 */
export function dimensionsSentTogether(p: Dimensions, ctx: z.RefinementCtx): void {
  const sent = dimensionFields.filter((f) => p[f] !== undefined).length;
  if (sent !== 0 && sent !== 3) {
    dimensionsApart(
      ctx,
      dimensionFields.find((f) => p[f] === undefined)!,
    );
  } else dimensionsTogether(p, ctx);
}

const stockFields = z.object({
  minimumOrder: productFields.minimumOrder,
  availableQuantity: productFields.availableQuantity,
});

const breaksAndPrice = z.object({ price: productFields.price, breaks: productFields.breaks });

/** True when the price and the breaks are valid, so comparing them means something. */
const breaksAndPriceValid = (value: unknown) => breaksAndPrice.safeParse(value).success;

/** True when both numbers are present and valid, so comparing them means something. */
export const bothStockFieldsValid = (value: unknown) => stockFields.safeParse(value).success;

const packFields = z.object({
  minimumOrder: productFields.minimumOrder,
  packSize: productFields.packSize.unwrap(),
});

/** True when both numbers are present and valid, so comparing them means something. */
export const bothPackFieldsValid = (value: unknown) => packFields.safeParse(value).success;

/** The trade minimum is a whole number of packs (a pack size left out is 1, or unchanged). */
export const minimumFitsPack = (p: { minimumOrder?: number; packSize?: number }) =>
  p.minimumOrder === undefined || p.packSize === undefined || p.minimumOrder % p.packSize === 0;

/** The refusal of a minimum that is not a whole number of packs, beside the minimum. */
export const minimumInPacks = (
  p: { minimumOrder?: number; packSize?: number },
  ctx: z.RefinementCtx,
) => {
  if (!minimumFitsPack(p)) {
    ctx.addIssue({
      code: "custom",
      path: ["minimumOrder"],
      message: productFieldMessages.minimumNotPackMultiple(p.packSize!),
    });
  }
};

const minimumWithinStock = (p: { minimumOrder?: number; availableQuantity?: number }) =>
  p.minimumOrder === undefined ||
  p.availableQuantity === undefined ||
  p.minimumOrder <= p.availableQuantity;

/**
 * The refusal of a minimum above the stock, beside the minimum: compared as soon as both numbers
 * are fine, even while other fields still have problems.
 */
const minimumWithinStockRule = {
  message: productFieldMessages.minimumAboveStock,
  path: ["minimumOrder"],
  when: (payload: z.core.ParsePayload) => bothStockFieldsValid(payload.value),
};

/**
 * What an admin sends to add a product. Strict, because the creator's email comes from the
 * session: a body that tries to name one is refused rather than silently ignored.
 */
export const productCreateSchema = productFieldsSchema
  .refine(minimumWithinStock, minimumWithinStockRule)
  .refine((p) => breaksCheaperThan(p.breaks ?? [], p.price), {
    message: productFieldMessages.breakCheaper,
    path: ["breaks"],
    when: (payload) => breaksAndPriceValid(payload.value),
  })
  .superRefine(minimumInPacks, { when: (payload) => bothPackFieldsValid(payload.value) })
  .superRefine(dimensionsTogether, { when: dimensionsValid });
export type ProductCreate = z.infer<typeof productCreateSchema>;

/**
 * A partial edit. The server checks minimum order against stock again on the merged product,
 * since the edit may change only one of the two.
 */
export const productUpdateSchema = productFieldsSchema
  .partial()
  .extend({
    /**
     * The stock the form showed when it was opened: a new stock is refused (409) if orders have
     * changed it since, so reservations made meanwhile are never overwritten.
     */
    availableQuantityWas: z.number().int().min(0).max(MAX_QUANTITY).optional(),
  })
  .refine((p) => Object.keys(p).some((k) => k !== "availableQuantityWas"), {
    message: "Change at least one field",
  })
  // A new stock says what it replaces: an order placed meanwhile is never overwritten (409).
  .refine((p) => p.availableQuantity === undefined || p.availableQuantityWas !== undefined, {
    message: productFieldMessages.stockWasRequired,
    path: ["availableQuantityWas"],
  })
  .refine(minimumWithinStock, minimumWithinStockRule)
  // Both sent: checked here; one of them: the server checks the merged product.
  .superRefine(minimumInPacks, { when: (payload) => bothPackFieldsValid(payload.value) })
  // A side sent alone would leave the product half-measured: the edit sends all three.
  .superRefine(dimensionsSentTogether, { when: dimensionsValid });
export type ProductUpdate = z.infer<typeof productUpdateSchema>;

export const productCreatedSchema = z.object({
  success: z.literal(true),
  product: adminProductSchema,
});
export type ProductCreated = z.infer<typeof productCreatedSchema>;

export const imageUploadedSchema = z.object({ url: z.string() });
export type ImageUploaded = z.infer<typeof imageUploadedSchema>;
