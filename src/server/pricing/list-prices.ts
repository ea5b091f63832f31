/**
 * A company buyer's own prices on a page of the catalog list (docs/company-prices-on-lists.md).
 * The list itself stays the shared, cached answer every visitor gets; for a caller whose company
 * has a price list, the page's items (at most 100) are overlaid with that list's entries for
 * them, read by one indexed statement per request. The prices come from `unitPriceFor` and
 * `priceTiers`, the one place a price is decided.
 */

import type pg from "pg";
import type { ProductListItem, YourListPrice } from "../../contract/products";
import type { PriceBreak } from "../db/schema";
import { centsToUnits, unitsToCents } from "../money";
import { priceTiers, unitPriceFor, type OverlayEntry, type PricingContext } from "./pricing";

/** What `companyOverlay` reads from: the app's pool (`pooled`: behind a transaction pooler). */
export interface OverlaySource {
  pool: Pick<pg.Pool, "query">;
  pooled: boolean;
}

/**
 * The caller's company price list entries for these products: product id → entry; empty for a
 * customer in no company, a company without a price list, or a list in another currency. Only
 * what a list page needs (no membership, limits or spending: `pricingFor` reads those for
 * checkout), in one statement on the members' unique user index and the entries' primary key,
 * prepared once per connection (planning it cost more than running it) unless a pooler is in
 * the way (as the session reader does).
 */
export async function companyOverlay(
  source: OverlaySource,
  customerId: string,
  currency: string,
  productIds: readonly string[],
): Promise<Map<string, OverlayEntry>> {
  if (productIds.length === 0) return new Map();
  const { rows } = await source.pool.query<{
    productId: string;
    unitPriceCents: number;
    breaks: PriceBreak[];
  }>({
    name: source.pooled ? undefined : "company-list-prices",
    text: `select e.product_id as "productId", e.unit_price_cents as "unitPriceCents", e.breaks
             from company_members m
             join companies c on c.id = m.company_id
             join price_lists pl on pl.id = c.price_list_id and pl.currency = $2
             join price_list_entries e on e.price_list_id = pl.id
            where m.user_id = $1 and e.product_id = any($3::uuid[])`,
    values: [customerId, currency, [...new Set(productIds)]],
  });
  return new Map(
    rows.map((r) => [r.productId, { unitPriceCents: r.unitPriceCents, breaks: r.breaks }]),
  );
}

/**
 * What a card shows a buyer for each product their company prices lower: `yourPrice` (one unit
 * at the product's minimum order, a break that quantity reaches included) and, when a larger
 * quantity costs less still, `yourLowestPrice` (the deepest break). Products the overlay does
 * not lower are left out: their card shows the list price alone.
 */
export function yourListPrices(
  overlay: ReadonlyMap<string, OverlayEntry>,
  currency: string,
  items: readonly Pick<ProductListItem, "_id" | "price" | "minimumOrder">[],
): Map<string, YourListPrice> {
  const context: PricingContext = { currency, overlay };
  const out = new Map<string, YourListPrice>();
  for (const item of items) {
    if (!overlay.has(item._id)) continue;
    const listPriceCents = unitsToCents(item.price);
    const tiers = priceTiers(context, {
      id: item._id,
      listPriceCents,
      minimumOrder: item.minimumOrder,
    });
    const atMinimum = unitPriceFor(context, {
      productId: item._id,
      qty: item.minimumOrder,
      listPriceCents,
    });
    const lowest = tiers.length > 1 ? tiers[tiers.length - 1]! : undefined;
    if (atMinimum >= listPriceCents && !lowest) continue;
    out.set(item._id, {
      yourPrice: centsToUnits(atMinimum),
      ...(lowest && {
        yourLowestPrice: { minQty: lowest.minQty, unitPrice: centsToUnits(lowest.unitPriceCents) },
      }),
    });
  }
  return out;
}

/** A page's items with the caller's prices added where they have them. */
export async function listPricesFor(
  source: OverlaySource,
  customerId: string,
  currency: string,
  items: readonly Pick<ProductListItem, "_id" | "price" | "minimumOrder">[],
): Promise<Map<string, YourListPrice>> {
  const overlay = await companyOverlay(
    source,
    customerId,
    currency,
    items.map((i) => i._id),
  );
  return overlay.size === 0 ? new Map() : yourListPrices(overlay, currency, items);
}
