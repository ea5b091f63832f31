import { Link } from "react-router";
import type { Product } from "../../../../contract/products";
import { formatPrice, formatWarranty } from "../../../lib/format";
import { useSiteConfig } from "../../../lib/use-site-config";

export function ProductCard({ product, eager = false }: { product: Product; eager?: boolean }) {
  const currency = useSiteConfig().data?.currency;
  return (
    <article className="card border border-base-300 bg-base-100 shadow-sm transition hover:shadow-md">
      <figure className="aspect-[4/3] bg-base-200">
        <img
          src={product.img}
          alt={product.name}
          width="400"
          height="300"
          loading={eager ? "eager" : "lazy"}
          className="h-full w-full object-cover"
        />
      </figure>
      <div className="card-body gap-2 p-5">
        <h3 className="card-title text-lg leading-snug">{product.name}</h3>
        <p className="line-clamp-3 text-sm text-base-content/80">{product.shortDescription}</p>
        <dl className="mt-1 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
          <dt className="text-base-content/70">Price</dt>
          <dd className="text-right font-semibold">{formatPrice(product.price, currency)}</dd>
          <dt className="text-base-content/70">Minimum order</dt>
          <dd className="text-right">{product.minimumOrder}</dd>
          <dt className="text-base-content/70">Available</dt>
          <dd className="text-right">{product.availableQuantity}</dd>
          <dt className="text-base-content/70">Warranty</dt>
          <dd className="text-right">{formatWarranty(product.warranty)}</dd>
        </dl>
        <div className="card-actions mt-2">
          <Link
            to={`/products/${product._id}`}
            className="btn btn-primary btn-block"
            aria-label={`Order ${product.name}`}
          >
            Order now
          </Link>
        </div>
      </div>
    </article>
  );
}
