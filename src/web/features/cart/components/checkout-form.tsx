import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { Link } from "../../../components/link";
import { z } from "zod";
import { checkoutSchema, type Cart } from "#contract/cart";
import { orderMessages } from "#contract/orders";
import { paths } from "#contract/paths";
import { DeliveryFields } from "../../../components/delivery-fields";
import { FormField } from "../../../components/form-field";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { ApiError } from "../../../lib/api-client";
import { formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useSession } from "../../../lib/session";
import { useCart, useCheckout } from "../api/cart-contents";

const deliverySchema = checkoutSchema.pick({ phonrNo: true, Address: true }).extend({
  poReference: z.string().trim().max(60, "Must be 60 characters or shorter"),
  saveToProfile: z.boolean(),
});
type Delivery = z.infer<typeof deliverySchema>;

/** Delivery details the customer keeps in My Info (undefined while they load). */
type SavedDelivery = { phonrNo: string; Address: string } | undefined;

/**
 * /checkout: the delivery details (prefilled from My Info), an optional purchase-order reference,
 * the lines and the total the server computed; placing it orders the whole cart as one order.
 */
export function CheckoutForm({ saved }: { saved: SavedDelivery }) {
  const cart = useCart();
  if (cart.isPending || saved === undefined) return <PageSpinner />;
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
  return <CheckoutFields cart={cart.data} saved={saved} />;
}

function CheckoutFields({
  cart,
  saved,
}: {
  cart: Cart;
  saved: { phonrNo: string; Address: string };
}) {
  const { data: user } = useSession();
  const checkout = useCheckout();
  const navigate = useNavigate();
  const [refusal, setRefusal] = useState<string>();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Delivery>({
    resolver: zodResolver(deliverySchema),
    defaultValues: { ...saved, poReference: "", saveToProfile: !saved.Address && !saved.phonrNo },
  });

  const submit = async (values: Delivery) => {
    setRefusal(undefined);
    try {
      const { order } = await checkout.mutateAsync({
        ...values,
        poReference: values.poReference || undefined,
        expectedTotal: cart.subtotal,
      });
      // Awaited rather than a mutate() callback: the emptied cart may re-render this page as
      // "Your cart is empty" (unmounting the form) before such a callback would run.
      notify.success(orderMessages.placed);
      void navigate(paths.order.to(order._id), { replace: true });
    } catch (err) {
      // What was typed stays; the cart reloads with the reason on its line.
      setRefusal(
        err instanceof ApiError && err.status === 400
          ? "Please check the details above"
          : (err as Error).message,
      );
    }
  };

  return (
    <form
      noValidate
      className="grid gap-6 lg:grid-cols-[1fr_22rem]"
      onSubmit={handleSubmit(submit)}
    >
      <section aria-labelledby="delivery-heading" className="flex flex-col gap-3">
        <h2 id="delivery-heading" className="text-lg font-bold">
          Delivery
        </h2>
        <DeliveryFields
          customer={{ name: user?.name ?? "", email: user?.email ?? "" }}
          address={register("Address")}
          phone={register("phonrNo")}
          addressError={errors.Address?.message}
          phoneError={errors.phonrNo?.message}
        />
        <FormField
          label="Purchase order reference (optional)"
          hint="Printed on your invoice"
          error={errors.poReference?.message}
          {...register("poReference")}
        />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="checkbox checkbox-sm" {...register("saveToProfile")} />
          Keep these details in My Info for next time
        </label>
      </section>

      <section
        aria-labelledby="order-heading"
        className="flex h-fit flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-5"
      >
        <h2 id="order-heading" className="text-lg font-bold">
          Your order
        </h2>
        <ul className="flex flex-col gap-2 text-sm">
          {cart.lines.map((line) => (
            <li key={line.productId} className="flex flex-col">
              <span className="flex justify-between gap-3">
                <span>
                  {line.productName} <span className="text-base-content/75">× {line.qty}</span>
                </span>
                <span>{formatPrice(line.lineTotal, cart.currency)}</span>
              </span>
              {line.notice && <span className="text-warning-content">{line.notice}</span>}
              {line.problem && <span className="font-medium text-error">{line.problem}</span>}
            </li>
          ))}
        </ul>
        <p className="flex justify-between border-t border-base-300 pt-2 text-base">
          <span className="font-semibold">Total</span>
          <strong data-testid="checkout-total">{formatPrice(cart.subtotal, cart.currency)}</strong>
        </p>
        {!cart.canCheckout && (
          <p className="text-sm text-error">
            Some lines cannot be ordered as they are.{" "}
            <Link to={paths.cart} className="link">
              Back to the cart
            </Link>
          </p>
        )}
        {refusal && (
          <p role="alert" className="alert text-sm alert-error">
            {refusal}
          </p>
        )}
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!cart.canCheckout || checkout.isPending}
        >
          {checkout.isPending && <span className="loading loading-spinner loading-sm" />}
          Place order
        </button>
        <p className="text-xs text-base-content/75">
          Placing the order holds the parts for you; then you pay by card.
        </p>
      </section>
    </form>
  );
}
