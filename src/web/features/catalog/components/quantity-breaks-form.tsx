import { z } from "zod";
import { breaksText, parseBreaksText, priceBreaksSchema } from "#contract/pricing";
import type { ProductDetail } from "#contract/products";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useUpdateProduct } from "../api/update-product";

/** The breaks as written, `10:11.00|50:9.80`, read and checked with the breaks' own rules. */
const breaksFormSchema = z.object({
  breaks: z.string().transform((written, ctx) => {
    let breaks;
    try {
      breaks = parseBreaksText(written);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as Error).message });
      return z.NEVER;
    }
    const checked = priceBreaksSchema.safeParse(breaks);
    if (!checked.success) {
      ctx.addIssue({
        code: "custom",
        message: checked.error.issues[0]?.message ?? "Check the breaks",
      });
      return z.NEVER;
    }
    return checked.data;
  }),
});

/**
 * Admin: a product's public quantity breaks (docs/pricing.md), written `10:11.00|50:9.80`
 * as on price lists, and saved on their own. Everyone, visitors included, pays the break price
 * from that quantity on; each break must be cheaper than the product's price (checked by the
 * server, which answers the field's message).
 */
export function QuantityBreaksForm({ product }: { product: ProductDetail }) {
  const save = useUpdateProduct();
  const { register, reset, submitWith, formError, formState } = useApiForm(breaksFormSchema, {
    defaultValues: { breaks: breaksText(product.breaks) },
  });
  const error = formState.errors.breaks?.message ?? formError;

  return (
    <form
      noValidate
      aria-label="Quantity breaks"
      className="flex flex-wrap items-end gap-2 rounded-box border border-base-300 p-3"
      onSubmit={submitWith(async ({ breaks }) => {
        const saved = await save.mutateAsync({ id: product._id, changes: { breaks } });
        reset({ breaks: breaksText(saved.breaks) });
        notify.success(
          saved.breaks.length === 0
            ? `${saved.name} has no quantity breaks now`
            : `The quantity breaks of ${saved.name} are saved`,
        );
      })}
    >
      <div className="flex min-w-60 flex-1 flex-col gap-1">
        <label htmlFor="quantity-breaks" className="text-sm font-medium">
          Quantity breaks for everyone (QTY:PRICE|QTY:PRICE)
        </label>
        <input
          id="quantity-breaks"
          placeholder="10:11.00|50:9.80"
          className={`input input-bordered w-full ${error ? "input-error" : ""}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "quantity-breaks-error" : "quantity-breaks-hint"}
          {...register("breaks")}
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
