import { z } from "zod";
import { COUNTRY_CODES } from "./addresses";
import { MONTHS } from "./calendar";
import { requiredName, shortText, text } from "./text";

/** Shipping zones and their methods (admin), and the options a customer chooses from. */

export const shippingRateKinds = ["flat", "weight", "free_over"] as const;
export type ShippingRateKind = (typeof shippingRateKinds)[number];

const countries = new Set(COUNTRY_CODES);
const money = (label: string) =>
  z
    .number({ message: `Enter ${label}` })
    .min(0, `${label[0]!.toUpperCase()}${label.slice(1)} cannot be negative`)
    .max(1_000_000, `${label[0]!.toUpperCase()}${label.slice(1)} is too large`)
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, "Use at most two decimals");

export const weightBandSchema = z.object({
  upToGrams: z
    .number({ message: "Enter a weight in grams" })
    .int("Enter whole grams")
    .min(1, "A band's weight must be at least 1 gram")
    .max(10_000_000, "That weight is too large"),
  price: money("a price"),
});

const transitDays = z
  .number({ message: "Enter whole working days, 0 to 90" })
  .int("Enter whole working days, 0 to 90")
  .min(0, "Enter whole working days, 0 to 90")
  .max(90, "Enter whole working days, 0 to 90");

export const shippingMethodInputSchema = z
  .object({
    /** Present when editing a method that exists (its id stays, so carts choosing it keep it). */
    id: z.uuid().optional(),
    name: requiredName(60),
    estimate: shortText(60).default(""),
    kind: z.enum(shippingRateKinds, { message: "Choose flat, weight or free over" }),
    /** flat: the price; free_over: the price below the threshold. */
    price: money("a price").default(0),
    /**
     * free_over: the order value from which it is free, in the store's currency: the parts as
     * the buyer is shown them (before tax; with VAT for a consumer whose prices include it),
     * against it converted into the buyer's market (docs/shipping.md "Free from an order value").
     */
    freeOver: money("an order value").nullable().default(null),
    /** weight: ascending bands; an order heavier than the last is not served by this method. */
    bands: z.array(weightBandSchema).max(20, "At most 20 weight bands").default([]),
    /** Working days in transit, least and most (both null: no dated estimate). */
    transitMinDays: transitDays.nullable().default(null),
    transitMaxDays: transitDays.nullable().default(null),
  })
  .superRefine((m, ctx) => {
    if ((m.transitMinDays === null) !== (m.transitMaxDays === null)) {
      ctx.addIssue({
        code: "custom",
        path: [m.transitMinDays === null ? "transitMinDays" : "transitMaxDays"],
        message: shippingMessages.transitBoth,
      });
    } else if (
      m.transitMinDays !== null &&
      m.transitMaxDays !== null &&
      m.transitMaxDays < m.transitMinDays
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["transitMaxDays"],
        message: shippingMessages.transitOrder,
      });
    }
    if (m.kind === "free_over" && m.freeOver === null) {
      ctx.addIssue({
        code: "custom",
        path: ["freeOver"],
        message: "Enter the order value from which shipping is free",
      });
    }
    if (m.kind === "weight") {
      if (m.bands.length === 0) {
        ctx.addIssue({ code: "custom", path: ["bands"], message: "Add at least one weight band" });
      }
      for (let i = 1; i < m.bands.length; i++) {
        if (m.bands[i]!.upToGrams <= m.bands[i - 1]!.upToGrams) {
          ctx.addIssue({
            code: "custom",
            path: ["bands", i, "upToGrams"],
            message: "Each band must be heavier than the one before",
          });
        }
      }
    }
  });
export type ShippingMethodInput = z.infer<typeof shippingMethodInputSchema>;

const codeList = (what: string, check?: (code: string) => boolean, message?: string) =>
  z
    .array(
      text()
        .trim()
        .toUpperCase()
        .min(1, `Enter ${what}`)
        .max(60, "Must be 60 characters or shorter"),
    )
    .max(300)
    .transform((codes) => [...new Set(codes)])
    .refine((codes) => !check || codes.every(check), message ?? "");

