import { useMemo } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { z } from "zod";
import {
  attributeChangeSchema,
  attributeCreateSchema,
  attributeKinds,
  attributeMessages,
  type AttributeDefinition,
  type AttributeKind,
} from "#contract/attributes";
import type { ProductCategory } from "#contract/constants";
import { FormError, FormField, typedNumber } from "../../../components/form-field";
import { FormDialog, useFormDialog } from "../../../components/form-dialog";
import { SelectField } from "../../../components/select-field";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useAddAttribute, useChangeAttribute } from "../api/attributes";

export const kindLabels: Record<AttributeKind, string> = {
  number: "Number",
  text: "Text",
  choice: "Choice",
};

/** "Solid, Vented" → ["Solid", "Vented"] (the form's choices are one line, split by commas). */
export const splitChoices = (typed: string) =>
  typed
    .split(",")
    .map((c) => c.trim())
    .filter((c) => c !== "");

/** The add form's fields as typed; checked by the contract's schema once shaped as the request. */
const addFields = z.object({
  name: z.string(),
  kind: z.enum(attributeKinds),
  unit: z.string(),
  choices: z.string(),
  filterable: z.boolean(),
});
type AddFields = z.infer<typeof addFields>;

const addSchemaFor = (category: ProductCategory) =>
  addFields
    .transform((f): z.input<typeof attributeCreateSchema> => ({
      category,
      name: f.name,
      kind: f.kind,
      ...(f.kind === "number" && f.unit.trim() !== "" && { unit: f.unit }),
      ...(f.kind === "choice" && { choices: splitChoices(f.choices) }),
      filterable: f.filterable,
    }))
    .pipe(attributeCreateSchema);

const addDefaults: AddFields = {
  name: "",
  kind: "number",
  unit: "",
  choices: "",
  filterable: true,
};

function KindFields({
  kind,
  idPrefix,
  unit,
  unitError,
  choices,
  choicesError,
}: {
  kind: AttributeKind;
  idPrefix: string;
  unit: UseFormRegisterReturn;
  unitError?: string;
  choices: UseFormRegisterReturn;
  choicesError?: string;
}) {
  if (kind === "number") {
    return (
      <FormField
        id={`${idPrefix}-unit`}
        label="Unit (optional)"
        placeholder="mm"
        hint="Shown after each value, such as mm, kg or V"
        error={unitError}
        {...unit}
      />
    );
  }
  if (kind === "choice") {
    return (
      <FormField
        id={`${idPrefix}-choices`}
        label="Choices"
        placeholder="Solid, Vented"
        hint="Separate the choices with commas"
        error={choicesError}
        {...choices}
      />
    );
  }
  return null;
}

function FilterableField({ id, field }: { id: string; field: UseFormRegisterReturn }) {
  return (
    <label htmlFor={id} className="flex items-center gap-2 text-sm">
      <input id={id} type="checkbox" className="checkbox checkbox-sm" {...field} />
      Offer it as a filter on All products
    </label>
  );
}

/** Adds an attribute to the category shown (listed last). */
export function AddAttributeForm({ category }: { category: ProductCategory }) {
  const add = useAddAttribute();
  const schema = useMemo(() => addSchemaFor(category), [category]);
  const { field, register, reset, watch, submitWith, formError, formState } = useApiForm(schema, {
    defaultValues: addDefaults,
  });
  const { errors } = formState;
  const kind = watch("kind");
  return (
    <form
      noValidate
      aria-label="Add an attribute"
      onSubmit={submitWith(async (body) => {
        await add.mutateAsync(body);
        notify.success(attributeMessages.added(body.name));
        reset({ ...addDefaults, kind: body.kind });
      })}
      className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4"
    >
      <h2 className="font-semibold">Add an attribute to {category}</h2>
      <FormField id="add-attribute-name" label="Name" placeholder="Diameter" {...field("name")} />
      <SelectField label="Kind" id="add-attribute-kind" {...register("kind")}>
        {attributeKinds.map((k) => (
          <option key={k} value={k}>
            {kindLabels[k]}
          </option>
        ))}
      </SelectField>
      <KindFields
        kind={kind}
        idPrefix="add-attribute"
        unit={register("unit")}
        unitError={errors.unit?.message}
        choices={register("choices")}
        choicesError={errors.choices?.message}
      />
      <FilterableField id="add-attribute-filterable" field={register("filterable")} />
      <FormError message={formError} />
      <button type="submit" className="btn btn-primary self-start" disabled={add.isPending}>
        Add attribute
      </button>
    </form>
  );
}

const editFields = z.object({
  name: z.string(),
  unit: z.string(),
  choices: z.string(),
  position: z.number(),
  filterable: z.boolean(),
});
type EditFields = z.infer<typeof editFields>;

const editSchemaFor = (def: AttributeDefinition) =>
  editFields
    .transform((f): z.input<typeof attributeChangeSchema> => ({
      name: f.name,
      ...(def.kind === "number" && { unit: f.unit.trim() === "" ? null : f.unit }),
      ...(def.kind === "choice" && { choices: splitChoices(f.choices) }),
      position: f.position,
      filterable: f.filterable,
    }))
    .pipe(attributeChangeSchema);

/** Renames an attribute, or changes its unit, choices, position or filter (never its kind). */
export function EditAttributeDialog({
  definition,
  onClose,
}: {
  definition: AttributeDefinition;
  onClose(): void;
}) {
  const change = useChangeAttribute();
  const schema = useMemo(() => editSchemaFor(definition), [definition]);
  const { field, register, formState, dialog } = useFormDialog(
    schema,
    {
      name: definition.name,
      unit: definition.unit ?? "",
      choices: definition.choices.join(", "),
      position: definition.position,
      filterable: definition.filterable,
    } satisfies EditFields,
    {
      write: (body) => change.mutateAsync({ id: definition.id, body }),
      busy: change.isPending,
      said: (_, body) => attributeMessages.changed(body.name ?? definition.name),
      onClose,
    },
  );
  const { errors } = formState;
  return (
    <FormDialog title={`Edit the attribute ${definition.name}`} {...dialog}>
      <FormField id="edit-attribute-name" label="Name" {...field("name")} />
      <p className="text-sm text-base-content/75">
        Kind: {kindLabels[definition.kind]} (a kind cannot change: remove the attribute and add a
        new one)
      </p>
      <KindFields
        kind={definition.kind}
        idPrefix="edit-attribute"
        unit={register("unit")}
        unitError={errors.unit?.message}
        choices={register("choices")}
        choicesError={errors.choices?.message}
      />
      <FormField
        id="edit-attribute-position"
        label="Position"
        type="number"
        inputMode="numeric"
        hint="Attributes are listed from the lowest position up"
        {...field("position", { setValueAs: typedNumber })}
      />
      <FilterableField id="edit-attribute-filterable" field={register("filterable")} />
    </FormDialog>
  );
}
