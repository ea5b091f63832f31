import { useParams } from "react-router";
import { usePageTitle } from "../../components/page-title";
import { QueryError } from "../../components/query-error";
import { PageSpinner } from "../../components/spinner";
import { useAdminOrderDetail } from "../../features/orders/api/orders-admin";
import { useDeliveryPromise, useOrder } from "../../features/orders/api/orders";
import { OrderDetails } from "../../features/orders/components/order-details";
import { OrderReturns } from "../../features/returns/components/order-returns";
import { OrderWarranty } from "../../features/warranty/components/order-warranty";
import { ReturnVehiclePicker } from "../return-vehicle-picker";
import { useOrderShipments } from "../../features/shipments/api/shipments";
import { OrderShipments } from "../../features/shipments/components/order-shipments";
import { formatOrderNumber } from "../../lib/format";
import { useSession } from "../../lib/session";

/** One order: the customer's confirmation, or the admin's full view. */
export function OrderRoute() {
  const { id = "" } = useParams();
  const isAdmin = useSession().data?.role === "admin";
  const order = useOrder(id);
  usePageTitle(order.data ? `Order ${formatOrderNumber(order.data)}` : "Order");
  const detail = useAdminOrderDetail(id, isAdmin);
  const shippable = order.data?.status === "paid" || order.data?.status === "shipped";
  const shipments = useOrderShipments(id, shippable);
  const promise = useDeliveryPromise(id, !isAdmin);
  if (order.isPending || (isAdmin && detail.isPending)) return <PageSpinner />;
  if (order.error) return <QueryError error={order.error} />;
  return (
    <div className="flex flex-col gap-6">
      <OrderDetails
        order={order.data}
        detail={isAdmin ? detail.data : undefined}
        onBackorder={shipments.data?.lines.reduce((n, l) => n + (l.backorder?.waiting ?? 0), 0)}
        promised={promise.data?.words}
      />
      {shipments.data && shippable && <OrderShipments data={shipments.data} isAdmin={isAdmin} />}
      <OrderReturns
        order={order.data}
        canRequest={!isAdmin}
        partlyShipped={(shipments.data?.shipments.length ?? 0) > 0}
        VehiclePicker={ReturnVehiclePicker}
      />
      <OrderWarranty
        order={order.data}
        canClaim={!isAdmin}
        partlyShipped={(shipments.data?.shipments.length ?? 0) > 0}
      />
    </div>
  );
}
