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
import { useChangeVehicleRecord } from "../api/vehicles";
import { EngineChoice } from "./add-forms";
import { NameAndVcdbFields, nullableNumber } from "./name-fields";

export function EditMakeDialog({ make, onClose }: { make: AdminMake; onClose(): void }) {
  const change = useChangeVehicleRecord("make");
  const { register, submitWith, formError, formState } = useApiForm(makeChangeSchema, {
    defaultValues: { name: make.name, vcdbMakeId: make.vcdbMakeId ?? undefined },
  });
  const { errors } = formState;
  return (
    <FormDialog
      title={`Edit make ${make.name}`}
      onClose={onClose}
      busy={change.isPending}
      formError={formError}
      onSubmit={submitWith(async (body) => {
        await change.mutateAsync({ id: make.id, body });
        notify.success("Make saved");
        onClose();
      })}
    >
      <NameAndVcdbFields
        idPrefix="edit-make"
        label="Make"
        vcdbLabel="VCdb make id"
        editing
        name={register("name")}
        nameError={errors.name?.message}
        vcdb={register("vcdbMakeId", { setValueAs: nullableNumber })}
        vcdbError={errors.vcdbMakeId?.message}
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
  const change = useChangeVehicleRecord("model");
  const { register, submitWith, formError, formState } = useApiForm(modelChangeSchema, {
    defaultValues: {
      name: model.name,
      vcdbModelId: model.vcdbModelId ?? undefined,
    },
  });
  const { errors } = formState;
  return (
    <FormDialog
      title={`Edit model ${makeName} ${model.name}`}
      onClose={onClose}
      busy={change.isPending}
      formError={formError}
      onSubmit={submitWith(async (body) => {
        await change.mutateAsync({ id: model.id, body });
        notify.success("Model saved");
        onClose();
      })}
    >
      <NameAndVcdbFields
        idPrefix="edit-model"
        label="Model"
        vcdbLabel="VCdb model id"
        editing
        name={register("name")}
        nameError={errors.name?.message}
        vcdb={register("vcdbModelId", { setValueAs: nullableNumber })}
        vcdbError={errors.vcdbModelId?.message}
      />
    </FormDialog>
  );
}

export function EditEngineDialog({ engine, onClose }: { engine: AdminEngine; onClose(): void }) {
  const change = useChangeVehicleRecord("engine");
  const { register, submitWith, formError, formState } = useApiForm(engineChangeSchema, {
    defaultValues: {
      name: engine.name,
      liters: engine.liters ?? "",
      fuel: engine.fuel ?? "",
      vcdbEngineConfigId: engine.vcdbEngineConfigId ?? undefined,
    },
  });
  const { errors } = formState;
  return (
    <FormDialog
      title={`Edit engine ${engine.name}`}
      onClose={onClose}
      busy={change.isPending}
      formError={formError}
      onSubmit={submitWith(async (body) => {
        await change.mutateAsync({ id: engine.id, body });
        notify.success("Engine saved");
        onClose();
      })}
    >
      <NameAndVcdbFields
        idPrefix="edit-engine"
        label="Engine"
        vcdbLabel="VCdb engine config id"
        editing
        name={register("name")}
        nameError={errors.name?.message}
        vcdb={register("vcdbEngineConfigId", { setValueAs: nullableNumber })}
        vcdbError={errors.vcdbEngineConfigId?.message}
      >
        <FormField
          label="Litres"
          id="edit-engine-liters"
          inputMode="decimal"
          hint="Empty: not given"
          error={errors.liters?.message}
          {...register("liters")}
        />
        <FormField
          label="Fuel"
          id="edit-engine-fuel"
          list="vehicle-fuels"
          hint="Empty: not given"
          error={errors.fuel?.message}
          {...register("fuel")}
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
  const change = useChangeVehicleRecord("submodel");
  const { register, submitWith, formError, formState } = useApiForm(submodelChangeSchema, {
    defaultValues: {
      name: submodel.name,
      vcdbSubmodelId: submodel.vcdbSubmodelId ?? undefined,
    },
  });
  const { errors } = formState;
  return (
    <FormDialog
      title={`Edit submodel ${submodel.name}`}
      onClose={onClose}
      busy={change.isPending}
      formError={formError}
      onSubmit={submitWith(async (body) => {
        await change.mutateAsync({ id: submodel.id, body });
        notify.success("Submodel saved");
        onClose();
      })}
    >
      <NameAndVcdbFields
        idPrefix="edit-submodel"
        label="Submodel"
        vcdbLabel="VCdb submodel id"
        editing
        name={register("name")}
        nameError={errors.name?.message}
        vcdb={register("vcdbSubmodelId", { setValueAs: nullableNumber })}
        vcdbError={errors.vcdbSubmodelId?.message}
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
  const change = useChangeVehicleRecord("baseVehicle");
  const { register, submitWith, formError, formState, watch, setValue } = useApiForm(
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
      busy={change.isPending}
      formError={formError}
      onSubmit={submitWith(async (body) => {
        await change.mutateAsync({ id: row.id, body });
        notify.success("Vehicle saved");
        onClose();
      })}
    >
      <FormField
        label="Year"
        id="edit-base-year"
        inputMode="numeric"
        error={errors.year?.message}
        {...register("year", { setValueAs: (t: string) => Number(t) })}
      />
      <FormField
        label="VCdb base vehicle id"
        id="edit-base-vcdb"
        inputMode="numeric"
        hint="Empty: none"
        error={errors.vcdbBaseVehicleId?.message}
        {...register("vcdbBaseVehicleId", { setValueAs: nullableNumber })}
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
