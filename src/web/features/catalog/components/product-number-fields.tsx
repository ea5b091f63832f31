import type { UseFormRegisterReturn } from "react-hook-form";
import { FormField, wholeNumber } from "../../../components/form-field";

type NumberField =
  "price" | "warranty" | "minimumOrder" | "retailMinimum" | "packSize" | "availableQuantity";

interface Props {
  /** The form's `register` (react-hook-form): the fields are read as numbers. */
  register: (
    name: NumberField,
    options: { valueAsNumber: true; deps?: "minimumOrder" },
  ) => UseFormRegisterReturn;
  errors: Partial<Record<NumberField, { message?: string }>>;
}

/**
 * Price, warranty, the minimums (trade and retail), the pack size and stock, as Add Product and
 * the edit form both ask them (docs/pricing.md "Quantities by group").
 */
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
        hint="Trade groups order at least this many"
        {...wholeNumber(1)}
        error={errors.minimumOrder?.message}
        {...register("minimumOrder", asNumber)}
      />
      <FormField
        label="Retail minimum"
        hint="Retail customers and visitors order at least this many"
        {...wholeNumber(1)}
        error={errors.retailMinimum?.message}
        {...register("retailMinimum", asNumber)}
      />
      <FormField
        label="Pack size"
        hint="Trade groups order in multiples of this (1: any quantity)"
        {...wholeNumber(1)}
        error={errors.packSize?.message}
        {...register("packSize", asNumber)}
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
