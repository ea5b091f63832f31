import { plural } from "#contract/count";
import type { ProductListItem } from "#contract/products";
import { useState, type ReactNode } from "react";
import { Link } from "../../../components/link";
import {
  PRODUCTS_PAGE_SIZE,
  productCategories,
  productSorts,
  type ProductSort,
} from "#contract/constants";
import { Modal } from "../../../components/modal";
import { QueryError } from "../../../components/query-error";
import { Pagination } from "../../../components/pagination";
import { SearchForm } from "../../../components/search-form";
import { useUrlParams } from "../../../lib/use-url-params";
import { usePrerendering } from "../../../lib/prerendering";
import { useSiteConfig } from "../../../lib/use-site-config";
import { productBrowserState, useProducts, useProductSuggestions } from "../api/get-products";
import { useFacets } from "../api/get-facets";
import { FacetFilters } from "./facet-filters";
import { ProductCard } from "./product-card";
import { ProductGridSkeleton } from "./product-card-skeleton";
import { VEHICLE_PARAMS, vehicleToParams } from "../../../lib/vehicle-choice";

const sortLabels: Record<ProductSort, string> = {
  newest: "Newest first",
  price_asc: "Price: low to high",
  price_desc: "Price: high to low",
  name: "Name A–Z",
};

/**
 * All products with search, sort and paging, all kept in the URL so a page can be shared. From
 * `lg` up the filters (vehicle, category, price, stock) sit above the list, and a category's
 * attribute filters (facets) beside it; on smaller screens the results come first and the
 * filters open in a drawer from the "Filters (n)" button.
 */
