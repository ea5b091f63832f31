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

/** The whole-number fields, in the order asked: the least each takes, and what it means. */
const wholeNumberFields: {
  name: Exclude<NumberField, "price">;
  label: string;
  hint?: string;
  min: number;
}[] = [
  { name: "warranty", label: "Warranty (months)", min: 0 },
  {
    name: "minimumOrder",
    label: "Minimum order",
    hint: "Trade groups order at least this many",
    min: 1,
  },
  {
    name: "retailMinimum",
    label: "Retail minimum",
    hint: "Retail customers and visitors order at least this many",
    min: 1,
  },
  {
    name: "packSize",
    label: "Pack size",
    hint: "Trade groups order in multiples of this (1: any quantity)",
    min: 1,
  },
  { name: "availableQuantity", label: "Available quantity", min: 0 },
];

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
      {wholeNumberFields.map(({ name, label, hint, min }) => (
        <FormField
          key={name}
          label={label}
          hint={hint}
          {...wholeNumber(min)}
          error={errors[name]?.message}
          // The minimum-order message depends on the available quantity too: recheck it on
          // every change of that.
          {...register(
            name,
            name === "availableQuantity" ? { ...asNumber, deps: "minimumOrder" } : asNumber,
          )}
        />
      ))}
    </>
  );
}
