import type { Cart } from "#contract/cart";
import { discountLineLabel } from "#contract/discount-codes";
import { vatIncludedWords } from "#contract/tax";
import { formatPrice } from "../../../lib/format";

/** Subtotal, shipping, tax and total, as the server computed them. */
export function Totals({ cart, estimate = false }: { cart: Cart; estimate?: boolean }) {
  const money = (n: number) => formatPrice(n, cart.currency);
  const method = cart.shippingOptions.find((o) => o.id === cart.shippingMethodId);
  return (
    <dl className="flex flex-col gap-1 border-t border-base-300 pt-2 text-sm">
      {cart.marketNotice && (
        // The destination's market is not the buyer's: the totals are in its currency (docs/pricing.md).
        <p role="status" className="alert text-sm alert-info" data-testid="market-notice">
          {cart.marketNotice}
        </p>
      )}
      <div className="flex justify-between">
        <dt>Subtotal</dt>
        <dd data-testid={estimate ? "estimate-subtotal" : "checkout-subtotal"}>
          {money(cart.subtotal)}
        </dd>
      </div>
      {cart.discount && (
        <div className="flex justify-between">
          <dt>{discountLineLabel(cart.discount.code)}</dt>
          <dd data-testid={estimate ? "estimate-discount" : "checkout-discount"}>
            −{money(cart.discount.amount)}
          </dd>
        </div>
      )}
      {cart.coreDeposits > 0 && (
        <div className="flex justify-between">
          <dt>Core deposits (not taxed)</dt>
          <dd data-testid={estimate ? "estimate-core-deposits" : "checkout-core-deposits"}>
            {money(cart.coreDeposits)}
          </dd>
        </div>
      )}
      <div className="flex justify-between">
        <dt>Shipping{method ? ` (${method.name})` : ""}</dt>
        <dd data-testid={estimate ? "estimate-shipping" : "checkout-shipping"}>
          {money(cart.shipping)}
        </dd>
      </div>
      {!cart.pricesIncludeTax && (
        <div className="flex justify-between">
          <dt>{cart.taxName ? `${cart.taxName} (${cart.taxRate} %)` : "Tax"}</dt>
          <dd data-testid={estimate ? "estimate-tax" : "checkout-tax"}>{money(cart.tax)}</dd>
        </div>
      )}
      {cart.taxNote && (
        <p
          className="text-xs text-base-content/70"
          data-testid={estimate ? "estimate-tax-note" : "checkout-tax-note"}
        >
          {cart.taxNote}
        </p>
      )}
      <div className="flex justify-between border-t border-base-300 pt-2 text-base">
        <dt className="font-semibold">{estimate ? "Estimated total" : "Total"}</dt>
        <dd>
          <strong data-testid={estimate ? "estimate-total" : "checkout-total"}>
            {money(cart.total)}
          </strong>
        </dd>
      </div>
      {cart.pricesIncludeTax && (
        // Gross prices: the VAT they contain, not added (docs/tax.md).
        <p
          className="text-right text-xs text-base-content/70"
          data-testid={estimate ? "estimate-tax-included" : "checkout-tax-included"}
        >
          {vatIncludedWords.total(cart.taxRate ?? 0, money(cart.tax))}
        </p>
      )}
    </dl>
  );
}
