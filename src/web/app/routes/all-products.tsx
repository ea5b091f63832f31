import { useEffect, useState } from "react";
import { cardCartAction } from "../../features/cart/components/add-to-cart-button";
import { ProductBrowser } from "../../features/catalog/components/product-browser";
import { useVehicle } from "../../features/fitment/api/fitment";
import { VehicleSelector } from "../../features/fitment/components/vehicle-selector";
import { usePageTitle } from "../../components/page-title";
import { useUrlParams } from "../../lib/use-url-params";
import {
  loadRememberedVehicle,
  rememberVehicle,
  vehicleFromParams,
  vehicleToParams,
} from "../../lib/vehicle-choice";

export function AllProductsRoute() {
  const [params, update] = useUrlParams();
  const vehicle = vehicleFromParams(params);
  const resolved = useVehicle(vehicle);
  // A visitor's last vehicle, offered in the selector when the URL names none.
  const [remembered, setRemembered] = useState(loadRememberedVehicle);
  const label = resolved.data?.label;
  usePageTitle(
    label ? `Parts that fit your ${label}` : "All products",
    "Every PartsWorks spare part with its price, minimum order, stock and warranty: search by name or description and sort by price, name or newest.",
  );
  // A shared link's vehicle becomes this browser's vehicle too (once we know it exists).
  useEffect(() => {
    if (vehicle && resolved.data) rememberVehicle(vehicle);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the resolved answer is the trigger
  }, [resolved.data]);
  const clearVehicle = () => {
    rememberVehicle(undefined);
    setRemembered(undefined);
    update({ ...vehicleToParams(undefined), page: undefined });
  };
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 lg:py-10">
      <h1 className="mb-4 text-2xl font-bold lg:mb-6 lg:text-3xl" data-testid="products-heading">
        {vehicle ? `Parts that fit your ${label ?? "vehicle"}` : "All products"}
      </h1>
      {/* Outside the filters, which small screens keep in a drawer. */}
      {resolved.error && (
        <p role="alert" className="mb-4 text-error">
          {resolved.error.message}
        </p>
      )}
      <ProductBrowser
        cardAction={cardCartAction}
        vehicleLabel={label}
        onClearVehicle={clearVehicle}
        vehicleFilter={
          <VehicleSelector
            value={vehicle ?? remembered}
            onChoose={(v) => {
              rememberVehicle(v);
              setRemembered(v);
              update({ ...vehicleToParams(v), page: undefined });
            }}
            onClear={clearVehicle}
          />
        }
      />
    </div>
  );
}