export const shippingZoneInputSchema = z.object({
  name: requiredName(60),
  countries: codeList(
    "a country",
    (c) => countries.has(c),
    "Use two-letter country codes, like US or DE",
  ).refine((c) => c.length > 0, "Choose at least one country"),
  /** Empty: the whole of each country; else only these regions (US: state codes). */
  regions: codeList("a region").default([]),
  methods: z.array(shippingMethodInputSchema).max(20, "At most 20 methods in a zone").default([]),
});
export type ShippingZoneInput = z.infer<typeof shippingZoneInputSchema>;
export type ShippingZoneDraft = z.input<typeof shippingZoneInputSchema>;

export const shippingMethodSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  estimate: z.string(),
  kind: z.enum(shippingRateKinds),
  price: z.number(),
  freeOver: z.number().nullable(),
  bands: z.array(z.object({ upToGrams: z.number().int(), price: z.number() })),
  transitMinDays: z.number().int().nullable(),
  transitMaxDays: z.number().int().nullable(),
});
export type ShippingMethod = z.infer<typeof shippingMethodSchema>;

export const shippingZoneSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  countries: z.array(z.string()),
  regions: z.array(z.string()),
  methods: z.array(shippingMethodSchema),
});
export type ShippingZone = z.infer<typeof shippingZoneSchema>;

/**
 * Units of an order that travel together (docs/shipping.md "Delivery estimates"): from one
 * location, or (`from` null) the units on backorder, from their promised date.
 */
export const deliveryParcelSchema = z.object({
  /** The location's name ("Chicago warehouse"); null: the units on backorder. */
  from: z.string().nullable(),
  units: z.number().int(),
  /** The working day it leaves (the promised date for units on backorder), YYYY-MM-DD. */
  dispatchOn: z.iso.date(),
  /** The window it arrives in, YYYY-MM-DD. */
  earliest: z.iso.date(),
  latest: z.iso.date(),
});
export type DeliveryParcel = z.infer<typeof deliveryParcelSchema>;

/** When an order sent by a method would arrive, and from where. */
export const deliveryEstimateSchema = z.object({
  parcels: z.array(deliveryParcelSchema),
  /** Units on backorder that no date can be promised for yet. */
  undated: z.number().int(),
  /** The whole of it in words: "Arrives 9–11 Dec 2026 · ships from Chicago warehouse". */
  words: z.string(),
});
export type DeliveryEstimate = z.infer<typeof deliveryEstimateSchema>;

/**
 * The window an order was promised when it was placed through the cart's checkout (docs/shipping.md
 * "The promise kept with the order"): from where its parts were allocated, kept with the order.
 */
export const deliveryPromiseSchema = deliveryEstimateSchema.extend({
  /** The shipping method it was promised for. */
  method: z.string(),
  promisedAt: z.iso.datetime({ offset: true }),
});
export type DeliveryPromise = z.infer<typeof deliveryPromiseSchema>;

/** `GET /api/orders/{id}/delivery-promise`: what the order page says of it. */
export const orderDeliveryPromiseSchema = z.object({
  /**
   * "Promised at checkout: arrives 9–11 Dec 2026 · ships from Chicago warehouse": the parcels from
   * locations (units on backorder go by their lines' dates); null while there is nothing to say
   * (none was promised, none shipped from a location, or the order is no longer unpaid or paid
   * and unshipped).
   */
  words: z.string().nullable(),
  /** The promise as it was made (null: none). */
  promise: deliveryPromiseSchema.nullable(),
});
export type OrderDeliveryPromise = z.infer<typeof orderDeliveryPromiseSchema>;

/** A method that serves the customer's address, with what it costs for this order. */
export const shippingOptionSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  estimate: z.string(),
  price: z.number(),
  /**
   * When the order would arrive by this method, from where its parts ship now; null: the method
   * has no transit days, or the cart has nothing to ship.
   */
  delivery: deliveryEstimateSchema.nullable(),
});
export type ShippingOption = z.infer<typeof shippingOptionSchema>;

