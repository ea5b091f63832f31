import type { ReactNode } from "react";
import { formatCount, formatDimensions, formatWeight } from "#contract/count";
import type { ProductDetail } from "#contract/products";
import { availabilityWords, type AvailabilityFacts } from "#contract/availability";
import { formatPrice, formatWarranty } from "../../../lib/format";
import type { CrossReferenceKind } from "#contract/constants";
import { useProductCurrency } from "../../../lib/use-site-config";

export const crossReferenceLabels: Record<CrossReferenceKind, string> = {
  OE: "OE",
  competitor: "Equivalent",
  superseded: "Superseded",
};

/**
 * What the page shows of a product: the ordering page says how many are available and where, the
 * public part page only whether it is in stock, and on backorder when it can be promised a date
 * (docs/catalog.md "Part pages", docs/inventory.md "What buyers see").
 */
export type ShownProduct = Omit<
  ProductDetail,
  "availableQuantity" | "createdAt" | "stockByLocation" | "backorder"
> &
  AvailabilityFacts;

/** The product's picture and facts; the ordering controls come in as children. */
export function ProductDetails({
  product,
  currency: knownCurrency,
  brand,
  children,
}: {
  product: ShownProduct;
  /** Who makes it (the part page says; the store's own name when the part has no brand). */
  brand?: string;
  /** The store's currency when the page knows it already (else read from the site config). */
  currency?: string;
  children?: ReactNode;
}) {
  const currency = useProductCurrency(product, knownCurrency);
  return (
    <article className="grid gap-8 md:grid-cols-2">
      <figure className="self-start overflow-hidden rounded-box border border-base-300 bg-base-200">
        <img
          src={product.img}
          alt={product.name}
          width="400"
          height="300"
          className="h-full w-full object-cover"
        />
      </figure>
      <div className="flex flex-col gap-4">
        <h1 className="text-3xl font-bold">{product.name}</h1>
        <p className="text-sm text-base-content/75">
          Part number{" "}
          <span className="font-mono font-semibold" data-testid="part-number">
            {product.partNumber}
          </span>{" "}
          · {product.category}
          {brand !== undefined && (
            <>
              {" "}
              · Brand{" "}
              <span className="font-semibold" data-testid="brand">
                {brand}
              </span>
            </>
          )}
        </p>
        <p className="text-base-content/80">{product.shortDescription}</p>
        <dl className="grid grid-cols-2 gap-2 rounded-box bg-base-200 p-4">
          {/* The public part page shows everyone the list price, never a buyer's own. */}
          <dt className="text-base-content/70">
            {"availableQuantity" in product ? "Unit price" : "List price"}
          </dt>
          <dd className="text-right text-lg font-semibold">
            {formatPrice(product.price, currency)}
            {/* A consumer's gross price in a market with VAT included (docs/tax.md). */}
            {product.taxIncluded && (
              <span
                className="block text-xs font-normal text-base-content/70"
                data-testid="price-vat-included"
              >
                {product.taxIncluded.note}
              </span>
            )}
          </dd>
          {product.coreDeposit !== null && (
            <>
              <dt className="text-base-content/70">+ Core deposit (per unit)</dt>
              <dd className="text-right" data-testid="core-deposit">
                {formatPrice(product.coreDeposit, currency)}
                <span className="block text-xs text-base-content/70">
                  Refunded when you send the old part back (a core return)
                </span>
              </dd>
            </>
          )}
          <dt className="text-base-content/70">Minimum order</dt>
          <dd className="text-right">{product.minimumOrder}</dd>
          {"availableQuantity" in product ? (
            <>
              <dt className="text-base-content/70">Available quantity</dt>
              <dd className="text-right">{formatCount(product.availableQuantity)}</dd>
            </>
          ) : null}
          <dt className="text-base-content/70">Availability</dt>
          <dd className="text-right" data-testid="availability">
            {availabilityWords(product)}
          </dd>
          <dt className="text-base-content/70">Warranty</dt>
          <dd className="text-right">{formatWarranty(product.warranty)}</dd>
          {/* 0 g is a weight nobody gave: said only when known, as the dimensions. */}
          {product.weightGrams > 0 && (
            <>
              <dt className="text-base-content/70">Weight</dt>
              <dd className="text-right" data-testid="weight">
                {formatWeight(product.weightGrams)}
              </dd>
            </>
          )}
          {product.lengthMm !== null && product.widthMm !== null && product.heightMm !== null && (
            <>
              <dt className="text-base-content/70">Dimensions</dt>
              <dd className="text-right whitespace-nowrap" data-testid="dimensions">
                {formatDimensions({
                  lengthMm: product.lengthMm,
                  widthMm: product.widthMm,
                  heightMm: product.heightMm,
                })}
              </dd>
            </>
          )}
        </dl>
        {children}
        {product.crossReferences.length > 0 && (
          <section aria-labelledby="cross-references">
            <h2 id="cross-references" className="mb-2 text-lg font-semibold">
              Replaces these numbers
            </h2>
            <table className="table table-sm" data-testid="cross-references">
              <thead>
                <tr>
                  <th scope="col" className="text-base-content">
                    Kind
                  </th>
                  <th scope="col" className="text-base-content">
                    Brand
                  </th>
                  <th scope="col" className="text-base-content">
                    Number
                  </th>
                </tr>
              </thead>
              <tbody>
                {product.crossReferences.map((r) => (
                  <tr key={`${r.kind}-${r.brand}-${r.number}`}>
                    <td>{crossReferenceLabels[r.kind]}</td>
                    <td>{r.brand}</td>
                    <td className="font-mono">{r.number}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </div>
    </article>
  );
}
