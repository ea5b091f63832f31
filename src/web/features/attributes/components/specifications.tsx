import type { ProductAttribute } from "#contract/attributes";

/** "280 mm", "Vented": a value as the part page writes it. */
export const attributeValueText = (a: ProductAttribute) =>
  a.unit ? `${a.value} ${a.unit}` : a.value;

/** A part's attributes as a table of names and values (nothing when it has none). */
export function Specifications({ attributes }: { attributes: ProductAttribute[] }) {
  if (attributes.length === 0) return null;
  return (
    <section aria-labelledby="specifications">
      <h2 id="specifications" className="mb-2 text-lg font-semibold">
        Specifications
      </h2>
      <table className="table table-sm" data-testid="specifications">
        <tbody>
          {attributes.map((a) => (
            <tr key={a.name}>
              <th scope="row" className="font-normal text-base-content/75">
                {a.name}
              </th>
              <td className="break-words">{attributeValueText(a)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
