import { z } from "zod";
import { idParam, nestedIdParams, wholeNumber } from "./common";
import { COUNTRY_CODES } from "./addresses";
import { requiredName, shortText, text } from "./text";

/**
 * Stock locations (admin, docs/inventory.md "Locations (admin)"): the store's warehouses, one of
 * them home, a product's stock at each, counts and transfers between them.
 */

const countries = new Set(COUNTRY_CODES);

export const LOCATION_CODE_PATTERN = /^[A-Za-z0-9-]{1,12}$/;

/** Words of the locations' refusals, word for word on both sides. */
export const locationMessages = {
  notFound: "Location not found",
  productNotFound: "Product not found",
  codeFormat: "Use 1 to 12 letters, digits or dashes, like CHI or EU-1",
  codeTaken: (code: string) => `Another location already has the code ${code}`,
  country: "Use a two-letter country code, like US or DE",
  countries: "Use two-letter country codes, like US or DE",
  homeAlwaysActive: "The home location is always active: it cannot be deactivated",
  hasAllocations: (units: number) =>
    `${units} ${units === 1 ? "unit is" : "units are"} allocated to orders at this location: ship them or cancel those orders before deactivating it`,
  hasStock: (units: number) =>
    `${units} ${units === 1 ? "unit is" : "units are"} on sale at this location: transfer them to another location or count them out before deactivating it`,
  inactive: (name: string) => `${name} is inactive: activate it before moving stock there`,
  belowAllocated: (allocated: number) =>
    `On hand cannot be less than the ${allocated} ${allocated === 1 ? "unit" : "units"} allocated to orders here`,
  notEnoughOnSale: (onSale: number, code: string) =>
    `Only ${onSale} ${onSale === 1 ? "unit is" : "units are"} on sale at ${code}: transfer ${onSale} or fewer`,
  sameLocation: "Choose two different locations",
  dispatchDays: "Enter the working days to dispatch, 0 to 60",
  cutoffHour: "Enter a cut-off hour from 1 to 23, or leave it empty",
} as const;

const codeList = (what: string) =>
  z
    .array(
      text()
        .trim()
        .toUpperCase()
        .min(1, `Enter ${what}`)
        .max(60, "Must be 60 characters or shorter"),
    )
    .max(300, "At most 300")
    .transform((codes) => [...new Set(codes)]);

const line = shortText;

/** A location's fields as an admin sends them (the update takes any of them). */
const locationFields = {
  code: text({ message: locationMessages.codeFormat })
    .trim()
    .regex(LOCATION_CODE_PATTERN, locationMessages.codeFormat),
  name: requiredName(80),
  line1: line(120),
  city: line(80),
  region: line(60),
  postalCode: line(20),
  country: text({ message: locationMessages.country })
    .trim()
    .toUpperCase()
    .refine((c) => countries.has(c), locationMessages.country),
  /** The countries it serves first (empty: none in particular). */
  servesCountries: codeList("a country").refine(
    (codes) => codes.every((c) => countries.has(c)),
    locationMessages.countries,
  ),
  /** Within those countries, only these regions (US: state codes; empty: the whole of each). */
  servesRegions: codeList("a region"),
  /** Among locations serving a destination equally, the lower ships first. */
  priority: z
    .number({ message: "Enter a priority" })
    .int("Enter a whole number")
    .min(0, "Priority cannot be negative")
    .max(10_000, "Priority must be 10000 or less"),
  /** An inactive location sells nothing and holds nothing on sale (deactivated only when empty). */
  active: z.boolean(),
  /** Working days from an order to its parcel leaving here (0: the same day). */
  dispatchDays: wholeNumber(locationMessages.dispatchDays, 0, 60),
  /** The hour (UTC, 1 to 23) from which an order counts from the next working day; null: none. */
  cutoffHour: wholeNumber(locationMessages.cutoffHour, 1, 23).nullable(),
};

export const locationCreateSchema = z.object({
  ...locationFields,
  line1: locationFields.line1.default(""),
  city: locationFields.city.default(""),
  region: locationFields.region.default(""),
  postalCode: locationFields.postalCode.default(""),
  servesCountries: locationFields.servesCountries.default([]),
  servesRegions: locationFields.servesRegions.default([]),
  priority: locationFields.priority.default(100),
  active: locationFields.active.default(true),
  dispatchDays: locationFields.dispatchDays.default(1),
  cutoffHour: locationFields.cutoffHour.default(null),
});
export type LocationCreate = z.infer<typeof locationCreateSchema>;
export type LocationDraft = z.input<typeof locationCreateSchema>;

/** PATCH: only the fields sent change. */
export const locationUpdateSchema = z.object(locationFields).partial();
export type LocationUpdate = z.infer<typeof locationUpdateSchema>;

