import { TitledPage } from "../../components/page-title";
import { ShippingZones } from "../../features/shipping/components/shipping-zones";

export function ShippingZonesRoute() {
  return (
    <TitledPage title="Shipping Zones">
      <ShippingZones />
    </TitledPage>
  );
}
