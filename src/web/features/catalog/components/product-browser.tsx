import type { Product } from "#contract/products";
import type { ReactNode } from "react";
import { PRODUCTS_PAGE_SIZE, productSorts, type ProductSort } from "#contract/constants";
import { QueryError } from "../../../components/query-error";
import { Pagination } from "../../../components/pagination";
import { SearchForm } from "../../../components/search-form";
import { useUrlParams } from "../../../lib/use-url-params";
import { useSiteConfig } from "../../../lib/use-site-config";
import { productBrowserState, useProducts } from "../api/get-products";
import { ProductCard } from "./product-card";
import { ProductGridSkeleton } from "./product-card-skeleton";

const sortLabels: Record<ProductSort, string> = {
  newest: "Newest first",
  price_asc: "Price: low to high",
  price_desc: "Price: high to low",
  name: "Name A–Z",
};

/** All products with search, sort and paging, all kept in the URL so a page can be shared. */
export function ProductBrowser({
  cardAction,
}: {
  /** A second action on each card (the cart's button), from the page. */
  cardAction?: (product: Product) => ReactNode;
} = {}) {
  const [params, update] = useUrlParams();
  const { q, sort, page, maxPage, query } = productBrowserState(params);
  const { data, error, isPending } = useProducts(query);
  const currency = useSiteConfig().data?.currency;

  return (
    <div>
      <div className="mb-6">
        <SearchForm
          label="Search parts"
          placeholder="Brake disc, filter, alternator…"
          value={q}
          onSearch={(text) => update({ q: text, page: undefined })}
        >
          <label>
            <span className="mb-1 block text-sm font-medium">Sort by</span>
            <select
              className="select select-bordered"
              value={sort}
              onChange={(e) => update({ sort: e.target.value, page: undefined })}
            >
              {productSorts.map((s) => (
                <option key={s} value={s}>
                  {sortLabels[s]}
                </option>
              ))}
            </select>
          </label>
        </SearchForm>
      </div>

      {isPending ? (
        <>
          {/* Where the "N parts" line goes. */}
          <div className="mb-4 h-5" />
          <ProductGridSkeleton count={PRODUCTS_PAGE_SIZE} label="Loading products" />
        </>
      ) : error ? (
        <QueryError error={error} />
      ) : data.items.length === 0 ? (
        <p className="py-16 text-center text-base-content/70">
          {q ? `No parts match “${q}”.` : "There are no products yet."}
        </p>
      ) : (
        <>
          <p className="mb-4 text-sm text-base-content/70" aria-live="polite">
            {data.total} {data.total === 1 ? "part" : "parts"}
            {q ? ` matching “${q}”` : ""}
          </p>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {data.items.map((p, i) => (
              <ProductCard
                action={cardAction?.(p)}
                key={p._id}
                product={p}
                currency={currency}
                eager={i < 3}
                priority={i === 0}
                headingLevel={2}
              />
            ))}
          </div>
          <Pagination
            page={page}
            pageCount={Math.max(
              1,
              // The API pages no deeper than MAX_OFFSET; search narrows a huge catalog instead.
              Math.min(Math.ceil(data.total / PRODUCTS_PAGE_SIZE), maxPage),
            )}
            onChange={(p) => update({ page: p === 1 ? undefined : String(p) })}
          />
        </>
      )}
    </div>
  );
}
