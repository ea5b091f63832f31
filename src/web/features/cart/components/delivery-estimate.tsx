import { useState } from "react";
import { destinationEstimateSchema, type DestinationEstimate } from "#contract/addresses";
import { useNewAddressCountry } from "../../../components/address-country";
import { CountryOptions } from "../../../components/country-options";
import { useVisitorItems } from "../api/cart";
import { useCartQuote } from "../api/cart-quote";
import { Totals } from "./totals";
import { ShippingMethods } from "./shipping-methods";

/** A place the estimate starts at: a saved address's country and postal code. */
export type EstimatePlace = Pick<DestinationEstimate, "country" | "postalCode">;

/**
 * The cart's "delivered cost": shipping and tax for a country and postal code, before signing
 * in. The checkout charges the same to the cent for the same place, lines and method. A
 * signed-in customer's estimate starts at their default address (`home`), as their checkout does.
 */
export function DeliveryEstimate({ visitor, home }: { visitor: boolean; home?: EstimatePlace }) {
  const items = useVisitorItems();
  // Until one is chosen, the country a new address would start in: the default address's, else
  // the chosen market's when it has one (docs/shipping.md "A new address's country"), else none
  // ("Choose a country").
  const preset = useNewAddressCountry(home?.country);
  const [chosenCountry, setCountry] = useState<string>();
  const country = chosenCountry ?? preset ?? "";
  const [typedPostalCode, setPostalCode] = useState<string>();
  const postalCode = typedPostalCode ?? home?.postalCode ?? "";
  const [error, setError] = useState<string>();
  const [place, setPlace] = useState<DestinationEstimate>();
  const [methodId, setMethodId] = useState<string>();
  const quote = useCartQuote(
    place ? { ...(visitor ? { items } : {}), estimate: place, shippingMethodId: methodId } : null,
  );
  const cart = quote.data;
  // The method the visitor chose, and whether the figures shown are still another method's
  // (the new quote is on its way): those are dimmed and marked busy, never read as this one's.
  const chosen =
    cart && cart.shippingOptions.some((x) => x.id === methodId) ? methodId : cart?.shippingMethodId;
  const stale = cart !== undefined && chosen !== cart.shippingMethodId;

  return (
    <section
      aria-labelledby="estimate-heading"
      className="flex flex-col gap-2 border-t border-base-300 pt-3"
    >
      <h3 id="estimate-heading" className="font-semibold">
        Estimate shipping and tax
      </h3>
      <form
        noValidate
        className="flex flex-col gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = destinationEstimateSchema.safeParse({ country, postalCode });
          if (!parsed.success) {
            setError(parsed.error.issues[0]?.message);
            return;
          }
          setError(undefined);
          setMethodId(undefined);
          setPlace(parsed.data);
        }}
      >
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Country</span>
          <select
            className="select select-bordered select-sm w-full"
            value={country}
            onChange={(e) => setCountry(e.target.value)}
          >
            <CountryOptions chosen={country} />
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Postal code</span>
          <input
            className={`input input-bordered input-sm w-full ${error ? "input-error" : ""}`}
            value={postalCode}
            autoComplete="postal-code"
            aria-invalid={error ? true : undefined}
            onChange={(e) => setPostalCode(e.target.value)}
          />
        </label>
        {error && <p className="text-sm text-error">{error}</p>}
        <button type="submit" className="btn btn-sm">
          Estimate
        </button>
      </form>
      {quote.error && <p className="text-sm text-error">{quote.error.message}</p>}
      {cart && cart.destination && (
        <div className="flex flex-col gap-2" data-testid="delivery-estimate">
          {cart.deliveryProblem ? (
            <p className="text-sm text-warning-content">{cart.deliveryProblem}</p>
          ) : (
            <ShippingMethods
              cart={cart}
              name="estimate-method"
              chosen={chosen}
              onChoose={setMethodId}
              look="compact"
            />
          )}
          <div aria-busy={stale} className={stale ? "opacity-50" : undefined}>
            <Totals cart={cart} estimate />
          </div>
        </div>
      )}
    </section>
  );
}
