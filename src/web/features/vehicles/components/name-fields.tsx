import type { ReactNode } from "react";
import { FormField, typedNumberOrNull } from "../../../components/form-field";
import type { FieldProps } from "../../../lib/use-api-form";

/**
 * A VCdb id field's text when adding: empty is "not given", anything else a number (when editing,
 * empty clears the id: `typedNumberOrNull`).
 */
export const optionalNumber = (typed: unknown) =>
  typeof typed !== "string" || typed.trim() === "" ? undefined : Number(typed);

/** The records named by a name and a VCdb id: their label, and their VCdb id's field and label. */
const namedRecords = {
  make: { label: "Make", vcdb: "vcdbMakeId", vcdbLabel: "VCdb make id" },
  model: { label: "Model", vcdb: "vcdbModelId", vcdbLabel: "VCdb model id" },
  engine: { label: "Engine", vcdb: "vcdbEngineConfigId", vcdbLabel: "VCdb engine config id" },
  submodel: { label: "Submodel", vcdb: "vcdbSubmodelId", vcdbLabel: "VCdb submodel id" },
} as const;

export type NamedRecordKind = keyof typeof namedRecords;

/**
 * The name and VCdb id of a make, model, engine or submodel: the fields its add form and its edit
 * dialog share (ids `add-<kind>-name` and `add-<kind>-vcdb`, or `edit-…`). Adding, the VCdb id is
 * optional; editing, an empty one clears it. `field` is the form's; `children` stand between the
 * two (an engine's litres, fuel).
 */
export function NameAndVcdbFields<K extends NamedRecordKind>({
  kind,
  editing = false,
  placeholder,
  field,
  children,
}: {
  kind: K;
  editing?: boolean;
  placeholder?: string;
  field: (
    name: "name" | (typeof namedRecords)[K]["vcdb"],
    options?: { setValueAs: (typed: unknown) => unknown },
  ) => FieldProps;
  children?: ReactNode;
}) {
  const { label, vcdb, vcdbLabel } = namedRecords[kind];
  const idPrefix = `${editing ? "edit" : "add"}-${kind}`;
  return (
    <>
      <FormField
        label={label}
        id={`${idPrefix}-name`}
        placeholder={placeholder}
        {...field("name")}
      />
      {children}
      <FormField
        label={editing ? vcdbLabel : `${vcdbLabel} (optional)`}
        id={`${idPrefix}-vcdb`}
        inputMode="numeric"
        hint={editing ? "Empty: none" : undefined}
        {...field(vcdb, { setValueAs: editing ? typedNumberOrNull : optionalNumber })}
      />
    </>
  );
}
