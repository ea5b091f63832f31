import { formatCount, formatPrice } from "../../../lib/format";

/** A table of quantity prices: from each quantity on, one unit's price. */
export function PriceBreaksTable({
  rows,
  currency,
}: {
  rows: readonly { minQty: number; unitPrice: number }[];
  currency: string | undefined;
}) {
  return (
    <table className="table table-sm" aria-label="Quantity prices" data-testid="price-breaks">
      <thead>
        <tr>
          <th scope="col" className="text-base-content">
            Quantity
          </th>
          <th scope="col" className="text-right text-base-content">
            Unit price
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((b) => (
          <tr key={b.minQty}>
            <td>{formatCount(b.minQty)}+</td>
            <td className="text-right">{formatPrice(b.unitPrice, currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
