import { useSearchParams } from "react-router";
import { productSorts, type ProductSort } from "../../../../contract/constants";
import { QueryError } from "../../../components/query-error";
import { Pagination } from "../../../components/pagination";
import { useSiteConfig } from "../../../lib/use-site-config";
import { PRODUCTS_PAGE_SIZE, productBrowserState, useProducts } from "../api/get-products";
import { ProductCard } from "./product-card";
import { ProductGridSkeleton } from "./product-card-skeleton";

const sortLabels: Record<ProductSort, string> = {
  newest: "Newest first",
  price_asc: "Price: low to high",
  price_desc: "Price: high to low",
  name: "Name A–Z",
};

/** All products with search, sort and paging, all kept in the URL so a page can be shared. */
export function ProductBrowser() {
  const [params, setParams] = useSearchParams();
  const { q, sort, page, maxPage, query } = productBrowserState(params);
  const { data, error, isPending } = useProducts(query);
  const currency = useSiteConfig().data?.currency;

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next);
  };

  return (
    <div>
      <form
        role="search"
        className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          const value = new FormData(e.currentTarget).get("q");
          update({ q: typeof value === "string" ? value.trim() : undefined, page: undefined });
        }}
      >
        <label className="form-control flex-1">
          <span className="label-text mb-1 block text-sm font-medium">Search parts</span>
          <input
            key={q}
            name="q"
            type="search"
            defaultValue={q}
            maxLength={100}
            placeholder="Brake disc, filter, alternator…"
            className="input input-bordered w-full"
          />
        </label>
        <button type="submit" className="btn btn-primary">
          Search
        </button>
        <label className="form-control">
          <span className="label-text mb-1 block text-sm font-medium">Sort by</span>
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
      </form>

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
