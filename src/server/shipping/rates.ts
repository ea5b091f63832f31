import { countryName } from "../../contract/addresses";
import { shippingMessages } from "../../contract/shipping";

/**
 * Which shipping methods serve an address, and what each costs for an order: pure functions
 * (docs/shipping.md).
 *
 * - A zone covers an address when its countries include the address's country and, if the zone
 *   names regions, the address's region is one of them. The most specific zone serves it (one
 *   naming the region beats one naming only the country); between equals, the oldest.
 * - flat: its price. free_over: its price below the threshold (the lines' value as shown), free from
 *   it. weight: the first band at least as heavy as the order (units × product weight); an order
 *   heavier than the last band is not served by that method.
 */

export interface WeightBand {
  upToGrams: number;
  priceCents: number;
}

export interface ShippingMethodRule {
  id: string;
  name: string;
  estimate: string;
  kind: "flat" | "weight" | "free_over";
  priceCents: number;
  freeOverCents: number | null;
  bands: WeightBand[];
  /** Working days in transit, least and most (null: no dated estimate; docs/shipping.md). */
  transitMinDays?: number | null;
  transitMaxDays?: number | null;
}

export interface ShippingZoneRule {
  id: string;
  name: string;
  countries: string[];
  regions: string[];
  /** In the admin's order. */
  methods: ShippingMethodRule[];
}

export interface Place {
  country: string;
  /** Null when unknown (a visitor's estimate in a country whose postal codes do not tell). */
  region: string | null;
  /** The postal code, when known: tax rates may be by postal code (docs/tax.md). */
  postalCode?: string | null;
}

export interface Basket {
  /**
   * The lines' value as the buyer is shown it (what free_over compares): before tax, or with VAT
   * for a consumer whose prices include it (docs/shipping.md "Free from an order value").
   */
  subtotalCents: number;
  weightGrams: number;
}

export interface ShippingOptionPriced {
  method: ShippingMethodRule;
  priceCents: number;
}

/** The zone serving a place, or null. `zones` in creation order. */
export function zoneFor(zones: readonly ShippingZoneRule[], place: Place): ShippingZoneRule | null {
  const region = place.region?.trim().toUpperCase() ?? "";
  let countryWide: ShippingZoneRule | null = null;
  for (const zone of zones) {
    if (!zone.countries.includes(place.country)) continue;
    if (zone.regions.length === 0) countryWide ??= zone;
    else if (region !== "" && zone.regions.some((r) => r.toUpperCase() === region)) return zone;
  }
  return countryWide;
}

/** What a method charges for a basket, or null when it cannot carry it (too heavy). */
export function methodPrice(method: ShippingMethodRule, basket: Basket): number | null {
  switch (method.kind) {
    case "flat":
      return method.priceCents;
    case "free_over":
      return method.freeOverCents !== null && basket.subtotalCents >= method.freeOverCents
        ? 0
        : method.priceCents;
    case "weight": {
      const band = method.bands.find((b) => basket.weightGrams <= b.upToGrams);
      return band ? band.priceCents : null;
    }
  }
}

export type ShippingAnswer =
  | { ok: true; zone: ShippingZoneRule; options: ShippingOptionPriced[] }
  | { ok: false; problem: string };

/** The methods serving a place with their prices for this basket, or why none does. */
export function shippingOptions(
  zones: readonly ShippingZoneRule[],
  place: Place,
  basket: Basket,
): ShippingAnswer {
  const zone = zoneFor(zones, place);
  if (!zone || zone.methods.length === 0) {
    return { ok: false, problem: shippingMessages.notShipped(placeName(place)) };
  }
  const options = zone.methods.flatMap((method) => {
    const priceCents = methodPrice(method, basket);
    return priceCents === null ? [] : [{ method, priceCents }];
  });
  if (options.length === 0) {
    return {
      ok: false,
      problem: shippingMessages.tooHeavy((basket.weightGrams / 1000).toFixed(1)),
    };
  }
  return { ok: true, zone, options };
}

/** "Texas, United States" / "Germany": how a refusal names the place. */
export function placeName(place: Place): string {
  const country = countryName(place.country);
  return place.region ? `${place.region}, ${country}` : country;
}

/** The cheapest option (the first of equals): what an order that names no method gets. */
export function cheapest(options: readonly ShippingOptionPriced[]): ShippingOptionPriced | null {
  let best: ShippingOptionPriced | null = null;
  for (const o of options) if (!best || o.priceCents < best.priceCents) best = o;
  return best;
}
