import {
  useFieldArray,
  type Control,
  type FieldErrors,
  type FieldValues,
  type UseFormRegister,
} from "react-hook-form";
import { crossReferenceKinds, productCategories, type ProductCategory } from "#contract/constants";
import {
  MAX_BRAND_LENGTH,
  MAX_CROSS_REFERENCES,
  MAX_PART_NUMBER_LENGTH,
  type CrossReferenceInput,
} from "#contract/products";
import { FormField } from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";
import { SelectOptions } from "../../../components/select-options";

/** What Add Product and the edit form both ask about a product's numbers and part type. */
export interface CatalogValues {
  partNumber: string;
  category: ProductCategory;
  crossReferences?: CrossReferenceInput[];
}

const kindLabels = { OE: "OE", competitor: "Equivalent", superseded: "Superseded" } as const;

/**
 * Part number, category and the cross-reference rows (kind, brand, number). The forms pass their
 * own `control`, `register` and `errors`, narrowed here to these fields.
 */
export function CatalogFields<T extends FieldValues>(form: {
  control: Control<T>;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
}) {
  const { control, register, errors } = form as unknown as {
    control: Control<CatalogValues>;
    register: UseFormRegister<CatalogValues>;
    errors: FieldErrors<CatalogValues>;
  };
  const refs = useFieldArray({ control, name: "crossReferences" });
  const categoryError = errors.category?.message;
  return (
    <>
      <FormField
        label="Part number"
        maxLength={MAX_PART_NUMBER_LENGTH}
        autoCapitalize="characters"
        hint="Ours, e.g. PW-BK-3001: unique in the catalog"
        error={errors.partNumber?.message}
        {...register("partNumber")}
      />
      <SelectField label="Category" id="category" error={categoryError} {...register("category")}>
        <SelectOptions empty="Choose…" values={productCategories} />
      </SelectField>
      <fieldset className="flex flex-col gap-2 md:col-span-2">
        <legend className="mb-1 text-sm font-medium">Cross-reference numbers</legend>
        {refs.fields.length === 0 && (
          <p className="text-sm text-base-content/70">
            None yet: add the OE and other brands&apos; numbers this part replaces.
          </p>
        )}
        {refs.fields.map((field, i) => {
          const rowErrors = errors.crossReferences?.[i];
          return (
            <div
              key={field.id}
              className="grid grid-cols-[7rem_1fr_1fr_auto] items-start gap-2"
              data-testid="cross-reference-row"
            >
              <select
                aria-label={`Kind of number ${i + 1}`}
                className="select select-bordered select-sm"
                {...register(`crossReferences.${i}.kind`)}
              >
                {crossReferenceKinds.map((k) => (
                  <option key={k} value={k}>
                    {kindLabels[k]}
                  </option>
                ))}
              </select>
              <div>
                <input
                  aria-label={`Brand of number ${i + 1}`}
                  placeholder="Brand, e.g. Toyota"
                  maxLength={MAX_BRAND_LENGTH}
                  className={`input input-bordered input-sm w-full ${rowErrors?.brand ? "input-error" : ""}`}
                  aria-invalid={rowErrors?.brand ? true : undefined}
                  {...register(`crossReferences.${i}.brand`)}
                />
                {rowErrors?.brand?.message && (
                  <p className="text-sm text-error">{rowErrors.brand.message}</p>
                )}
              </div>
              <div>
                <input
                  aria-label={`Number ${i + 1}`}
                  placeholder="Number, e.g. 04465-02220"
                  maxLength={MAX_PART_NUMBER_LENGTH}
                  className={`input input-bordered input-sm w-full ${rowErrors?.number ? "input-error" : ""}`}
                  aria-invalid={rowErrors?.number ? true : undefined}
                  {...register(`crossReferences.${i}.number`)}
                />
                {rowErrors?.number?.message && (
                  <p className="text-sm text-error">{rowErrors.number.message}</p>
                )}
              </div>
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => refs.remove(i)}>
                Remove<span className="sr-only"> number {i + 1}</span>
              </button>
            </div>
          );
        })}
        {errors.crossReferences?.message && (
          <p className="text-sm text-error">{errors.crossReferences.message}</p>
        )}
        {errors.crossReferences?.root?.message && (
          <p className="text-sm text-error">{errors.crossReferences.root.message}</p>
        )}
        <div>
          <button
            type="button"
            className="btn btn-sm"
            disabled={refs.fields.length >= MAX_CROSS_REFERENCES}
            onClick={() => refs.append({ kind: "OE", brand: "", number: "" })}
          >
            Add a number
          </button>
        </div>
      </fieldset>
    </>
  );
}
