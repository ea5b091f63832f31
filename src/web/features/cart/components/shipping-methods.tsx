import type { Cart } from "#contract/cart";
import { formatPrice } from "../../../lib/format";
import { DeliveryWindow } from "./delivery-window";

const looks = {
  // The checkout's: each method a bordered card, its name in bold.
  cards: {
    list: "flex flex-col gap-2",
    method: "flex cursor-pointer items-center gap-3 rounded-box border border-base-300 p-3 text-sm",
    radio: "radio radio-sm",
    text: "flex flex-1 flex-wrap justify-between gap-2",
  },
  // The cart's estimate: a compact list.
  compact: {
    list: "flex flex-col gap-1 text-sm",
    method: "flex items-center gap-2",
    radio: "radio radio-xs",
    text: "flex flex-1 flex-wrap justify-between gap-x-2",
  },
};

/**
 * The shipping methods a cart's quote offers, as radios: each says its name, estimate, price
 * ("Free" at nothing) and delivery window; `chosen` is checked, `onChoose` hears another.
 */
export function ShippingMethods({
  cart,
  name,
  chosen,
  onChoose,
  look,
}: {
  cart: Cart;
  /** The radios' group name (one per form on a page). */
  name: string;
  chosen: string | null | undefined;
  onChoose: (methodId: string) => void;
  look: keyof typeof looks;
}) {
  const css = looks[look];
  return (
    <fieldset className={css.list}>
      <legend className="sr-only">Shipping method</legend>
      {cart.shippingOptions.map((o) => (
        <label key={o.id} className={css.method}>
          <input
            type="radio"
            name={name}
            className={css.radio}
            checked={chosen === o.id}
            onChange={() => onChoose(o.id)}
            aria-label={`${o.name}, ${o.estimate}, ${formatPrice(o.price, cart.currency)}`}
          />
          <span className={css.text}>
            <span>
              {look === "cards" ? <span className="font-medium">{o.name}</span> : o.name}{" "}
              <span className="text-base-content/75">{o.estimate}</span>
            </span>
            <span>{o.price === 0 ? "Free" : formatPrice(o.price, cart.currency)}</span>
            <DeliveryWindow option={o} />
          </span>
        </label>
      ))}
    </fieldset>
  );
}
