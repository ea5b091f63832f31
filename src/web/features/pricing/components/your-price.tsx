import type { ProductPrice } from "#contract/pricing";
import { formatPrice } from "../../../lib/format";
import { PriceBreaksTable } from "./price-breaks-table";

/**
 * A company buyer's own price on the product page: "Your price" with the list price struck
 * through, what gave it (their group's rule, "Garage price: 20 % off brakes", or their company's
 * price), and the quantity breaks as a table. Nothing for anyone who pays the list price.
 */
export function YourPrice({ price }: { price: ProductPrice }) {
  const own = price.companyPrice || price.priceNote !== null;
  if (!own || (price.yourPrice >= price.listPrice && price.breaks.length < 2)) {
    return null;
  }
  const { currency } = price;
  return (
    <section
      aria-labelledby="your-price"
      className="flex flex-col gap-3 rounded-box border border-success/40 bg-success/5 p-4"
      data-testid="your-price"
    >
      <h2 id="your-price" className="text-lg font-semibold">
        Your price
      </h2>
      <p className="flex flex-wrap items-baseline gap-3">
        <strong className="text-2xl" data-testid="your-price-amount">
          {formatPrice(price.yourPrice, currency)}
        </strong>
        {price.yourPrice < price.listPrice && (
          <s
            className="text-base-content/70"
            aria-label={`List price ${formatPrice(price.listPrice, currency)}`}
          >
            {formatPrice(price.listPrice, currency)}
          </s>
        )}
        <span className="text-sm text-base-content/75" data-testid="your-price-note">
          {price.priceNote ?? "your company's price"}
        </span>
      </p>
      {price.breaks.length > 1 && <PriceBreaksTable rows={price.breaks} currency={currency} />}
    </section>
  );
}
