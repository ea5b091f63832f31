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
import { FormField } from "../../../components/form-field";
import { FormDialog } from "../../../components/form-dialog";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useChangeVehicleRecord, type VehicleRecordKind } from "../api/vehicles";
import { EngineChoice } from "./add-forms";
import { NameAndVcdbFields, nullableNumber } from "./name-fields";

/**
 * What an edit dialog's Save does to the record `id` of `kind`: changes it, says `saved`, and
 * closes the dialog; `busy` while it is sent.
 */
function useSaveRecord(kind: VehicleRecordKind, id: number, saved: string, onClose: () => void) {
  const change = useChangeVehicleRecord(kind);
  return {
    busy: change.isPending,
    send: async (body: object) => {
      await change.mutateAsync({ id, body });
      notify.success(saved);
      onClose();
    },
  };
}

export function EditMakeDialog({ make, onClose }: { make: AdminMake; onClose(): void }) {
  const save = useSaveRecord("make", make.id, "Make saved", onClose);
  const { field, submitWith, formError } = useApiForm(makeChangeSchema, {
    defaultValues: { name: make.name, vcdbMakeId: make.vcdbMakeId ?? undefined },
  });
  return (
    <FormDialog
      title={`Edit make ${make.name}`}
      onClose={onClose}
      busy={save.busy}
      formError={formError}
      onSubmit={submitWith(save.send)}
    >
      <NameAndVcdbFields
        idPrefix="edit-make"
        label="Make"
        vcdbLabel="VCdb make id"
        editing
        name={field("name")}
        vcdb={field("vcdbMakeId", { setValueAs: nullableNumber })}
      />
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
  const save = useSaveRecord("model", model.id, "Model saved", onClose);
  const { field, submitWith, formError } = useApiForm(modelChangeSchema, {
    defaultValues: {
      name: model.name,
      vcdbModelId: model.vcdbModelId ?? undefined,
    },
  });
  return (
    <FormDialog
      title={`Edit model ${makeName} ${model.name}`}
      onClose={onClose}
      busy={save.busy}
      formError={formError}
      onSubmit={submitWith(save.send)}
    >
      <NameAndVcdbFields
        idPrefix="edit-model"
        label="Model"
        vcdbLabel="VCdb model id"
        editing
        name={field("name")}
        vcdb={field("vcdbModelId", { setValueAs: nullableNumber })}
      />
    </FormDialog>
  );
}

export function EditEngineDialog({ engine, onClose }: { engine: AdminEngine; onClose(): void }) {
  const save = useSaveRecord("engine", engine.id, "Engine saved", onClose);
  const { field, submitWith, formError } = useApiForm(engineChangeSchema, {
    defaultValues: {
      name: engine.name,
      liters: engine.liters ?? "",
      fuel: engine.fuel ?? "",
      vcdbEngineConfigId: engine.vcdbEngineConfigId ?? undefined,
    },
  });
  return (
    <FormDialog
      title={`Edit engine ${engine.name}`}
      onClose={onClose}
      busy={save.busy}
      formError={formError}
      onSubmit={submitWith(save.send)}
    >
      <NameAndVcdbFields
        idPrefix="edit-engine"
        label="Engine"
        vcdbLabel="VCdb engine config id"
        editing
        name={field("name")}
        vcdb={field("vcdbEngineConfigId", { setValueAs: nullableNumber })}
      >
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
  const save = useSaveRecord("submodel", submodel.id, "Submodel saved", onClose);
  const { field, submitWith, formError } = useApiForm(submodelChangeSchema, {
    defaultValues: {
      name: submodel.name,
      vcdbSubmodelId: submodel.vcdbSubmodelId ?? undefined,
    },
  });
  return (
    <FormDialog
      title={`Edit submodel ${submodel.name}`}
      onClose={onClose}
      busy={save.busy}
      formError={formError}
      onSubmit={submitWith(save.send)}
    >
      <NameAndVcdbFields
        idPrefix="edit-submodel"
        label="Submodel"
        vcdbLabel="VCdb submodel id"
        editing
        name={field("name")}
        vcdb={field("vcdbSubmodelId", { setValueAs: nullableNumber })}
      />
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
  const save = useSaveRecord("baseVehicle", row.id, "Vehicle saved", onClose);
  const { field, submitWith, formError, formState, watch, setValue } = useApiForm(
    baseVehicleChangeSchema,
    {
      defaultValues: {
        year: row.year,
        vcdbBaseVehicleId: row.vcdbBaseVehicleId ?? undefined,
        engineIds: row.engines.map((e) => e.id),
      },
    },
  );
  const { errors } = formState;
  const engineIds = watch("engineIds") ?? [];
  return (
    <FormDialog
      title={`Edit the ${row.year} ${row.make.name} ${row.model.name}`}
      onClose={onClose}
      busy={save.busy}
      formError={formError}
      onSubmit={submitWith(save.send)}
    >
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
        {...field("vcdbBaseVehicleId", { setValueAs: nullableNumber })}
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
