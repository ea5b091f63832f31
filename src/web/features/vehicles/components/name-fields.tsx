import type { ReactNode } from "react";
import { FormField } from "../../../components/form-field";
import type { FieldProps } from "../../../lib/use-api-form";

/** A VCdb id field's text when adding: empty is "not given", anything else a number. */
export const optionalNumber = (typed: unknown) =>
  typeof typed !== "string" || typed.trim() === "" ? undefined : Number(typed);

/** A VCdb id field's text when editing: empty clears the id (null). */
export const nullableNumber = (typed: unknown) =>
  typeof typed !== "string" || typed.trim() === "" ? null : Number(typed);

/**
 * The name and VCdb id of a make, model, engine or submodel: the fields its add form and its edit
 * dialog share (ids `<idPrefix>-name` and `<idPrefix>-vcdb`). Adding, the VCdb id is optional;
 * editing, an empty one clears it. `children` stand between the two (an engine's litres, fuel).
 */
export function NameAndVcdbFields({
  idPrefix,
  label,
  vcdbLabel,
  editing = false,
  placeholder,
  name,
  vcdb,
  children,
}: {
  idPrefix: string;
  /** "Make"; the VCdb id's: "VCdb make id". */
  label: string;
  vcdbLabel: string;
  editing?: boolean;
  placeholder?: string;
  /** The form's `field("name")`. */
  name: FieldProps;
  /** Registered with `optionalNumber` when adding, `nullableNumber` when editing. */
  vcdb: FieldProps;
  children?: ReactNode;
}) {
  return (
    <>
      <FormField label={label} id={`${idPrefix}-name`} placeholder={placeholder} {...name} />
      {children}
      <FormField
        label={editing ? vcdbLabel : `${vcdbLabel} (optional)`}
        id={`${idPrefix}-vcdb`}
        inputMode="numeric"
        hint={editing ? "Empty: none" : undefined}
        {...vcdb}
      />
    </>
  );
}
