import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { ProductDetailsSkeleton } from "../../features/catalog/components/product-details-skeleton";
import { NotFound } from "../../features/content/components/not-found";
import { QueryError } from "../../components/query-error";
import { ApiError } from "../../lib/api-client";

/**
 * What a product's page is while its answer loads, when it fails, and when there is no such
 * product (the ordering page `/products/{id}` and the public part page `/parts/{slug}`).
 */
export function ProductFrame<T>({
  query,
  loading,
  children,
}: {
  query: Pick<UseQueryResult<T>, "data" | "error" | "isPending">;
  /** Said to screen readers while it loads ("Loading the product"). */
  loading: string;
  children: (data: T) => ReactNode;
}) {
  const { data, error, isPending } = query;
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
    return <NotFound what="product" />;
  }
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      {isPending ? (
        <>
          <span role="status" className="sr-only">
            {loading}
          </span>
          <ProductDetailsSkeleton />
        </>
      ) : error ? (
        <QueryError error={error} />
      ) : (
        data !== undefined && children(data)
      )}
    </div>
  );
}
