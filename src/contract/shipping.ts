import { z } from "zod";
import { COUNTRY_CODES } from "./addresses";
import { text } from "./text";

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

export const shippingMethodInputSchema = z
  .object({
    /** Present when editing a method that exists (its id stays, so carts choosing it keep it). */
    id: z.uuid().optional(),
    name: text({ message: "Name is Required" })
      .trim()
      .min(1, "Name is Required")
      .max(60, "Must be 60 characters or shorter"),
    estimate: text().trim().max(60, "Must be 60 characters or shorter").default(""),
    kind: z.enum(shippingRateKinds, { message: "Choose flat, weight or free over" }),
    /** flat: the price; free_over: the price below the threshold. */
    price: money("a price").default(0),
    /** free_over: the order value (net of tax) from which it is free. */
    freeOver: money("an order value").nullable().default(null),
    /** weight: ascending bands; an order heavier than the last is not served by this method. */
    bands: z.array(weightBandSchema).max(20, "At most 20 weight bands").default([]),
  })
  .superRefine((m, ctx) => {
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
  name: text({ message: "Name is Required" })
    .trim()
    .min(1, "Name is Required")
    .max(60, "Must be 60 characters or shorter"),
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

/** A method that serves the customer's address, with what it costs for this order. */
export const shippingOptionSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  estimate: z.string(),
  price: z.number(),
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
} as const;
