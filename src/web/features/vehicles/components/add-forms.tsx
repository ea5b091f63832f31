import { plural } from "#contract/count";
import { useState, type ReactNode } from "react";
import {
  MAX_VEHICLE_YEAR,
  MIN_VEHICLE_YEAR,
  baseVehiclesCreateSchema,
  engineCreateSchema,
  makeCreateSchema,
  modelCreateSchema,
  submodelCreateSchema,
  type AdminEngine,
  type BaseVehiclesAdded,
  type VehicleNames,
} from "#contract/vehicles";
import { FormError, FormField } from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useAddVehicleRecord } from "../api/vehicles";
import { NameAndVcdbFields, optionalNumber } from "./name-fields";

/** A number field's text: anything but empty a number (NaN says "not one"). */
const number = (typed: unknown) =>
  typeof typed === "string" && typed.trim() === "" ? Number.NaN : Number(typed);

function FormCard({
  title,
  onSubmit,
  children,
}: {
  title: string;
  onSubmit: (e?: React.BaseSyntheticEvent) => Promise<void>;
  children: ReactNode;
}) {
  return (
    <form
      noValidate
      aria-label={title}
      onSubmit={onSubmit}
      className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4"
    >
      <h3 className="font-semibold">{title}</h3>
      {children}
    </form>
  );
}

function Submit({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="btn btn-primary self-start" disabled={busy}>
      {children}
    </button>
  );
}

export function AddMakeForm() {
  const add = useAddVehicleRecord("make");
  const { field, reset, submitWith, formError } = useApiForm(makeCreateSchema, {
    defaultValues: { name: "" },
  });
  return (
    <FormCard
      title="Add a make"
      onSubmit={submitWith(async (make) => {
        await add.mutateAsync(make);
        notify.success(`Make ${make.name} added`);
        reset();
      })}
    >
      <NameAndVcdbFields
        idPrefix="add-make"
        label="Make"
        vcdbLabel="VCdb make id"
        placeholder="Tesla"
        name={field("name")}
        vcdb={field("vcdbMakeId", { setValueAs: optionalNumber })}
      />
      <FormError message={formError} />
      <Submit busy={add.isPending}>Add make</Submit>
    </FormCard>
  );
}

/** The makes to choose from (the forms that add under a make). */
const makeOptions = (names: VehicleNames) =>
  names.makes.map((m) => (
    <option key={m.id} value={m.id}>
      {m.name}
    </option>
  ));

export function AddModelForm({ names, makeId }: { names: VehicleNames; makeId?: number }) {
  const add = useAddVehicleRecord("model");
  const first = makeId ?? names.makes[0]?.id;
  const { field, reset, submitWith, formError, getValues } = useApiForm(modelCreateSchema, {
    defaultValues: { makeId: first, name: "" },
  });
  if (names.makes.length === 0) return null;
  return (
    <FormCard
      title="Add a model"
      onSubmit={submitWith(async (model) => {
        await add.mutateAsync(model);
        const make = names.makes.find((m) => m.id === model.makeId)?.name ?? "";
        notify.success(`Model ${make} ${model.name} added`);
        reset({ makeId: getValues("makeId"), name: "" });
      })}
    >
      <SelectField label="Make" id="add-model-make" {...field("makeId", { setValueAs: number })}>
        {makeOptions(names)}
      </SelectField>
      <NameAndVcdbFields
        idPrefix="add-model"
        label="Model"
        vcdbLabel="VCdb model id"
        placeholder="Model 3"
        name={field("name")}
        vcdb={field("vcdbModelId", { setValueAs: optionalNumber })}
      />
      <FormError message={formError} />
      <Submit busy={add.isPending}>Add model</Submit>
    </FormCard>
  );
}

