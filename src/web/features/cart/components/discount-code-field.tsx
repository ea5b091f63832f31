import type { Cart } from "#contract/cart";
import { DiscountCodeForm, RemoveCodeButton } from "../../../components/discount-code-form";
import { notify } from "../../../lib/notify";
import { useCartDiscountCode } from "../api/discount-code";

/**
 * The cart's discount code (docs/pricing.md "Discount codes"): a customer types one and applies
 * it; the server answers the cart with its discount line, or why the code cannot be used. An
 * applied code is named with what it takes off, and can be removed.
 */
export function DiscountCodeField({ cart }: { cart: Cart }) {
  const { apply, remove } = useCartDiscountCode();
  const removeCode = (
    <RemoveCodeButton
      busy={remove.isPending}
      onClick={() => remove.mutate(undefined, { onError: (err) => notify.error(err.message) })}
    />
  );
  const applied = cart.discount;
  if (applied) {
    return (
      <div className="flex flex-col gap-1 text-sm" data-testid="discount-applied">
        <p className="flex flex-wrap items-center justify-between gap-2">
          <span>
            Code <strong>{applied.code}</strong>: {applied.appliesTo}
          </span>
          {removeCode}
        </p>
      </div>
    );
  }
  return (
    <DiscountCodeForm
      id="discount-code"
      apply={(code) => apply.mutateAsync(code)}
      busy={apply.isPending}
    >
      {cart.discountProblem && (
        <p className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span data-testid="discount-problem">{cart.discountProblem}</span>
          {removeCode}
        </p>
      )}
    </DiscountCodeForm>
  );
}
