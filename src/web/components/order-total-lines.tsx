import { discountLineLabel } from "#contract/discount-codes";
import type { OrderTotal } from "#contract/orders";
import { vatIncludedWords } from "#contract/tax";
import { formatPrice } from "../lib/format";

/**
 * What an order will charge, as the server worked it out for the chosen address: the parts,
 * a discount code's line, core deposits, shipping (with its method), tax and the total to pay (the
 * product page's order dialog, a quote's acceptance).
 */
export function OrderTotalLines({
  total,
  currency,
  partsLabel,
  testId,
}: {
  /** Undefined while it is worked out. */
  total?: OrderTotal;
  currency: string | undefined;
  /** "Parts", "Quoted parts". */
  partsLabel: string;
  testId: string;
}) {
  if (!total) return <p className="text-sm text-base-content/75">Working out the total…</p>;
  return (
    <dl className="grid max-w-sm grid-cols-[1fr_auto] gap-x-4 text-sm" data-testid={testId}>
      <dt>{partsLabel}</dt>
      <dd className="text-right">{formatPrice(total.subtotal, currency)}</dd>
      {total.discount && (
        <>
          <dt>{discountLineLabel(total.discount.code)}</dt>
          <dd className="text-right" data-testid={`${testId}-discount`}>
            −{formatPrice(total.discount.amount, currency)}
          </dd>
        </>
      )}
      {total.coreDeposits > 0 && (
        <>
          <dt>Core deposits</dt>
          <dd className="text-right">{formatPrice(total.coreDeposits, currency)}</dd>
        </>
      )}
      <dt>Shipping{total.shippingMethod ? ` (${total.shippingMethod})` : ""}</dt>
      <dd className="text-right">{formatPrice(total.shipping, currency)}</dd>
      {!total.pricesIncludeTax && (
        <>
          <dt>Tax</dt>
          <dd className="text-right">{formatPrice(total.tax, currency)}</dd>
        </>
      )}
      <dt className="font-bold">Total to pay</dt>
      <dd className="text-right font-bold" data-testid={`${testId}-to-pay`}>
        {formatPrice(total.total, currency)}
      </dd>
      {total.pricesIncludeTax && (
        // Gross prices: the VAT they contain, not added (docs/tax.md).
        <>
          <dt className="text-xs text-base-content/75">
            {vatIncludedWords.label(total.taxRate ?? 0)}
          </dt>
          <dd
            className="text-right text-xs text-base-content/75"
            data-testid={`${testId}-tax-included`}
          >
            {formatPrice(total.tax, currency)}
          </dd>
        </>
      )}
    </dl>
  );
}
