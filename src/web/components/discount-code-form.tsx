import type { ReactNode } from "react";
import { applyDiscountCodeSchema } from "#contract/discount-codes";
import { useApiForm } from "../lib/use-api-form";
import { FormError, FormField } from "./form-field";

/**
 * A discount code typed and applied (docs/pricing.md "Discount codes"), the cart's and the
 * one-product order's: `apply(code)` settles once the code applies (the box is then emptied) or
 * throws the server's refusal, shown under the box. `busy` holds Apply while a code is sent;
 * `children` come under the refusal.
 */
export function DiscountCodeForm({
  id,
  apply,
  busy,
  children,
}: {
  id: string;
  apply(code: string): Promise<unknown>;
  busy?: boolean;
  children?: ReactNode;
}) {
  const { field, submitWith, formError, reset } = useApiForm(applyDiscountCodeSchema, {
    defaultValues: { code: "" },
  });
  return (
    <form
      noValidate
      aria-label="Apply a discount code"
      className="flex flex-col gap-2"
      onSubmit={submitWith(async ({ code }) => {
        await apply(code);
        reset({ code: "" });
      })}
    >
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <FormField label="Discount code" id={id} autoComplete="off" {...field("code")} />
        </div>
        <button type="submit" className="btn btn-outline" disabled={busy}>
          Apply
        </button>
      </div>
      <FormError message={formError} />
      {children}
    </form>
  );
}

/** "Remove code": takes an applied (or refused) discount code off. */
export function RemoveCodeButton({ onClick, busy }: { onClick(): void; busy?: boolean }) {
  return (
    <button type="button" className="btn btn-ghost btn-xs" disabled={busy} onClick={onClick}>
      Remove code
    </button>
  );
}
