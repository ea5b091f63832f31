import { DiscountCodeForm, RemoveCodeButton } from "../../../components/discount-code-form";

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
  if (applied) {
    return (
      <p
        className="flex flex-wrap items-center justify-between gap-2 text-sm"
        data-testid="order-discount-applied"
      >
        <span>
          Code <strong>{applied}</strong> applied
        </span>
        <RemoveCodeButton onClick={onRemove} />
      </p>
    );
  }
  return (
    <DiscountCodeForm
      id="order-discount-code"
      apply={async (code) => {
        await check(code);
        onApply(code);
      }}
    />
  );
}
