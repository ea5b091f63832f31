import { useState } from "react";
import { breaksText, parseBreaksText, priceBreaksSchema } from "#contract/price-breaks";
import type { ProductDetail } from "#contract/products";
import { ApiError } from "../../../lib/api-client";
import { notify } from "../../../lib/notify";
import { useUpdateProduct } from "../api/update-product";

/**
 * Admin: a product's public quantity breaks (docs/public-breaks.md), written `10:11.00|50:9.80`
 * as on price lists, and saved on their own. Everyone, visitors included, pays the break price
 * from that quantity on; each break must be cheaper than the product's price (checked by the
 * server, which answers the field's message).
 */
export function QuantityBreaksForm({ product }: { product: ProductDetail }) {
  const save = useUpdateProduct();
  const [value, setValue] = useState(breaksText(product.breaks));
  const [error, setError] = useState<string>();

  const submit = () => {
    setError(undefined);
    let breaks;
    try {
      breaks = parseBreaksText(value);
    } catch (err) {
      setError((err as Error).message);
      return;
    }
    const checked = priceBreaksSchema.safeParse(breaks);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? "Check the breaks");
      return;
    }
    save.mutate(
      { id: product._id, changes: { breaks: checked.data } },
      {
        onSuccess: (saved) => {
          setValue(breaksText(saved.breaks));
          notify.success(
            saved.breaks.length === 0
              ? `${saved.name} has no quantity breaks now`
              : `The quantity breaks of ${saved.name} are saved`,
          );
        },
        onError: (err) =>
          setError(err instanceof ApiError ? (err.fields?.breaks ?? err.message) : err.message),
      },
    );
  };

  return (
    <form
      noValidate
      aria-label="Quantity breaks"
      className="flex flex-wrap items-end gap-2 rounded-box border border-base-300 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="flex min-w-60 flex-1 flex-col gap-1">
        <label htmlFor="quantity-breaks" className="text-sm font-medium">
          Quantity breaks for everyone (QTY:PRICE|QTY:PRICE)
        </label>
        <input
          id="quantity-breaks"
          placeholder="10:11.00|50:9.80"
          className={`input input-bordered w-full ${error ? "input-error" : ""}`}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "quantity-breaks-error" : "quantity-breaks-hint"}
          onChange={(e) => setValue(e.target.value)}
        />
        {!error && (
          <p id="quantity-breaks-hint" className="text-xs text-base-content/70">
            From QTY units on, PRICE each; leave empty for none
          </p>
        )}
      </div>
      <button type="submit" className="btn btn-outline" disabled={save.isPending}>
        Save breaks
      </button>
      {error && (
        <p id="quantity-breaks-error" role="alert" className="w-full text-sm text-error">
          {error}
        </p>
      )}
    </form>
  );
}
