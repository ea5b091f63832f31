import type { ReactNode } from "react";
import type { Product } from "#contract/products";
import { Link } from "../../../components/link";
import { QueryError } from "../../../components/query-error";
import { useSiteConfig } from "../../../lib/use-site-config";
import { NEWEST_PRODUCTS_QUERY, useProducts } from "../api/get-products";
import { ProductCard } from "./product-card";
import { ProductGridSkeleton } from "./product-card-skeleton";

/** The landing page's three newest products with a See All button (SPEC section 2). */
export function NewestProducts({
  seeAllTo,
  cardAction,
}: {
  seeAllTo: string;
  /** A second action on each card (the cart's button), from the page. */
  cardAction?: (product: Product) => ReactNode;
}) {
  const { data, error, isPending } = useProducts(NEWEST_PRODUCTS_QUERY);
  const currency = useSiteConfig().data?.currency;
  return (
    <section aria-labelledby="newest-heading" className="mx-auto max-w-6xl px-4 py-14">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="newest-heading" className="text-3xl font-bold">
            Newest parts
          </h2>
          <p className="text-base-content/70">Fresh from our production line.</p>
        </div>
        <Link to={seeAllTo} className="btn btn-outline btn-primary">
          See All
        </Link>
      </div>
      {isPending ? (
        <ProductGridSkeleton count={3} label="Loading the newest parts" />
      ) : error ? (
        <QueryError error={error} />
      ) : (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="newest-products">
          {data.items.map((p, i) => (
            <ProductCard
              key={p._id}
              product={p}
              currency={currency}
              eager={i === 0}
              action={cardAction?.(p)}
            />
          ))}
        </div>
      )}
    </section>
  );
}
