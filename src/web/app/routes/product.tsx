import { useParams } from "react-router";
import { ProductDetails } from "../../features/catalog/components/product-details";
import { useProduct } from "../../features/catalog/api/get-product";
import { OrderPanel } from "../../features/orders/components/order-panel";
import { usePageTitle } from "../../components/page-title";
import { ProductFrame } from "./product-frame";
import { useSession } from "../../lib/session";
import { paths } from "#contract/paths";
import { useAddressBook } from "../address-book";
import { AddToCartButton } from "../../features/cart/components/add-to-cart-button";
import { ProductFitment } from "../../features/fitment/components/product-fitment";
import { Specifications } from "../../features/attributes/components/specifications";
import { ChosenVehicleNote } from "../../features/fitment/components/chosen-vehicle-note";
import { loadRememberedVehicle } from "../../lib/vehicle-choice";
import { unitPriceAt, useProductPrice } from "../../features/pricing/api/product-price";
import { YourPrice } from "../../features/pricing/components/your-price";
import { PublicBreaks, publicUnitPriceAt } from "../../features/pricing/components/public-breaks";
import { useSiteConfig } from "../../lib/use-site-config";

export function ProductRoute() {
  const { id = "" } = useParams();
  const query = useProduct(id);
  const product = query.data;
  const { data: user } = useSession();
  // A company buyer's own price and breaks (not part of the shared, cached product answer).
  const customer = Boolean(user && user.role !== "admin");
  const book = useAddressBook(customer);
  const { data: ownPrice } = useProductPrice(id, customer);
  const currency = useSiteConfig().data?.currency;
  usePageTitle(product?.name ?? "Product");
  return (
    <ProductFrame query={query} loading="Loading the product">
      {(shared) => {
        // The caller's own minimum order and pack size (docs/pricing.md "Quantities by group"):
        // until their price has come, the part's retail minimum and no pack.
        const product = {
          ...shared,
          minimumOrder:
            ownPrice?.minimumOrder ?? (customer ? shared.retailMinimum : shared.minimumOrder),
          packSize: ownPrice?.packSize ?? 1,
        };
        return (
          <ProductDetails product={product}>
            {/* Admins do not order. */}
            {ownPrice && <YourPrice price={ownPrice} />}
            {/* The store's quantity prices, for everyone; a company buyer's table includes them. */}
            {!ownPrice?.companyPrice && <PublicBreaks product={product} currency={currency} />}
            {user && user.role !== "admin" && (
              <OrderPanel
                unitPriceAt={(qty) =>
                  ownPrice ? unitPriceAt(ownPrice, qty) : publicUnitPriceAt(product, qty)
                }
                product={product}
                customer={user}
                myItemsTo={paths.myItems}
                book={book}
                vehicleNote={<ChosenVehicleNote vehicle={loadRememberedVehicle()} />}
                cartAction={(qty) => (
                  <AddToCartButton product={product} qty={qty} className="flex-1" />
                )}
              />
            )}
            <Specifications attributes={product.attributes} />
            <ProductFitment productId={product._id} vehicle={loadRememberedVehicle()} />
          </ProductDetails>
        );
      }}
    </ProductFrame>
  );
}
