import type { Cart } from "#contract/cart";
import { applyDiscountCodeSchema } from "#contract/discount-codes";
import { FormError, FormField } from "../../../components/form-field";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useCartDiscountCode } from "../api/discount-code";

/**
 * The cart's discount code (docs/pricing.md "Discount codes"): a customer types one and applies
 * it; the server answers the cart with its discount line, or why the code cannot be used. An
 * applied code is named with what it takes off, and can be removed.
 */
export function DiscountCodeField({ cart }: { cart: Cart }) {
  const { apply, remove } = useCartDiscountCode();
  const { field, submitWith, formError, reset } = useApiForm(applyDiscountCodeSchema, {
    defaultValues: { code: "" },
  });
  const applied = cart.discount;
  if (applied) {
    return (
      <div className="flex flex-col gap-1 text-sm" data-testid="discount-applied">
        <p className="flex flex-wrap items-center justify-between gap-2">
          <span>
            Code <strong>{applied.code}</strong>: {applied.appliesTo}
          </span>
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, { onError: (err) => notify.error(err.message) })
            }
          >
            Remove code
          </button>
        </p>
      </div>
    );
  }
  return (
    <form
      noValidate
      aria-label="Apply a discount code"
      className="flex flex-col gap-2"
      onSubmit={submitWith(async ({ code }) => {
        await apply.mutateAsync(code);
        reset({ code: "" });
      })}
    >
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <FormField
            label="Discount code"
            id="discount-code"
            autoComplete="off"
            {...field("code")}
          />
        </div>
        <button type="submit" className="btn btn-outline" disabled={apply.isPending}>
          Apply
        </button>
      </div>
      <FormError message={formError} />
      {cart.discountProblem && (
        <p className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span data-testid="discount-problem">{cart.discountProblem}</span>
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, { onError: (err) => notify.error(err.message) })
            }
          >
            Remove code
          </button>
        </p>
      )}
    </form>
  );
}
