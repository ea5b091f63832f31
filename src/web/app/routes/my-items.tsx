import { MyOrders } from "../../features/orders/components/my-orders";
import { TitledPage } from "../../components/page-title";

export function MyItemsRoute() {
  return (
    <TitledPage title="My Items">
      <MyOrders />
    </TitledPage>
  );
}
