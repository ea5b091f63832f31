import { Link } from "../../../components/link";
import { buyerMinimum, type ProductListItem } from "#contract/products";
import { formatCount, formatPrice, formatWarranty } from "../../../lib/format";
import { partSlug, paths } from "#contract/paths";
import { useSession } from "../../../lib/session";
import type { ReactNode } from "react";
import { fitDetailWords, fitWords } from "../../../lib/vehicle-choice";
import { availabilityWords } from "#contract/availability";

export function ProductCard({
  product,
  currency: storeCurrency,
  eager = false,
  priority = false,
  headingLevel = 3,
  action,
  vehicleLabel,
}: {
  product: ProductListItem;
  /**
   * The store's currency (site config), read once by the list rather than by every card; the
   * product's own `currency` (the market its answer is priced in) comes first.
   */
  currency: string | undefined;
  eager?: boolean;
  /** The page's largest picture (All products' first card): fetched ahead of the others. */
  priority?: boolean;
  /** 3 under a section heading (the landing page), 2 right under the page's h1. */
  headingLevel?: 2 | 3;
  /** A second action beside "Order now" (the page adds the cart's button). */
  action?: ReactNode;
  /** The shopper's vehicle in words, when the list is filtered by it: the card says it fits. */
  vehicleLabel?: string;
}) {
  const currency = product.currency ?? storeCurrency;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  // A visitor opens the part's public page; a signed-in customer the ordering page.
  const signedIn = Boolean(useSession().data);
  const deepestBreak = product.breaks?.at(-1);
  return (
    // The whole card opens the product: the name's link covers it (a .btn cannot: it scales
    // while pressed, which would shrink the covered area under the pointer).
    // On a phone the picture sits beside the facts, so that a result fits on the first screen.
    <article className="card relative border border-base-300 bg-base-100 shadow-sm transition hover:shadow-md max-sm:flex-row">
      <figure className="aspect-[4/3] bg-base-200 max-sm:aspect-auto max-sm:w-24 max-sm:shrink-0 max-sm:rounded-se-none max-sm:rounded-es-[inherit]">
        <img
          src={product.img}
          alt={product.name}
          width="400"
          height="300"
          loading={eager || priority ? "eager" : "lazy"}
          fetchPriority={priority ? "high" : undefined}
          className="h-full w-full object-cover max-sm:object-contain"
        />
      </figure>
      <div className="card-body gap-2 p-5 max-sm:min-w-0 max-sm:p-4">
        <Heading className="card-title text-lg leading-snug max-sm:text-base">
          <Link
            to={
              signedIn
                ? paths.product.to(product._id)
                : paths.part.to(partSlug(product.partNumber, product.name))
            }
            className="after:absolute after:inset-0 after:content-[''] hover:underline"
          >
            {product.name}
          </Link>
        </Heading>
        <p className="text-xs text-base-content/75">
          <span className="font-mono" data-testid="part-number">
            {product.partNumber}
          </span>{" "}
          · {product.category}
        </p>
        {product.matched && (
          <p className="badge h-auto badge-soft py-1 badge-success" data-testid="search-match">
            {product.matched}
          </p>
        )}
        {product.fit && vehicleLabel && (
          <p className="text-sm font-semibold" data-testid="fit">
            {fitWords(product.fit.fits, vehicleLabel)}
            {product.fit.details
              .map(fitDetailWords)
              .filter(Boolean)
              .map((w) => (
                <span key={w} className="block font-normal text-base-content/75">
                  {w}
                </span>
              ))}
          </p>
        )}
        <p className="line-clamp-3 text-sm text-base-content/80 max-sm:line-clamp-2">
          {product.shortDescription}
        </p>
        <dl className="mt-1 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
          {product.yourPrice !== undefined && product.yourPrice < product.price ? (
            // A buyer's own price (their company's list or their group's rule: docs/pricing.md):
            // the list price struck through beside it, and the group's words when it gave it.
            <>
              <dt className="font-semibold">Your price</dt>
              <dd className="text-right" data-testid="card-your-price">
                <strong>{formatPrice(product.yourPrice, currency)}</strong>{" "}
                <s
                  className="text-base-content/70"
                  aria-label={`List price ${formatPrice(product.price, currency)}`}
                >
                  {formatPrice(product.price, currency)}
                </s>
              </dd>
              {product.priceNote && (
                <dd className="col-span-2 text-right text-success" data-testid="card-price-note">
                  {product.priceNote}
                </dd>
              )}
            </>
          ) : (
            <>
              <dt className="text-base-content/70">Price</dt>
              <dd className="text-right font-semibold">{formatPrice(product.price, currency)}</dd>
              {/* A consumer's gross price in a market with VAT included (docs/tax.md). */}
              {product.taxIncluded && (
                <dd
                  className="col-span-2 -mt-1 text-right text-xs text-base-content/70"
                  data-testid="card-vat-included"
                >
                  {product.taxIncluded.note}
                </dd>
              )}
            </>
          )}
          {product.yourLowestPrice && (
            <>
              <dt className="text-base-content/70">
                From {formatCount(product.yourLowestPrice.minQty)}
              </dt>
              <dd className="text-right" data-testid="card-your-lowest-price">
                {formatPrice(product.yourLowestPrice.unitPrice, currency)} each
              </dd>
            </>
          )}
          {!product.yourLowestPrice && deepestBreak && (
            // The store's public quantity break for everyone (docs/pricing.md): the deepest.
            <>
              <dt className="text-base-content/70">From {formatCount(deepestBreak.minQty)}</dt>
              <dd className="text-right" data-testid="card-lowest-break">
                {formatPrice(deepestBreak.unitPrice, currency)} each
              </dd>
            </>
          )}
          {product.coreDeposit !== null && (
            <>
              <dt className="text-base-content/70">+ Core deposit</dt>
              <dd className="text-right" data-testid="core-deposit">
                {formatPrice(product.coreDeposit, currency)}
              </dd>
            </>
          )}
          {/* The buyer's minimum (docs/pricing.md "Quantities by group"): a trade buyer's
              comes with their page, everyone else's is the part's retail minimum. */}
          <dt className="text-base-content/70">Minimum order</dt>
          <dd className="text-right">{buyerMinimum(product)}</dd>
          {(product.yourPackSize ?? 1) > 1 && (
            <>
              <dt className="text-base-content/70">Pack size</dt>
              <dd className="text-right" data-testid="card-pack-size">
                {product.yourPackSize}
              </dd>
            </>
          )}
          <dt className="text-base-content/70">Available</dt>
          <dd className="text-right">{product.availableQuantity}</dd>
          <dt className="text-base-content/70">Warranty</dt>
          <dd className="text-right">{formatWarranty(product.warranty)}</dd>
        </dl>
        {/* What a buyer can expect (docs/inventory.md "What buyers see"): a visitor reads in
            stock or on backorder with its date, a signed-in buyer how many and how many more
            when (where they ship from is on the product's page: the list stays small). */}
        <p className="text-sm font-medium" data-testid="availability">
          {availabilityWords(
            signedIn
              ? { ...product, stockByLocation: [] }
              : { inStock: product.availableQuantity > 0, backorder: product.backorder },
          )}
        </p>
        <div className="card-actions mt-2 flex-nowrap max-sm:flex-wrap">
          {/* The accessible name starts with the visible words, so voice control finds it. */}
          <Link to={paths.product.to(product._id)} className="btn relative flex-1 btn-primary">
            Order now<span className="sr-only">: {product.name}</span>
          </Link>
          {action}
        </div>
      </div>
    </article>
  );
}
