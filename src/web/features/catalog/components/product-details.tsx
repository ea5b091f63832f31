import type { ReactNode } from "react";
import type { Product } from "#contract/products";
import { formatPrice, formatWarranty } from "../../../lib/format";
import { useSiteConfig } from "../../../lib/use-site-config";

/** The product's picture and facts; the ordering controls come in as children. */
export function ProductDetails({ product, children }: { product: Product; children?: ReactNode }) {
  const currency = useSiteConfig().data?.currency;
  return (
    <article className="grid gap-8 md:grid-cols-2">
      <figure className="overflow-hidden rounded-box border border-base-300 bg-base-200">
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
        <p className="text-base-content/80">{product.shortDescription}</p>
        <dl className="grid grid-cols-2 gap-2 rounded-box bg-base-200 p-4">
          <dt className="text-base-content/70">Unit price</dt>
          <dd className="text-right text-lg font-semibold">
            {formatPrice(product.price, currency)}
          </dd>
          <dt className="text-base-content/70">Minimum order</dt>
          <dd className="text-right">{product.minimumOrder}</dd>
          <dt className="text-base-content/70">Available quantity</dt>
          <dd className="text-right">{product.availableQuantity}</dd>
          <dt className="text-base-content/70">Warranty</dt>
          <dd className="text-right">{formatWarranty(product.warranty)}</dd>
        </dl>
        {children}
      </div>
    </article>
  );
}
