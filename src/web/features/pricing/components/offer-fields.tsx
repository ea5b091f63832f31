import { productCategories } from "#contract/constants";
import { FormField } from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";
import type { FieldProps } from "../../../lib/use-api-form";

/** An empty box is null: no date, no limit, no group. */
export const emptyIsNull = { setValueAs: (v: string | null) => v || null };

/** The fields of an offer (a price rule, a discount code) these pieces draw, by their names. */
type OfferFieldName = "category" | "partNumber" | "startsOn" | "endsOn";

/** A form's `field(name)` (`useApiForm`), for the names below. */
type OfferField = (name: OfferFieldName, options?: typeof emptyIsNull) => FieldProps;

/**
 * What an offer is for, as its scope says: a category (chosen from the store's) or one part by its
 * part number; nothing more for all parts (a price rule adds a brand). `prefix` keeps two forms'
 * ids apart.
 */
export function OfferTargetField({
  prefix,
  scope,
  field,
}: {
  prefix: string;
  scope?: string;
  field: OfferField;
}) {
  if (scope === "category") {
    return (
      <SelectField label="Category" id={`${prefix}-category`} {...field("category")}>
        {productCategories.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </SelectField>
    );
  }
  if (scope === "part") {
    return <FormField label="Part number" id={`${prefix}-part`} {...field("partNumber")} />;
  }
  return null;
}

/** When an offer holds: from and until, either left empty for no bound. */
export function OfferDateFields({ prefix, field }: { prefix: string; field: OfferField }) {
  return (
    <>
      <FormField
        label="From (optional)"
        id={`${prefix}-from`}
        type="date"
        {...field("startsOn", emptyIsNull)}
      />
      <FormField
        label="Until (optional)"
        id={`${prefix}-until`}
        type="date"
        {...field("endsOn", emptyIsNull)}
      />
    </>
  );
}

/** An offer's percent off: a whole number from 1 to 100. */
export function PercentOffField({
  prefix,
  required,
  ...field
}: { prefix: string; required?: boolean } & FieldProps) {
  return (
    <FormField
      label="Percent off"
      id={`${prefix}-percent`}
      type="number"
      min="1"
      max="100"
      step="1"
      required={required}
      {...field}
    />
  );
}
