import { useState } from "react";
import { Link } from "react-router";
import { notify } from "../../../lib/notify";
import { orderMessages } from "#contract/orders";
import type { Product } from "#contract/products";
import { Modal } from "../../../components/modal";
import { formatPrice } from "../../../lib/format";
import type { SessionUser } from "../../../lib/session";
import { useSiteConfig } from "../../../lib/use-site-config";
import { usePlaceOrder } from "../api/orders";
import { OrderForm, type OrderContact } from "./order-form";
import { QuantitySelector } from "./quantity-selector";

/**
 * Quantity, total and the order action (SPEC sections 2, 5 and 8). The quantity rules are checked
 * here for a quick answer and again, authoritatively, by the server.
 */
export function OrderPanel({
  product,
  customer,
  myItemsTo,
}: {
  product: Product;
  customer: SessionUser;
  myItemsTo: string;
}) {
  const currency = useSiteConfig().data?.currency;
  const [quantity, setQuantity] = useState(0);
  const [open, setOpen] = useState(false);
  const [placed, setPlaced] = useState(false);
  const place = usePlaceOrder();

  const startOrder = () => {
    if (quantity < product.minimumOrder) {
      window.alert(orderMessages.atLeast(product.minimumOrder));
      return;
    }
    if (quantity > product.availableQuantity) {
      window.alert(orderMessages.lessThen(product.availableQuantity));
      return;
    }
    setOpen(true);
  };

  const submit = (contact: OrderContact) =>
    place.mutate(
      { productId: product._id, orderQty: quantity, ...contact },
      {
        onSuccess: () => {
          notify.success(orderMessages.placed);
          setOpen(false);
          setQuantity(0);
          setPlaced(true);
        },
        onError: (err) => {
          notify.error(err.message);
          setOpen(false);
        },
      },
    );

  return (
    <div className="flex flex-col gap-4 rounded-box border border-base-300 p-4">
      <div className="flex flex-wrap items-center gap-4">
        <QuantitySelector value={quantity} onChange={setQuantity} />
        <p className="text-lg">
          Total:{" "}
          <strong data-testid="order-total">
            {formatPrice(quantity * product.price, currency)}
          </strong>
        </p>
      </div>
      <button type="button" className="btn btn-primary" onClick={startOrder}>
        Place Order
      </button>
      {placed && (
        <p className="text-sm">
          Pay for it from{" "}
          <Link className="link link-primary" to={myItemsTo}>
            My Items
          </Link>
          .
        </p>
      )}
      <Modal open={open} title={`Order ${product.name}`} onClose={() => setOpen(false)}>
        <p className="mb-3 text-sm text-base-content/80">
          {quantity} × {formatPrice(product.price, currency)} ={" "}
          <strong>{formatPrice(quantity * product.price, currency)}</strong>
        </p>
        <OrderForm
          customer={customer}
          busy={place.isPending}
          onSubmit={submit}
          onCancel={() => setOpen(false)}
        />
      </Modal>
    </div>
  );
}
