import { useParams } from "react-router";
import { paths } from "#contract/paths";
import { usePart } from "../../features/catalog/api/get-part";
import { ProductDetails } from "../../features/catalog/components/product-details";
import { PartDocuments, PartPictures } from "../../features/catalog/components/part-assets";
import { Specifications } from "../../features/attributes/components/specifications";
import { ProductFitment } from "../../features/fitment/components/product-fitment";
import { PublicBreaks } from "../../features/pricing/components/public-breaks";
import { Link } from "../../components/link";
import { usePageTitle } from "../../components/page-title";
import { ProductFrame } from "./product-frame";
import { loadRememberedVehicle } from "../../lib/vehicle-choice";

/**
 * `/parts/{slug}`: a part's public page (docs/catalog.md "Part pages"), rendered by the server for
 * everyone: where visitors and search engines arrive. The facts, the public prices, the numbers
 * it replaces and the vehicles it fits; "Order now" leads to the ordering page (which asks to
 * sign in).
 */
export function PartRoute() {
  const { slug = "" } = useParams();
  const query = usePart(slug);
  const part = query.data;
  usePageTitle(
    part ? `${part.name} ${part.partNumber}` : "Part",
    part ? `${part.partNumber}: ${part.shortDescription}` : undefined,
  );
  return (
    <ProductFrame query={query} loading="Loading the part">
      {(part) => (
        <>
          <nav aria-label="Breadcrumb" className="breadcrumbs mb-4 text-sm">
            <ul>
              <li>
                <Link to={paths.home}>Home</Link>
              </li>
              <li>
                <Link to={paths.allProducts}>All products</Link>
              </li>
              <li>
                <Link to={`${paths.allProducts}?category=${encodeURIComponent(part.category)}`}>
                  {part.category}
                </Link>
              </li>
              <li aria-current="page">{part.partNumber}</li>
            </ul>
          </nav>
          {/* Visitors are shown the retail minimum (docs/pricing.md "Quantities by group"). */}
          <ProductDetails
            product={{ ...part, minimumOrder: part.retailMinimum }}
            currency={part.currency}
            brand={part.brand}
          >
            <PublicBreaks product={part} currency={part.currency} />
            <Link
              to={paths.product.to(part._id)}
              className="btn btn-primary self-start"
              data-testid="order-now"
            >
              Order now
            </Link>
            <Specifications attributes={part.attributes} />
            {/* The remembered vehicle lives in this browser (none on the server). */}
            <ProductFitment
              productId={part._id}
              vehicle={loadRememberedVehicle()}
              known={part.applications}
            />
            <PartPictures images={part.images} />
            <PartDocuments documents={part.documents} />
          </ProductDetails>
        </>
      )}
    </ProductFrame>
  );
}