/** Engines to tick, narrowed by what is typed above them (a full VCdb has thousands). */
export function EngineChoice({
  engines,
  chosen,
  onChange,
  idPrefix,
}: {
  engines: AdminEngine[];
  chosen: number[];
  onChange: (ids: number[]) => void;
  idPrefix: string;
}) {
  const [find, setFind] = useState("");
  const shown = engines.filter(
    (e) => chosen.includes(e.id) || e.name.toLowerCase().includes(find.trim().toLowerCase()),
  );
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">Engines (optional)</legend>
      {engines.length > 10 && (
        <input
          type="search"
          className="input input-bordered input-sm w-full"
          aria-label="Find an engine"
          placeholder="Find an engine"
          value={find}
          onChange={(e) => setFind(e.target.value)}
        />
      )}
      {engines.length === 0 ? (
        <p className="text-sm text-base-content/75">No engines yet: add one first.</p>
      ) : (
        <div className="flex max-h-48 flex-col gap-1 overflow-y-auto">
          {shown.map((e) => (
            <label
              key={e.id}
              className="flex items-center gap-2 text-sm"
              htmlFor={`${idPrefix}-${e.id}`}
            >
              <input
                id={`${idPrefix}-${e.id}`}
                type="checkbox"
                className="checkbox checkbox-sm"
                checked={chosen.includes(e.id)}
                onChange={(ev) =>
                  onChange(
                    ev.target.checked ? [...chosen, e.id] : chosen.filter((id) => id !== e.id),
                  )
                }
              />
              {e.name}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** Model years from–to of a model (one base vehicle a year), with the engines they were built with. */
export function AddYearsForm({ names, makeId }: { names: VehicleNames; makeId?: number }) {
  const add = useAddVehicleRecord<BaseVehiclesAdded>("baseVehicle");
  const [make, setMake] = useState(makeId ?? names.makes[0]?.id);
  const models = names.makes.find((m) => m.id === make)?.models ?? [];
  const { field, register, reset, submitWith, formError, formState, watch, setValue } = useApiForm(
    baseVehiclesCreateSchema,
    { defaultValues: { modelId: models[0]?.id, engineIds: [] } },
  );
  const { errors } = formState;
  const engineIds = watch("engineIds") ?? [];
  if (names.makes.length === 0) return null;
  return (
    <FormCard
      title="Add years of a model"
      onSubmit={submitWith(async (years) => {
        const done = await add.mutateAsync(years);
        const model = models.find((m) => m.id === years.modelId)?.name ?? "";
        const made = done.created.length;
        notify.success(
          `${plural(made, "year")} of the ${model} added${
            done.existing.length > 0 ? ` (${done.existing.length} listed already)` : ""
          }`,
        );
        reset({ modelId: years.modelId, engineIds: [] });
      })}
    >
      <SelectField
        label="Make"
        id="add-years-make"
        value={make}
        onChange={(e) => {
          const id = Number(e.target.value);
          setMake(id);
          const first = names.makes.find((m) => m.id === id)?.models[0]?.id;
          setValue("modelId", first ?? Number.NaN);
        }}
      >
        {makeOptions(names)}
      </SelectField>
      <div className="flex flex-col gap-1">
        <label htmlFor="add-years-model" className="text-sm font-medium">
          Model
        </label>
        <select
          id="add-years-model"
          className="select select-bordered w-full"
          disabled={models.length === 0}
          {...register("modelId", { setValueAs: number })}
        >
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
        {models.length === 0 && (
          <p className="text-sm text-base-content/75">This make has no models yet.</p>
        )}
        {errors.modelId && <p className="text-sm text-error">{errors.modelId.message}</p>}
      </div>
      <div className="grid grid-cols-2 gap-3">
        <FormField
          label="From year"
          id="add-years-from"
          inputMode="numeric"
          placeholder={String(new Date().getFullYear())}
          min={MIN_VEHICLE_YEAR}
          max={MAX_VEHICLE_YEAR}
          {...field("yearFrom", { setValueAs: number })}
        />
        <FormField
          label="To year"
          id="add-years-to"
          inputMode="numeric"
          {...field("yearTo", { setValueAs: number })}
        />
      </div>
      <EngineChoice
        idPrefix="add-years-engine"
        engines={names.engines}
        chosen={engineIds}
        onChange={(ids) => setValue("engineIds", ids)}
      />
      {errors.engineIds && <p className="text-sm text-error">{errors.engineIds.message}</p>}
      <FormField
        label="VCdb base vehicle id (optional, one year only)"
        id="add-years-vcdb"
        inputMode="numeric"
        {...field("vcdbBaseVehicleId", { setValueAs: optionalNumber })}
      />
      <FormError message={formError} />
      <Submit busy={add.isPending || models.length === 0}>Add years</Submit>
    </FormCard>
  );
}

export function AddEngineForm() {
  const add = useAddVehicleRecord("engine");
  const { field, reset, submitWith, formError } = useApiForm(engineCreateSchema, {
    defaultValues: { name: "", liters: "", fuel: "" },
  });
  return (
    <FormCard
      title="Add an engine"
      onSubmit={submitWith(async (engine) => {
        await add.mutateAsync(engine);
        notify.success(`Engine ${engine.name} added`);
        reset();
      })}
    >
      <NameAndVcdbFields
        idPrefix="add-engine"
        label="Engine"
        vcdbLabel="VCdb engine config id"
        placeholder="1.4 TSI"
        name={field("name")}
        vcdb={field("vcdbEngineConfigId", { setValueAs: optionalNumber })}
      >
        <div className="grid grid-cols-2 gap-3">
          <FormField
            label="Litres (optional)"
            id="add-engine-liters"
            inputMode="decimal"
            placeholder="1.4"
            {...field("liters")}
          />
          <FormField
            label="Fuel (optional)"
            id="add-engine-fuel"
            placeholder="Petrol"
            list="vehicle-fuels"
            {...field("fuel")}
          />
        </div>
        <datalist id="vehicle-fuels">
          {["Petrol", "Diesel", "Hybrid", "Electric", "LPG"].map((f) => (
            <option key={f} value={f} />
          ))}
        </datalist>
      </NameAndVcdbFields>
      <FormError message={formError} />
      <Submit busy={add.isPending}>Add engine</Submit>
    </FormCard>
  );
}

export function AddSubmodelForm() {
  const add = useAddVehicleRecord("submodel");
  const { field, reset, submitWith, formError } = useApiForm(submodelCreateSchema, {
    defaultValues: { name: "" },
  });
  return (
    <FormCard
      title="Add a submodel"
      onSubmit={submitWith(async (submodel) => {
        await add.mutateAsync(submodel);
        notify.success(`Submodel ${submodel.name} added`);
        reset();
      })}
    >
      <NameAndVcdbFields
        idPrefix="add-submodel"
        label="Submodel"
        vcdbLabel="VCdb submodel id"
        placeholder="GTI"
        name={field("name")}
        vcdb={field("vcdbSubmodelId", { setValueAs: optionalNumber })}
      />
      <FormError message={formError} />
      <Submit busy={add.isPending}>Add submodel</Submit>
    </FormCard>
  );
}
