import type { ProductDetail } from "#contract/products";
import { PriceBreaksTable } from "./price-breaks-table";

/**
 * The rows of a product's public quantity prices (docs/pricing.md): the minimum order at
 * the price it costs, then each break above it that lowers the price. The server prices every
 * order again; this is what the visitor is told.
 */
export function publicTiers(
  product: Pick<ProductDetail, "price" | "minimumOrder" | "breaks">,
): { minQty: number; unitPrice: number }[] {
  const at = (qty: number) =>
    product.breaks.reduce(
      (u, b) => (qty >= b.minQty ? Math.min(u, b.unitPrice) : u),
      product.price,
    );
  const rows = [{ minQty: product.minimumOrder, unitPrice: at(product.minimumOrder) }];
  for (const b of [...product.breaks].sort((x, y) => x.minQty - y.minQty)) {
    if (b.minQty <= product.minimumOrder) continue;
    const unitPrice = at(b.minQty);
    if (unitPrice < rows[rows.length - 1]!.unitPrice) rows.push({ minQty: b.minQty, unitPrice });
  }
  return rows;
}

/** One unit's public price at this quantity: the last row of the table the quantity reaches. */
export function publicUnitPriceAt(
  product: Pick<ProductDetail, "price" | "minimumOrder" | "breaks">,
  qty: number,
): number {
  let unit = product.price;
  for (const row of publicTiers(product)) if (qty >= row.minQty) unit = row.unitPrice;
  return unit;
}

/** "Buy more, pay less": the product's public quantity prices, for everyone (visitors too). */
export function PublicBreaks({
  product,
  currency,
}: {
  product: Pick<ProductDetail, "price" | "minimumOrder" | "breaks">;
  currency: string | undefined;
}) {
  const rows = publicTiers(product);
  if (rows.length < 2) return null;
  return (
    <section
      aria-labelledby="public-breaks"
      className="flex flex-col gap-2 rounded-box border border-base-300 p-4"
      data-testid="public-breaks"
    >
      <h2 id="public-breaks" className="text-lg font-semibold">
        Buy more, pay less
      </h2>
      <p className="text-sm text-base-content/75">
        The more you order, the less each part costs: the price applies to the whole order line.
      </p>
      <PriceBreaksTable rows={rows} currency={currency} />
    </section>
  );
}
