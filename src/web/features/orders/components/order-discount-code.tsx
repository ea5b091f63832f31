import { applyDiscountCodeSchema } from "#contract/discount-codes";
import { FormError, FormField } from "../../../components/form-field";
import { useApiForm } from "../../../lib/use-api-form";

/**
 * The one-product order's discount code (docs/pricing.md "Discount codes"), in the order dialog:
 * a code is applied once the server's total for the order takes it (`check`), and the dialog's
 * totals then show its line; a refusal says why in the cart's words. An applied code can be
 * removed.
 */
export function OrderDiscountCode({
  applied,
  check,
  onApply,
  onRemove,
}: {
  /** The code applied (undefined: none). */
  applied?: string;
  /** Asks the order's total with the code: settles when it applies, throws the refusal. */
  check(code: string): Promise<unknown>;
  onApply(code: string): void;
  onRemove(): void;
}) {
  const { field, submitWith, formError, reset } = useApiForm(applyDiscountCodeSchema, {
    defaultValues: { code: "" },
  });
  if (applied) {
    return (
      <p
        className="flex flex-wrap items-center justify-between gap-2 text-sm"
        data-testid="order-discount-applied"
      >
        <span>
          Code <strong>{applied}</strong> applied
        </span>
        <button type="button" className="btn btn-ghost btn-xs" onClick={onRemove}>
          Remove code
        </button>
      </p>
    );
  }
  return (
    <form
      noValidate
      aria-label="Apply a discount code"
      className="flex flex-col gap-2"
      onSubmit={submitWith(async ({ code }) => {
        await check(code);
        onApply(code);
        reset({ code: "" });
      })}
    >
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <FormField
            label="Discount code"
            id="order-discount-code"
            autoComplete="off"
            {...field("code")}
          />
        </div>
        <button type="submit" className="btn btn-outline">
          Apply
        </button>
      </div>
      <FormError message={formError} />
    </form>
  );
}
