import type { UseFormRegisterReturn } from "react-hook-form";
import { FormField, wholeNumber } from "../../../components/form-field";

type NumberField = "price" | "warranty" | "minimumOrder" | "availableQuantity";

interface Props {
  /** The form's `register` (react-hook-form): the four fields are read as numbers. */
  register: (
    name: NumberField,
    options: { valueAsNumber: true; deps?: "minimumOrder" },
  ) => UseFormRegisterReturn;
  errors: Partial<Record<NumberField, { message?: string }>>;
}

/** Price, warranty, minimum order and stock, as Add Product and the edit form both ask them. */
export function ProductNumberFields({ register, errors }: Props) {
  const asNumber = { valueAsNumber: true } as const;
  return (
    <>
      <FormField
        label="Price"
        type="number"
        inputMode="decimal"
        min={0}
        step="0.01"
        error={errors.price?.message}
        {...register("price", asNumber)}
      />
      <FormField
        label="Warranty (months)"
        {...wholeNumber(0)}
        error={errors.warranty?.message}
        {...register("warranty", asNumber)}
      />
      <FormField
        label="Minimum order"
        {...wholeNumber(1)}
        error={errors.minimumOrder?.message}
        {...register("minimumOrder", asNumber)}
      />
      <FormField
        label="Available quantity"
        {...wholeNumber(0)}
        error={errors.availableQuantity?.message}
        // The minimum-order message depends on this number too: recheck it on every change.
        {...register("availableQuantity", { ...asNumber, deps: "minimumOrder" })}
      />
    </>
  );
}
