import { z } from "zod";
import { text } from "./text";

/**
 * The carriers an admin can name when an order ships (docs/shipments.md), and how each
 * one's tracking page is reached. "other" (a local courier, a pallet firm…) has no link.
 */
export const shippingCarriers = ["ups", "fedex", "usps", "dhl", "other"] as const;
export type ShippingCarrier = (typeof shippingCarriers)[number];

/** How each carrier is shown to people. */
export const shippingCarrierLabels: Record<ShippingCarrier, string> = {
  ups: "UPS",
  fedex: "FedEx",
  usps: "USPS",
  dhl: "DHL",
  other: "Other carrier",
};

/** Each carrier's public tracking page; the (URL-encoded) tracking number goes at the end. */
const trackingPages: Record<ShippingCarrier, string | null> = {
  ups: "https://www.ups.com/track?tracknum=",
  fedex: "https://www.fedex.com/fedextrack/?trknbr=",
  usps: "https://tools.usps.com/go/TrackConfirmAction?tLabels=",
  dhl: "https://www.dhl.com/en/express/tracking.html?AWB=",
  other: null,
};

/** The carrier's page for this tracking number, or null ("other", or nothing to track). */
export function trackingUrl(
  carrier: ShippingCarrier | null,
  trackingNumber: string | null,
): string | null {
  if (!carrier || !trackingNumber) return null;
  const page = trackingPages[carrier];
  return page === null ? null : `${page}${encodeURIComponent(trackingNumber)}`;
}

export const trackingMessages = {
  carrier: `Choose a carrier: ${shippingCarriers.join(", ")}`,
  number: "Enter a tracking number of 3 to 40 characters: letters, digits, spaces and dashes only",
  both: "Give both a carrier and a tracking number, or neither",
  notWhenCancelling: "A carrier and a tracking number can only be given when shipping",
} as const;

/** As stored and shown: upper case, without spaces ("1z 999-aa1" becomes "1Z999-AA1"). */
export const normaliseTrackingNumber = (typed: string) =>
  typed.trim().replaceAll(/\s+/g, "").toUpperCase();

export const carrierSchema = z.enum(shippingCarriers, { message: trackingMessages.carrier });

/** A tracking number as typed: 3–40 letters, digits, spaces and dashes; stored normalised. */
export const trackingNumberSchema = text({ message: trackingMessages.number })
  .trim()
  .min(3, trackingMessages.number)
  .max(40, trackingMessages.number)
  .regex(/^[A-Za-z0-9 -]+$/, trackingMessages.number)
  .transform(normaliseTrackingNumber)
  .refine((n) => n.replaceAll("-", "").length >= 3, trackingMessages.number);

/**
 * A parcel's tracking as answers carry it: who carries it and its number, when the admin gave
 * them on shipping, and the carrier's tracking page (built by the server; none for "other").
 */
export const trackingFields = {
  carrier: z.enum(shippingCarriers).nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
};

/** A shipping form's carrier and tracking number, both optional (`refineTrackingPair` below). */
export const trackingInputFields = {
  carrier: carrierSchema.optional(),
  trackingNumber: trackingNumberSchema.optional(),
};

/** A shipping form's carrier and tracking number: both or neither ("both" at the one missing). */
export function refineTrackingPair(
  body: { carrier?: unknown; trackingNumber?: unknown },
  ctx: z.RefinementCtx,
): void {
  if ((body.carrier === undefined) !== (body.trackingNumber === undefined)) {
    ctx.addIssue({
      code: "custom",
      message: trackingMessages.both,
      path: [body.carrier === undefined ? "carrier" : "trackingNumber"],
    });
  }
}
