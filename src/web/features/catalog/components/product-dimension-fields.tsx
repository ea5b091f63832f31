import type { UseFormRegisterReturn } from "react-hook-form";
import { MAX_DIMENSION_MM } from "#contract/products";
import { FormField } from "../../../components/form-field";

type DimensionField = "lengthMm" | "widthMm" | "heightMm";

const labels: Record<DimensionField, string> = {
  lengthMm: "Length (mm)",
  widthMm: "Width (mm)",
  heightMm: "Height (mm)",
};

interface Props {
  /** The form's `register` (react-hook-form): each side is read as a number, empty as `empty`. */
  register: (
    name: DimensionField,
    options: { setValueAs(typed: string): number | null | undefined },
  ) => UseFormRegisterReturn;
  errors: Partial<Record<DimensionField, { message?: string }>>;
  /**
   * What an emptied field holds: undefined in Add Product (not given), null in the edit form
   * (removed; the edit sends all three null).
   */
  empty: null | undefined;
}

/** Length, width and height, as Add Product and the edit form both ask them: all three or none. */
export function ProductDimensionFields({ register, errors, empty }: Props) {
  const setValueAs = (typed: string) => (typed === "" ? empty : Number(typed));
  return (
    <>
      {(Object.keys(labels) as DimensionField[]).map((name) => (
        <FormField
          key={name}
          label={labels[name]}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_DIMENSION_MM}
          step={1}
          error={errors[name]?.message}
          {...register(name, { setValueAs })}
        />
      ))}
    </>
  );
}
