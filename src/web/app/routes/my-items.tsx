import { MyOrders } from "../../features/orders/components/my-orders";
import { usePageTitle } from "../../components/page-title";

export function MyItemsRoute() {
  usePageTitle("My Items");
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">My Items</h1>
      <MyOrders />
    </div>
  );
}