export function ProductBrowser({
  cardAction,
  vehicleLabel,
  vehicleFilter,
  onClearVehicle,
}: {
  /** A second action on each card (the cart's button), from the page. */
  cardAction?: (product: ProductListItem) => ReactNode;
  /** The URL's vehicle in words (the page resolves it), for the cards' "Fits your …". */
  vehicleLabel?: string;
  /** The vehicle selector, from the page: the first of the filters. */
  vehicleFilter?: ReactNode;
  /** Removes the URL's vehicle (the chip shown on small screens). */
  onClearVehicle?: () => void;
} = {}) {
  const [params, update] = useUrlParams();
  const prerendering = usePrerendering();
  const { q, category, minPrice, maxPrice, inStock, sort, page, maxPage, vehicle, attr, query } =
    productBrowserState(params);
  const { data, error, isPending } = useProducts(query);
  // The category's attribute filters with counts (none asked for without a category).
  const facets = useFacets(query);
  const currency = useSiteConfig().data?.currency;
  const filtered = Boolean(
    category || minPrice !== undefined || maxPrice !== undefined || inStock || attr.length > 0,
  );
  // Each attribute value ticked is a filter of its own.
  const filterCount =
    [vehicle, category, minPrice ?? maxPrice, inStock || undefined].filter((f) => f !== undefined)
      .length + attr.length;
  // The drawer stays open while filters are chosen in it (each applies at once), and closes when
  // a vehicle is chosen or cleared: its button promises the parts that fit.
  const vehicleKey = VEHICLE_PARAMS.map((k) => params.get(k)).join("/");
  const [drawerOpenFor, setDrawerOpenFor] = useState<string>();
  const drawerOpen = drawerOpenFor === vehicleKey;
  const closeDrawer = () => setDrawerOpenFor(undefined);
  const empty = !isPending && !error && data.items.length === 0;
  const suggestions = useProductSuggestions(q, empty);
  /**
   * This page's URL with some parameters changed (and back to page 1). Another category drops
   * the attribute filters: attributes are a category's.
   */
  const hrefWith = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    next.delete("page");
    if ("category" in changes) next.delete("attr");
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    const search = next.toString();
    return search ? `?${search}` : "?";
  };
  const categoryLinks = (
    <nav aria-label="Categories" className="flex flex-wrap gap-2">
      <Link
        to={hrefWith({ category: undefined })}
        className={`btn btn-sm ${category ? "btn-ghost" : "btn-active"}`}
        aria-current={category ? undefined : "page"}
      >
        All parts
      </Link>
      {productCategories.map((c) => (
        <Link
          key={c}
          to={hrefWith({ category: c })}
          className={`btn btn-sm ${category === c ? "btn-active" : "btn-ghost"}`}
          aria-current={category === c ? "page" : undefined}
        >
          {c}
        </Link>
      ))}
    </nav>
  );

  const clearFiltersTo = hrefWith({
    category: undefined,
    minPrice: undefined,
    maxPrice: undefined,
    inStock: undefined,
    attr: undefined,
  });
  const facetList = (category && facets.data?.facets) || [];
  const facetFilters =
    facetList.length > 0 ? (
      <FacetFilters
        facets={facetList}
        chosen={attr}
        onChange={(next) => update({ attr: next, page: undefined })}
      />
    ) : null;
  // From lg up the facets sit beside the list (rendered there only while the drawer is shut).
  // While a category's facets load, their column is kept, so the list does not move right when
  // they come (it moves back only for a category without attribute filters).
  const facetsLoading = Boolean(category) && facets.isPending;
  const sidebar = (facetFilters !== null || facetsLoading) && !drawerOpen;
  const priceAndStock = (
    <form
      aria-label="Price and stock"
      className="mt-4 flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        const text = (name: string) => String(form.get(name) ?? "").trim() || undefined;
        update({ minPrice: text("minPrice"), maxPrice: text("maxPrice"), page: undefined });
      }}
    >
      {/* Disabled in the pre-rendered page, like the search: a price typed or a box ticked
          before the app runs would be lost when the app replaces the page. */}
      <fieldset disabled={prerendering} className="contents">
        <PriceBox label="Min price" name="minPrice" value={minPrice} />
        <PriceBox label="Max price" name="maxPrice" value={maxPrice} />
        <button type="submit" className="btn btn-sm">
          Apply prices
        </button>
        <label className="flex cursor-pointer items-center gap-2 self-center text-sm">
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            checked={inStock}
            onChange={(e) =>
              update({ inStock: e.target.checked ? "true" : undefined, page: undefined })
            }
          />
          In stock only
        </label>
      </fieldset>
      {filtered && (
        <Link to={clearFiltersTo} className="btn btn-link btn-sm">
          Clear filters
        </Link>
      )}
    </form>
  );

  return (
    <div>
      {/* Each filter is rendered once: in its place from lg up, or in the open drawer. */}
      {vehicleFilter && !drawerOpen && <div className="mb-6 hidden lg:block">{vehicleFilter}</div>}
      <div className="mb-4 lg:mb-6">
        <SearchForm
          label="Search parts"
          placeholder="Brake disc, filter, alternator…"
          value={q}
          onSearch={(text) => update({ q: text, page: undefined })}
        >
          {/* One row under the search on small screens; beside it (sort only) from sm up. */}
          <div className="flex items-end gap-3 sm:contents">
            <button
              type="button"
              className="btn lg:hidden"
              aria-haspopup="dialog"
              onClick={() => setDrawerOpenFor(vehicleKey)}
            >
              {filterCount > 0 ? `Filters (${filterCount})` : "Filters"}
            </button>
            <label className="flex-1 sm:flex-none">
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
          </div>
        </SearchForm>
        {!drawerOpen && (
          <div className="hidden lg:block">
            <div className="mt-4">{categoryLinks}</div>
            {priceAndStock}
          </div>
        )}
      </div>
      <Modal placement="start" open={drawerOpen} title="Filters" onClose={closeDrawer}>
        <div className="flex flex-col gap-4">
          {vehicleFilter}
          {categoryLinks}
        </div>
        {priceAndStock}
        {facetFilters && <div className="mt-4">{facetFilters}</div>}
        <div className="modal-action">
          <button type="button" className="btn w-full btn-primary" onClick={closeDrawer}>
            {data ? `Show ${plural(data.total, "part")}` : "Show parts"}
          </button>
        </div>
      </Modal>
      {vehicle && onClearVehicle && (
        <p className="mb-4 lg:hidden">
          <button
            type="button"
            className="badge h-auto gap-1 py-1 badge-outline badge-lg"
            // The name starts with the visible words, so voice control finds it.
            aria-label={`${vehicleLabel ?? "Your vehicle"}: remove this vehicle`}
            onClick={onClearVehicle}
          >
            {vehicleLabel ?? "Your vehicle"} <span aria-hidden="true">✕</span>
          </button>
        </p>
      )}
      <div
        className={
          sidebar ? "lg:grid lg:grid-cols-[14rem_minmax(0,1fr)] lg:items-start lg:gap-8" : undefined
        }
      >
        {sidebar && (
          <aside aria-label="Attributes" aria-busy={facetsLoading} className="hidden lg:block">
            {facetFilters ?? (
              <div className="flex flex-col gap-4" aria-hidden="true">
                {[0, 1, 2].map((i) => (
                  <div key={i} className="h-16 w-40 rounded bg-base-200" />
                ))}
              </div>
            )}
          </aside>
        )}
        <div>
          {isPending ? (
            <>
              {/* Where the "N parts" line goes. */}
              <div className="mb-4 h-5" />
              <ProductGridSkeleton count={PRODUCTS_PAGE_SIZE} label="Loading products" />
            </>
          ) : error ? (
            <QueryError error={error} />
          ) : data.items.length === 0 ? (
            <div
              className="flex flex-col items-center gap-4 py-16 text-center"
              data-testid="no-results"
            >
              <p className="text-base-content/70">
                {q
                  ? `No parts match “${q}”${category ? ` in ${category}` : ""}.`
                  : filtered
                    ? "No parts match these filters."
                    : vehicle
                      ? `We have no parts listed for your ${vehicleLabel ?? "vehicle"} yet.`
                      : "There are no products yet."}
              </p>
              {(suggestions.data?.didYouMean.length ?? 0) > 0 && (
                <p>
                  Did you mean{" "}
                  {suggestions.data!.didYouMean.map((s, i) => (
                    <span key={s}>
                      {i > 0 && ", "}
                      <Link
                        className="link link-primary"
                        to={
                          (productCategories as readonly string[]).includes(s)
                            ? hrefWith({ q: undefined, category: s })
                            : hrefWith({ q: s })
                        }
                      >
                        {s}
                      </Link>
                    </span>
                  ))}
                  ?
                </p>
              )}
              {filtered && (
                <Link className="btn btn-sm" to={clearFiltersTo}>
                  Clear filters
                </Link>
              )}
              {vehicle && (
                <Link className="btn btn-sm" to={hrefWith(vehicleToParams(undefined))}>
                  Show parts for every vehicle
                </Link>
              )}
              {(q || filtered) && (
                <p className="text-sm text-base-content/70">
                  <span className="lg:hidden">Or choose a category in Filters.</span>
                  <span className="hidden lg:inline">Or browse a category above.</span>
                </p>
              )}
            </div>
          ) : (
            <>
              <p className="mb-4 text-sm text-base-content/70" aria-live="polite">
                {plural(data.total, "part")}
                {q ? ` matching “${q}”` : ""}
                {category ? ` in ${category}` : ""}
              </p>
              <div
                className={`grid gap-6 sm:grid-cols-2 ${sidebar ? "lg:grid-cols-2 xl:grid-cols-3" : "lg:grid-cols-3"}`}
              >
                {data.items.map((p, i) => (
                  <ProductCard
                    action={cardAction?.(p)}
                    key={p._id}
                    product={p}
                    currency={currency}
                    eager={i < 3}
                    priority={i === 0}
                    headingLevel={2}
                    vehicleLabel={vehicle ? (vehicleLabel ?? "vehicle") : undefined}
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
      </div>
    </div>
  );
}

/** A price bound of the filters; a new bound from the address (a link, Back) starts it afresh. */
function PriceBox({ label, name, value }: { label: string; name: string; value?: number }) {
  return (
    <label>
      <span className="mb-1 block text-sm font-medium">{label}</span>
      <input
        key={value ?? ""}
        name={name}
        type="number"
        min={0}
        step="0.01"
        inputMode="decimal"
        defaultValue={value}
        className="input input-bordered input-sm w-28"
      />
    </label>
  );
}
