import { usePageTitle } from "../../components/page-title";
import { ShippingZones } from "../../features/shipping/components/shipping-zones";

export function ShippingZonesRoute() {
  usePageTitle("Shipping Zones");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Shipping Zones</h1>
      <ShippingZones />
    </div>
  );
}