export const shippingMessages = {
  notShipped: (place: string) => `We do not ship to ${place}`,
  tooHeavy: (kg: string) =>
    `No shipping method takes an order this heavy (${kg} kg): split it into smaller orders or contact us`,
  chooseMethod: "Choose a shipping method",
  methodGone:
    "The shipping method you chose does not serve this address (any more); choose another",
  zoneNotFound: "Shipping zone not found",
  transitBoth: "Enter both the least and the most working days in transit, or neither",
  transitOrder: "The most days in transit cannot be fewer than the least",
} as const;

/**
 * A window of days as pages and emails say it (the store's "26 Dec 2026", `dueDateWords`):
 * "9 Dec 2026", "9–11 Dec 2026", "30 Nov – 2 Dec 2026", "30 Dec 2026 – 4 Jan 2027".
 */
export function dayRangeWords(earliest: string, latest: string): string {
  const [a, b] = [new Date(`${earliest}T00:00:00Z`), new Date(`${latest}T00:00:00Z`)];
  const day = (d: Date) => `${d.getUTCDate()}`;
  const month = (d: Date) => MONTHS[d.getUTCMonth()]!;
  const last = `${day(b)} ${month(b)} ${b.getUTCFullYear()}`;
  if (earliest === latest) return last;
  if (a.getUTCFullYear() !== b.getUTCFullYear()) {
    return `${day(a)} ${month(a)} ${a.getUTCFullYear()} – ${last}`;
  }
  if (a.getUTCMonth() !== b.getUTCMonth()) return `${day(a)} ${month(a)} – ${last}`;
  return `${day(a)}–${last}`;
}

const unitWords = (n: number) => `${n} ${n === 1 ? "unit" : "units"}`;

/**
 * An estimate in words. One parcel: "Arrives 9–11 Dec 2026 · ships from Chicago warehouse".
 * Several: "Arrives in 2 parcels: 9–11 Dec 2026 from Chicago warehouse (3 units); 10–14 Dec 2026
 * from Main warehouse (2 units)". Units on backorder: "… ; 6 units on backorder arrive
 * 12–18 Jan 2027", or "… ; 6 units on backorder: date to be confirmed".
 */
export function deliveryWords(estimate: Pick<DeliveryEstimate, "parcels" | "undated">): string {
  const shipped = estimate.parcels.filter((p) => p.from !== null);
  const waiting = estimate.parcels.filter((p) => p.from === null);
  const parts: string[] = [];
  if (shipped.length === 1) {
    const p = shipped[0]!;
    parts.push(`Arrives ${dayRangeWords(p.earliest, p.latest)} · ships from ${p.from}`);
  } else if (shipped.length > 1) {
    parts.push(
      `Arrives in ${shipped.length} parcels: ${shipped
        .map((p) => `${dayRangeWords(p.earliest, p.latest)} from ${p.from} (${unitWords(p.units)})`)
        .join("; ")}`,
    );
  }
  for (const p of waiting) {
    const verb = p.units === 1 ? "arrives" : "arrive";
    parts.push(`${unitWords(p.units)} on backorder ${verb} ${dayRangeWords(p.earliest, p.latest)}`);
  }
  if (estimate.undated > 0) {
    parts.push(`${unitWords(estimate.undated)} on backorder: date to be confirmed`);
  }
  const words = parts.join("; ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The order page's words of a promise: its parcels from locations, "Promised at checkout: arrives
 * 9–11 Dec 2026 · ships from Chicago warehouse"; null when none shipped from a location.
 */
export function promisedAtCheckoutWords(promise: Pick<DeliveryEstimate, "parcels">): string | null {
  const shipped = promise.parcels.filter((p) => p.from !== null);
  if (shipped.length === 0) return null;
  const words = deliveryWords({ parcels: shipped, undated: 0 });
  return `Promised at checkout: ${words.charAt(0).toLowerCase()}${words.slice(1)}`;
}
