import { BackorderNote } from "./backorder-note";
import { backorderMessages } from "#contract/backorders";
import { useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useNavigate } from "react-router";
import type { Address } from "#contract/addresses";
import type { Cart } from "#contract/cart";
import type { CompanyAddress } from "#contract/companies";
import { orderMessages } from "#contract/orders";
import { paths } from "#contract/paths";
import { onAccountCheckoutWords } from "#contract/payment-words";
import {
  AddressChoice,
  chosenAddressId,
  type AddressBookPort,
} from "../../../components/address-choice";
import { FormField } from "../../../components/form-field";
import { Link } from "../../../components/link";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { accountChargeMessage } from "../../../lib/account-charge";
import { ApiError } from "../../../lib/api-client";
import { formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { queryKeys } from "../../../lib/query-keys";
import { useSession } from "../../../lib/session";
import { useCart, useCheckout } from "../api/cart-contents";
import { useCartQuote } from "../api/cart-quote";
import { Totals } from "./totals";
import { DiscountCodeField } from "./discount-code-field";
import { loadRememberedVehicle, withVehicle } from "../../../lib/vehicle-choice";
import { ShippingMethods } from "./shipping-methods";

/**
 * /checkout: where it goes (a saved address, one of the company's ship-to addresses, or a new
 * one added to the address book), how
 * (the shipping methods serving that address, with price and estimate), an optional purchase-
 * order reference, and the lines, shipping, tax and total the server computed. Placing it orders
 * the whole cart as one order at the total shown.
 */
export function CheckoutForm({
  book,
  vehicleNote,
  termsDays = null,
}: {
  book: AddressBookPort;
  /** Says which vehicle the order is for (the shopper's chosen one), from the page. */
  vehicleNote?: ReactNode;
  /** A buyer of a company on net terms: the days its invoices are due in (null: pays by card). */
  termsDays?: number | null;
}) {
  const cart = useCart();
  // Placed: the order's page is on its way, and the cart, emptied by the order, must not show
  // as "Your cart is empty" meanwhile.
  const [placed, setPlaced] = useState(false);
  if (placed) return <PageSpinner />;
  if (cart.isPending || book.addresses === undefined || book.companyAddresses === undefined) {
    return <PageSpinner />;
  }
  if (cart.error) return <QueryError error={cart.error} />;
  if (!cart.data || cart.data.lines.length === 0) {
    return (
      <p className="flex flex-col items-start gap-3">
        Your cart is empty.
        <Link to={paths.allProducts} className="btn btn-primary">
          Browse all products
        </Link>
      </p>
    );
  }
  return (
    <CheckoutFields
      addresses={book.addresses}
      companyAddresses={book.companyAddresses}
      book={book}
      vehicleNote={vehicleNote}
      termsDays={termsDays}
      onPlaced={() => setPlaced(true)}
    />
  );
}

function CheckoutFields({
  addresses,
  companyAddresses,
  book,
  vehicleNote,
  termsDays,
  onPlaced,
}: {
  addresses: Address[];
  companyAddresses: CompanyAddress[];
  book: AddressBookPort;
  vehicleNote?: ReactNode;
  termsDays: number | null;
  /** The order is placed: the page shows it next. */
  onPlaced: () => void;
}) {
  const { data: user } = useSession();
  const checkout = useCheckout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [picked, setAddressId] = useState<string>();
  // A company address goes by the same `addressId`: the server resolves either kind.
  const addressId = chosenAddressId(addresses, companyAddresses, picked);
  const [methodId, setMethodId] = useState<string>();
  const [poReference, setPoReference] = useState("");
  const [fulfilment, setFulfilment] = useState<"available" | "complete">("available");
  const [refusal, setRefusal] = useState<string>();

  const inCart = useCart().data;
  const quote = useCartQuote(addressId ? { addressId, shippingMethodId: methodId } : null);
  const cart: Cart | undefined = quote.data;
  // A consumer's prices with VAT included (docs/tax.md): the quote's word, else the cart's.
  const grossPrices = (cart ?? inCart)?.pricesIncludeTax === true;
  // The method clicked shows as chosen at once (the quote for it is on its way), while it is
  // among the options; otherwise the one the server charged.
  const chosen = cart?.shippingOptions.some((o) => o.id === methodId)
    ? methodId
    : (cart?.shippingMethodId ?? undefined);

  const onBackorder = cart?.lines.some((l) => l.backorder) ?? false;

  const place = async () => {
    if (!cart || !addressId) return;
    setRefusal(undefined);
    if (poReference.trim().length > 60) {
      setRefusal("The purchase order reference must be 60 characters or shorter");
      return;
    }
    try {
      const { order } = await checkout.mutateAsync({
        addressId,
        shippingMethodId: chosen,
        poReference: poReference.trim() || undefined,
        expectedTotal: cart.total,
        // The discount code the buyer sees applied: the server uses it once (docs/pricing.md).
        ...(cart.discount ? { discountCode: cart.discount.code } : {}),
        // Some units on backorder: how the buyer wants the order shipped (docs/inventory.md).
        ...(onBackorder ? { fulfilment } : {}),
        // The shopper's chosen vehicle: the order lines whose cart line has none keep it
        // (docs/vehicle-on-line.md).
        ...withVehicle(loadRememberedVehicle()),
      });
      // Awaited rather than a mutate() callback: the emptied cart may re-render this page as
      // "Your cart is empty" (unmounting the form) before such a callback would run.
      const onAccount = await accountChargeMessage(order);
      notify.success(
        onAccount ??
          (order.status === "awaiting_approval"
            ? orderMessages.sentForApproval
            : orderMessages.placed),
      );
      onPlaced();
      void navigate(paths.order.to(order._id), { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && err.fields?.total) {
        setRefusal(
          `${err.message}. The total is now ${formatPrice(Number(err.fields.total), cart.currency)}.`,
        );
      } else {
        setRefusal((err as Error).message);
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.cart.all });
    }
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
      <div className="flex flex-col gap-6">
        <section aria-labelledby="delivery-heading" className="flex flex-col gap-3">
          <h2 id="delivery-heading" className="text-lg font-bold">
            Delivery address
          </h2>
          <AddressChoice
            book={book}
            value={addressId}
            onChange={(id) => {
              setAddressId(id);
              setMethodId(undefined);
            }}
            customerName={user?.name}
            idPrefix="checkout-address"
          />
        </section>

        {addressId && cart && (
          <section aria-labelledby="shipping-heading" className="flex flex-col gap-3">
            <h2 id="shipping-heading" className="text-lg font-bold">
              Shipping method
            </h2>
            {cart.deliveryProblem ? (
              <p role="alert" className="alert text-sm alert-warning">
                {cart.deliveryProblem}
              </p>
            ) : (
              <ShippingMethods
                cart={cart}
                name="shipping-method"
                chosen={chosen}
                onChoose={setMethodId}
                look="cards"
              />
            )}
          </section>
        )}

        {onBackorder && (
          <fieldset className="flex flex-col gap-2" data-testid="fulfilment">
            <legend className="mb-1 text-lg font-bold">{backorderMessages.chooseHow}</legend>
            {(
              [
                ["available", backorderMessages.shipAvailable],
                ["complete", backorderMessages.shipComplete],
              ] as const
            ).map(([value, label]) => (
              <label
                key={value}
                className="flex cursor-pointer items-center gap-3 rounded-box border border-base-300 p-3 text-sm"
              >
                <input
                  type="radio"
                  name="fulfilment"
                  className="radio radio-sm"
                  checked={fulfilment === value}
                  onChange={() => setFulfilment(value)}
                />
                {label}
              </label>
            ))}
          </fieldset>
        )}

        <FormField
          label="Purchase order reference (optional)"
          name="poReference"
          hint="Shown on your order"
          value={poReference}
          maxLength={60}
          onChange={(e) => setPoReference(e.target.value)}
        />
      </div>

      <section
        aria-labelledby="order-heading"
        className="flex h-fit flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-5"
      >
        <h2 id="order-heading" className="text-lg font-bold">
          Your order
        </h2>
        {vehicleNote}
        {!cart ? (
          <p className="text-sm text-base-content/75" data-testid="checkout-waiting-words">
            {checkoutWaitingWords({ grossPrices, hasAddress: Boolean(addressId) })}
          </p>
        ) : (
          <>
            <ul className="flex flex-col gap-2 text-sm">
              {cart.lines.map((line) => (
                <li key={line.productId} className="flex flex-col">
                  <span className="flex justify-between gap-3">
                    <span>
                      {line.productName} <span className="text-base-content/75">× {line.qty}</span>
                    </span>
                    <span>{formatPrice(line.lineTotal, cart.currency)}</span>
                  </span>
                  {line.vehicle && (
                    <span className="text-base-content/75" data-testid="checkout-line-vehicle">
                      For: {line.vehicle}
                    </span>
                  )}
                  <BackorderNote line={line} className="text-base-content/75" />
                  {line.notice && <span className="text-warning-content">{line.notice}</span>}
                  {line.problem && <span className="font-medium text-error">{line.problem}</span>}
                </li>
              ))}
            </ul>
            <Totals cart={cart} />
            <DiscountCodeField cart={cart} />
            {!cart.canCheckout && (
              <p className="text-sm text-error">
                Some lines cannot be ordered as they are.{" "}
                <Link to={paths.cart} className="link">
                  Back to the cart
                </Link>
              </p>
            )}
          </>
        )}
        {refusal && (
          <p role="alert" className="alert text-sm alert-error">
            {refusal}
          </p>
        )}
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void place()}
          disabled={
            !cart ||
            !addressId ||
            quote.isFetching ||
            !cart.canCheckout ||
            cart.deliveryProblem !== null ||
            checkout.isPending
          }
        >
          {checkout.isPending && <span className="loading loading-spinner loading-sm" />}
          Place order
        </button>
        {termsDays ? (
          <p className="text-sm" data-testid="checkout-pays-how">
            {onAccountCheckoutWords(termsDays)}
          </p>
        ) : (
          <CheckoutPricesWords grossPrices={grossPrices} />
        )}
      </section>
    </div>
  );
}

/**
 * What "Your order" says before its quote: a consumer's prices with VAT included (docs/tax.md)
 * are gross at a rate the delivery country sets (the market's first country's before an
 * address: Austria's 20 % in Europe), so no tax is added but the prices may change with it;
 * everyone else's get shipping and tax added.
 */
export function checkoutWaitingWords(opts: { grossPrices: boolean; hasAddress: boolean }) {
  if (opts.hasAddress) {
    return opts.grossPrices ? "Working out shipping and VAT…" : "Working out shipping and tax…";
  }
  return opts.grossPrices
    ? "Add a delivery address to see shipping and your prices with its country's VAT."
    : "Add a delivery address to see shipping and tax.";
}

/**
 * What the checkout says of its prices under "Place order": a consumer's prices with VAT included
 * (docs/tax.md) include it and only shipping is added; everyone else's are before tax.
 */
export function CheckoutPricesWords({ grossPrices }: { grossPrices: boolean }) {
  return (
    <p className="text-xs text-base-content/75" data-testid="checkout-prices-words">
      {grossPrices
        ? "Prices include VAT; shipping is added here."
        : "Prices are before tax; shipping and tax are added here."}{" "}
      Placing the order holds the parts for you; then you pay by card.
    </p>
  );
}
