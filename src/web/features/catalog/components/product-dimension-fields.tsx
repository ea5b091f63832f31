import type { UseFormRegisterReturn } from "react-hook-form";
import { MAX_DIMENSION_MM } from "#contract/products";
import { FormField, wholeNumber } from "../../../components/form-field";

type DimensionField = "lengthMm" | "widthMm" | "heightMm";

const labels: Record<DimensionField, string> = {
  lengthMm: "Length (mm)",
  widthMm: "Width (mm)",
  heightMm: "Height (mm)",
};

interface Props {
  /** The form's `register` (react-hook-form): each side is read as a number, an empty one as null. */
  register: (
    name: DimensionField,
    options: { setValueAs(typed: string | null): number | null },
  ) => UseFormRegisterReturn;
  errors: Partial<Record<DimensionField, { message?: string }>>;
}

/**
 * An empty side is null: none. Three empty sides are no dimensions (Add Product) or remove them
 * (the edit form sends all three null); some empty is refused by the contract's rule.
 */
const setValueAs = (typed: string | null) =>
  // react-hook-form hands over the form's default (null for a product without dimensions) until
  // the field is typed in, then the input's text.
  typed === null || typed === "" ? null : Number(typed);

/** Length, width and height, as Add Product and the edit form both ask them: all three or none. */
export function ProductDimensionFields({ register, errors }: Props) {
  return (
    <>
      {(Object.keys(labels) as DimensionField[]).map((name) => (
        <FormField
          key={name}
          label={labels[name]}
          {...wholeNumber(1)}
          max={MAX_DIMENSION_MM}
          error={errors[name]?.message}
          {...register(name, { setValueAs })}
        />
      ))}
    </>
  );
}
