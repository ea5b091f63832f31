import { useId, useState } from "react";
import { Link } from "../../../components/link";
import { accountChargeMessage } from "../../../lib/account-charge";
import { notify } from "../../../lib/notify";
import { orderMessages } from "#contract/orders";
import { customerGroupMessages } from "#contract/customer-groups";
import type { Product } from "#contract/products";
import { Modal } from "../../../components/modal";
import { formatCount, formatPrice } from "../../../lib/format";
import type { SessionUser } from "../../../lib/session";
import { useProductCurrency } from "../../../lib/use-site-config";
import { useMyOrders, useOrderTotal, useOrderTotalCheck, usePlaceOrder } from "../api/orders";
import {
  AddressChoice,
  chosenAddressId,
  type AddressBookPort,
} from "../../../components/address-choice";
import { OrderTotalLines } from "../../../components/order-total-lines";
import { ApiError } from "../../../lib/api-client";
import type { ReactNode } from "react";
import { OrderDiscountCode } from "./order-discount-code";
import { OrderForm, type OrderContact } from "./order-form";
import { QuantitySelector } from "./quantity-selector";
import { loadRememberedVehicle, withVehicle } from "../../../lib/vehicle-choice";

/**
 * Quantity, total and the order action (SPEC sections 2, 5 and 8). The quantity rules are checked
 * here for a quick answer and again, authoritatively, by the server.
 */
