import { z } from "zod";
import { promisedWords } from "./backorders";
import { formatCount } from "./count";
import { dueDateWords } from "./payment-words";

/*
 * Honest availability (docs/inventory.md "What buyers see"): where a product's stock on sale is,
 * and what a buyer can expect beyond it (a backorder and its date). Product answers carry these
 * fields; product cards, the part page and quick order say them in the words below.
 */

/** A product's units on sale at one active location (the home location's share included). */
export const locationOnSaleSchema = z.object({
  code: z.string(),
  name: z.string(),
  city: z.string(),
  onSale: z.number().int(),
});
export type LocationOnSale = z.infer<typeof locationOnSaleSchema>;

/**
 * What a product offers beyond its stock on sale; null: it takes no backorders. `available`: a
 * date can be promised for one more unit, `expectedOn` (YYYY-MM-DD). `more`: how many units
 * arriving by then are not promised yet (open supply less the waiting lines); null: no bound (its
 * lead time promises the date) or nothing available.
 */
export const productBackorderSchema = z.object({
  available: z.boolean(),
  expectedOn: z.iso.date().nullable(),
  more: z.number().int().nullable(),
});
export type ProductBackorder = z.infer<typeof productBackorderSchema>;

/**
 * The fields product answers carry (DESIGN.md §8): each active location with units on sale (home
 * first, then by priority and code), and the backorder offer.
 */
export const availabilityFields = {
  stockByLocation: z.array(locationOnSaleSchema),
  backorder: productBackorderSchema.nullable(),
};

/** What the words are made from: trade pages know the locations, a visitor's only in stock or not. */
export type AvailabilityFacts =
  | {
      availableQuantity: number;
      stockByLocation: LocationOnSale[];
      backorder: ProductBackorder | null;
    }
  | { inStock: boolean; backorder: Pick<ProductBackorder, "available" | "expectedOn"> | null };

export const availabilityMessages = {
  inStock: "In stock",
  outOfStock: "Out of stock",
  /** Units on sale at the first location: "12 ship today from Chicago warehouse". */
  shipToday: (units: number, where: string) => `${formatCount(units)} ship today from ${where}`,
  /** At each further location: "8 from Main warehouse". */
  alsoFrom: (units: number, where: string) => `${formatCount(units)} from ${where}`,
  /** On sale, no location named (none known). */
  onSale: (units: number) => `${formatCount(units)} in stock`,
  /** Beyond the stock on sale, a known number: "30 more on 12 Jan 2027". */
  moreOn: (units: number, on: string) => `${formatCount(units)} more on ${dueDateWords(on)}`,
  /** Beyond the stock on sale, any number (a lead time): "more on backorder, expected 19 Jan 2027". */
  moreOnBackorder: (on: string | null) => `more on backorder, ${promisedWords(on)}`,
  /** Nothing on sale: "on backorder, expected 12 Jan 2027". */
  onBackorder: (on: string | null) => `on backorder, ${promisedWords(on)}`,
} as const;

/**
 * What a buyer can expect, in one line. With locations (signed-in pages): "12 ship today from
 * Chicago warehouse, 8 from Main warehouse · 30 more on 12 Jan 2027". A visitor's (the public
 * part page, cards for visitors): "In stock", "Out of stock · on backorder, expected 12 Jan 2027"
 * or "Out of stock". Both: "Out of stock" when nothing is on sale and no date can be promised.
 */
export function availabilityWords(facts: AvailabilityFacts): string {
  const m = availabilityMessages;
  const promised = facts.backorder?.available ? facts.backorder.expectedOn : undefined;
  const inStock = "inStock" in facts ? facts.inStock : facts.availableQuantity > 0;
  if (!inStock) {
    return promised !== undefined ? `${m.outOfStock} · ${m.onBackorder(promised)}` : m.outOfStock;
  }
  if (!("availableQuantity" in facts)) return m.inStock;
  const offer = facts.backorder?.available ? facts.backorder : null;
  const [first, ...rest] = facts.stockByLocation;
  const here = first
    ? [
        m.shipToday(first.onSale, first.name),
        ...rest.map((l) => m.alsoFrom(l.onSale, l.name)),
      ].join(", ")
    : m.onSale(facts.availableQuantity);
  if (!offer) return here;
  const more =
    offer.more !== null && offer.expectedOn !== null
      ? m.moreOn(offer.more, offer.expectedOn)
      : m.moreOnBackorder(offer.expectedOn);
  return `${here} · ${more}`;
}
