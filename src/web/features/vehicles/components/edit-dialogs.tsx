import {
  baseVehicleChangeSchema,
  engineChangeSchema,
  makeChangeSchema,
  modelChangeSchema,
  submodelChangeSchema,
  type AdminEngine,
  type AdminMake,
  type AdminModel,
  type AdminSubmodel,
  type BaseVehicleRow,
} from "#contract/vehicles";
import type { DefaultValues, FieldValues } from "react-hook-form";
import type { z } from "zod";
import { FormField, typedNumberOrNull } from "../../../components/form-field";
import { FormDialog, useFormDialog } from "../../../components/form-dialog";
import { useChangeVehicleRecord, type VehicleRecordKind } from "../api/vehicles";
import { EngineChoice } from "./add-forms";
import { NameAndVcdbFields } from "./name-fields";

/**
 * An edit dialog of the record `id` of `kind`: its form (`useApiForm` of `schema`, started from
 * `defaultValues`) and the props of its `FormDialog` (`dialog`), whose Save changes the record,
 * says `saved` and closes the dialog; held while it is sent.
 */
function useEditRecord<Input extends FieldValues, Output extends FieldValues>(
  kind: VehicleRecordKind,
  id: number,
  saved: string,
  onClose: () => void,
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<NoInfer<Input>>,
) {
  const change = useChangeVehicleRecord(kind);
  return useFormDialog(schema, defaultValues, {
    write: (body) => change.mutateAsync({ id, body }),
    busy: change.isPending,
    said: () => saved,
    onClose,
  });
}

export function EditMakeDialog({ make, onClose }: { make: AdminMake; onClose(): void }) {
  const { field, dialog } = useEditRecord(
    "make",
    make.id,
    "Make saved",
    onClose,
    makeChangeSchema,
    {
      name: make.name,
      vcdbMakeId: make.vcdbMakeId ?? undefined,
    },
  );
  return (
    <FormDialog title={`Edit make ${make.name}`} {...dialog}>
      <NameAndVcdbFields kind="make" editing field={field} />
    </FormDialog>
  );
}

export function EditModelDialog({
  model,
  makeName,
  onClose,
}: {
  model: AdminModel;
  makeName: string;
  onClose(): void;
}) {
  const { field, dialog } = useEditRecord(
    "model",
    model.id,
    "Model saved",
    onClose,
    modelChangeSchema,
    { name: model.name, vcdbModelId: model.vcdbModelId ?? undefined },
  );
  return (
    <FormDialog title={`Edit model ${makeName} ${model.name}`} {...dialog}>
      <NameAndVcdbFields kind="model" editing field={field} />
    </FormDialog>
  );
}

export function EditEngineDialog({ engine, onClose }: { engine: AdminEngine; onClose(): void }) {
  const { field, dialog } = useEditRecord(
    "engine",
    engine.id,
    "Engine saved",
    onClose,
    engineChangeSchema,
    {
      name: engine.name,
      liters: engine.liters ?? "",
      fuel: engine.fuel ?? "",
      vcdbEngineConfigId: engine.vcdbEngineConfigId ?? undefined,
    },
  );
  return (
    <FormDialog title={`Edit engine ${engine.name}`} {...dialog}>
      <NameAndVcdbFields kind="engine" editing field={field}>
        <FormField
          label="Litres"
          id="edit-engine-liters"
          inputMode="decimal"
          hint="Empty: not given"
          {...field("liters")}
        />
        <FormField
          label="Fuel"
          id="edit-engine-fuel"
          list="vehicle-fuels"
          hint="Empty: not given"
          {...field("fuel")}
        />
      </NameAndVcdbFields>
    </FormDialog>
  );
}

export function EditSubmodelDialog({
  submodel,
  onClose,
}: {
  submodel: AdminSubmodel;
  onClose(): void;
}) {
  const { field, dialog } = useEditRecord(
    "submodel",
    submodel.id,
    "Submodel saved",
    onClose,
    submodelChangeSchema,
    { name: submodel.name, vcdbSubmodelId: submodel.vcdbSubmodelId ?? undefined },
  );
  return (
    <FormDialog title={`Edit submodel ${submodel.name}`} {...dialog}>
      <NameAndVcdbFields kind="submodel" editing field={field} />
    </FormDialog>
  );
}

/** A base vehicle's year, VCdb id and engines (engines left unticked are taken off it). */
export function EditBaseVehicleDialog({
  row,
  engines,
  onClose,
}: {
  row: BaseVehicleRow;
  engines: AdminEngine[];
  onClose(): void;
}) {
  const { field, dialog, formState, watch, setValue } = useEditRecord(
    "baseVehicle",
    row.id,
    "Vehicle saved",
    onClose,
    baseVehicleChangeSchema,
    {
      year: row.year,
      vcdbBaseVehicleId: row.vcdbBaseVehicleId ?? undefined,
      engineIds: row.engines.map((e) => e.id),
    },
  );
  const { errors } = formState;
  const engineIds = watch("engineIds") ?? [];
  return (
    <FormDialog title={`Edit the ${row.year} ${row.make.name} ${row.model.name}`} {...dialog}>
      <FormField
        label="Year"
        id="edit-base-year"
        inputMode="numeric"
        {...field("year", { setValueAs: (t: string) => Number(t) })}
      />
      <FormField
        label="VCdb base vehicle id"
        id="edit-base-vcdb"
        inputMode="numeric"
        hint="Empty: none"
        {...field("vcdbBaseVehicleId", { setValueAs: typedNumberOrNull })}
      />
      <EngineChoice
        idPrefix="edit-base-engine"
        engines={engines}
        chosen={engineIds}
        onChange={(ids) => setValue("engineIds", ids)}
      />
      {errors.engineIds && <p className="text-sm text-error">{errors.engineIds.message}</p>}
    </FormDialog>
  );
}