export function OrderPanel({
  product,
  customer,
  myItemsTo,
  book,
  cartAction,
  unitPriceAt,
  vehicleNote,
}: {
  product: Product;
  customer: SessionUser;
  myItemsTo: string;
  /**
   * Where the order may go (the address book and the company's ship-to addresses): the one
   * chosen fills the form's address and phone, and shipping and tax are worked out for it.
   */
  book: AddressBookPort;
  /** The cart's button for the chosen quantity, from the page. */
  cartAction?: (qty: number) => ReactNode;
  /** The customer's own unit price at a quantity (a company's price and breaks); else the list price. */
  unitPriceAt?: (qty: number) => number;
  /** Says which vehicle the order is for (the shopper's chosen one), from the page. */
  vehicleNote?: ReactNode;
}) {
  const currency = useProductCurrency(product);
  const [quantity, setQuantity] = useState(0);
  const [open, setOpen] = useState(false);
  const [placed, setPlaced] = useState(false);
  const place = usePlaceOrder();
  const [picked, setPicked] = useState<string>();
  const { addresses, companyAddresses } = book;
  const loaded = addresses !== undefined && companyAddresses !== undefined;
  const addressId = loaded ? chosenAddressId(addresses, companyAddresses, picked) : undefined;
  const chosen = [...(addresses ?? []), ...(companyAddresses ?? [])].find(
    (a) => a.id === addressId,
  );
  // A discount code, applied in the dialog once the server's total takes it.
  const [discountCode, setDiscountCode] = useState<string>();
  const checkTotal = useOrderTotalCheck();
  // What it will charge, to the chosen address (asked while the dialog is open).
  const totalInput = { productId: product._id, orderQty: quantity, addressId };
  const total = useOrderTotal(
    open && addressId ? { ...totalInput, ...(discountCode && { discountCode }) } : null,
  );
  const myOrders = useMyOrders();
  const limitsId = useId();
  const unitPrice = unitPriceAt?.(quantity) ?? product.price;
  // The duplicate rule, said before anything is filled in (the server checks it again).
  const alreadyOrdered = myOrders.data?.some(
    (o) => o.status === "unpaid" && o.items.some((l) => l.productId === product._id),
  );
  // Said beside the total (quantity × price, whatever the quantity: SPEC section 2) as the number
  // changes; Place Order still answers with the specification's alerts.
  const warning =
    quantity > product.availableQuantity
      ? `Only ${formatCount(product.availableQuantity)} in stock`
      : quantity > 0 && quantity < product.minimumOrder
        ? `The minimum order is ${formatCount(product.minimumOrder)}`
        : quantity > 0 && quantity % product.packSize !== 0
          ? customerGroupMessages.packs(product.packSize)
          : undefined;

  const startOrder = () => {
    if (alreadyOrdered) {
      notify.error(orderMessages.duplicate);
      return;
    }
    if (quantity < product.minimumOrder) {
      window.alert(orderMessages.atLeast(product.minimumOrder));
      return;
    }
    // A trade buyer's pack (docs/pricing.md "Quantities by group"; 1 for everyone else).
    if (quantity % product.packSize !== 0) {
      window.alert(customerGroupMessages.packs(product.packSize));
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
      {
        productId: product._id,
        orderQty: quantity,
        ...contact,
        addressId,
        // The total shown: a different one (a price changed meanwhile) places nothing.
        expectedTotal: total.data?.total,
        // The code the total was shown with: used once, with the order.
        discountCode,
        // The shopper's chosen vehicle: the order line keeps it (docs/vehicle-on-line.md).
        ...withVehicle(loadRememberedVehicle()),
      },
      {
        onSuccess: async ({ order: placedOrder }) => {
          const onAccount = await accountChargeMessage(placedOrder);
          notify.success(
            onAccount ??
              (placedOrder.status === "awaiting_approval"
                ? orderMessages.sentForApproval
                : orderMessages.placed),
          );
          setOpen(false);
          setQuantity(0);
          setDiscountCode(undefined);
          setPlaced(true);
        },
        // The dialog stays open; the form shows why (a changed total: the new one is shown).
        onError: (err) => {
          notify.error(err.message);
          if (err instanceof ApiError && err.code === "total_changed") void total.refetch();
        },
      },
    );

  return (
    <div className="flex flex-col gap-4 rounded-box border border-base-300 p-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <QuantitySelector value={quantity} onChange={setQuantity} describedBy={limitsId} />
        <p className="text-lg">
          Total:{" "}
          <strong data-testid="order-total">{formatPrice(quantity * unitPrice, currency)}</strong>
        </p>
        <p id={limitsId} className="w-full text-sm text-base-content/75">
          min {formatCount(product.minimumOrder)}
          {product.packSize > 1 && ` · packs of ${formatCount(product.packSize)}`} ·{" "}
          {formatCount(product.availableQuantity)} in stock
        </p>
        <p role="status" className="w-full text-sm font-medium text-warning-content empty:hidden">
          {warning}
        </p>
      </div>
      {alreadyOrdered && (
        <p role="status" className="alert text-sm alert-warning" data-testid="already-ordered">
          <span>
            {orderMessages.duplicate}.{" "}
            <Link className="link" to={myItemsTo}>
              Pay for it or delete it in My Items
            </Link>
            .
          </span>
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn flex-1 btn-primary" onClick={startOrder}>
          Place Order
        </button>
        {cartAction?.(quantity)}
      </div>
      {placed && (
        <p className="text-sm">
          Pay for it from{" "}
          <Link className="link link-primary" to={myItemsTo}>
            My Items
          </Link>
          .
        </p>
      )}
      <Modal
        open={open}
        title={`Order ${product.name}`}
        onClose={() => {
          place.reset();
          setOpen(false);
        }}
      >
        <p className="mb-3 text-sm text-base-content/80">
          {quantity} × {formatPrice(unitPrice, currency)} ={" "}
          <strong>{formatPrice(quantity * unitPrice, currency)}</strong>
        </p>
        {vehicleNote}
        <section aria-labelledby={`${limitsId}-deliver`} className="mb-3 flex flex-col gap-2">
          <h3 id={`${limitsId}-deliver`} className="font-semibold">
            Deliver to
          </h3>
          <AddressChoice
            book={book}
            value={addressId}
            onChange={setPicked}
            customerName={customer.name}
            idPrefix="order-address"
          />
          {addressId && (
            <OrderDiscountCode
              // As the store writes it, once its total is in; as typed until then.
              applied={discountCode && (total.data?.discount?.code ?? discountCode)}
              check={(code) => checkTotal({ ...totalInput, discountCode: code })}
              onApply={setDiscountCode}
              onRemove={() => setDiscountCode(undefined)}
            />
          )}
          {addressId &&
            // A refusal of the order itself is said once, by the form.
            (total.error && !place.error ? (
              <p role="alert" className="alert text-sm alert-warning">
                {total.error.message}
              </p>
            ) : (
              <OrderTotalLines
                total={total.data}
                currency={currency}
                partsLabel="Parts"
                testId="order-dialog-total"
              />
            ))}
        </section>
        <OrderForm
          customer={customer}
          saved={{ phonrNo: chosen?.phone ?? "", Address: chosen?.formatted ?? "" }}
          fromBook
          ready={total.data !== undefined && !total.isFetching}
          refusal={place.error?.message}
          busy={place.isPending}
          onSubmit={submit}
          onCancel={() => {
            place.reset();
            setOpen(false);
          }}
        />
      </Modal>
    </div>
  );
}