export const locationSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
  line1: z.string(),
  city: z.string(),
  region: z.string(),
  postalCode: z.string(),
  country: z.string(),
  servesCountries: z.array(z.string()),
  servesRegions: z.array(z.string()),
  priority: z.number().int(),
  isHome: z.boolean(),
  active: z.boolean(),
  dispatchDays: z.number().int(),
  cutoffHour: z.number().int().nullable(),
});
export type Location = z.infer<typeof locationSchema>;

/** One location's stock of a product: on hand = on sale + allocated to orders. */
export const locationStockSchema = z.object({
  locationId: z.uuid(),
  code: z.string(),
  name: z.string(),
  isHome: z.boolean(),
  active: z.boolean(),
  onSale: z.number().int(),
  allocated: z.number().int(),
  onHand: z.number().int(),
  reorderLevel: z.number().int().nullable(),
  /** On sale below the reorder level (as Today's "Low at locations" says). */
  low: z.boolean(),
});
export type LocationStock = z.infer<typeof locationStockSchema>;

/** A product's stock at every location, home first; `availableQuantity` is the sum on sale. */
export const productStockSchema = z.object({
  productId: z.uuid(),
  name: z.string(),
  partNumber: z.string(),
  availableQuantity: z.number().int(),
  locations: z.array(locationStockSchema),
  /**
   * Whether it takes backorders (docs/inventory.md "Backorders"), with its lead time in days
   * (null: only up to the open supply), and the units waiting on backorder now.
   */
  backorders: z.object({
    takes: z.boolean(),
    leadDays: z.number().int().nullable(),
    waiting: z.number().int(),
  }),
});
export type ProductStock = z.infer<typeof productStockSchema>;

export const LEAD_DAYS_MESSAGE = "Enter a lead time of 1 to 730 days, or leave it empty";

/** Admin: whether a product takes backorders, and its lead time (null: up to open supply only). */
export const backorderPolicySchema = z.strictObject({
  takes: z.boolean(),
  leadDays: wholeNumber(LEAD_DAYS_MESSAGE, 1, 730).nullable(),
});
export type BackorderPolicy = z.infer<typeof backorderPolicySchema>;

/**
 * Admin: how orders are allocated to locations (docs/inventory.md "Allocation"): with
 * `wholeOrder`, from one location when one has all of it (the nearest such); else each line from
 * the nearest locations that have it, split when one has too few.
 */
export const allocationPolicySchema = z.strictObject({ wholeOrder: z.boolean() });
export type AllocationPolicy = z.infer<typeof allocationPolicySchema>;
export const allocationWords = {
  title: "How orders ship",
  wholeOrder: "Ship an order from one location when one has all of it",
  hint: "Otherwise each part ships from the nearest location that has it, and an order can leave in several parcels.",
  saved: (wholeOrder: boolean) =>
    wholeOrder
      ? "Orders now ship from one location when one has all of it"
      : "Each part now ships from the nearest location that has it",
} as const;

export const productStockParamsSchema = z.object({
  productId: idParam(),
});

export const locationStockParamsSchema = nestedIdParams("productId");

const units = (label: string) =>
  z
    .number({ message: `Enter ${label}` })
    .int("Enter a whole number")
    .min(0, `${label[0]!.toUpperCase()}${label.slice(1)} cannot be negative`)
    .max(10_000_000, `${label[0]!.toUpperCase()}${label.slice(1)} is too large`);

/** An admin's count at a location: the units on hand there, and its reorder level (null: none). */
export const stockCountSchema = z.object({
  onHand: units("the units on hand"),
  reorderLevel: units("a reorder level").nullable(),
});
export type StockCount = z.infer<typeof stockCountSchema>;

/** Units on sale moved from one location to another; the product's total stays. */
export const stockTransferInputSchema = z
  .object({
    productId: z.uuid({ message: locationMessages.productNotFound }),
    fromLocationId: z.uuid({ message: "Choose the location to move from" }),
    toLocationId: z.uuid({ message: "Choose the location to move to" }),
    qty: z
      .number({ message: "Enter how many units" })
      .int("Enter a whole number")
      .min(1, "Move at least 1 unit")
      .max(10_000_000, "That is too many units"),
  })
  .refine((t) => t.fromLocationId !== t.toLocationId, {
    path: ["toLocationId"],
    message: locationMessages.sameLocation,
  });
export type StockTransferInput = z.infer<typeof stockTransferInputSchema>;

export const stockTransferSchema = z.object({
  id: z.uuid(),
  productId: z.uuid(),
  fromLocationId: z.uuid(),
  fromCode: z.string(),
  toLocationId: z.uuid(),
  toCode: z.string(),
  qty: z.number().int(),
  adminEmail: z.string(),
  createdAt: z.string(),
});
export type StockTransfer = z.infer<typeof stockTransferSchema>;

export const stockTransferQuerySchema = z.object({
  productId: idParam().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type StockTransferQuery = z.infer<typeof stockTransferQuerySchema>;
