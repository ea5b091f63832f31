import { plural } from "#contract/count";
import { useState, type ReactNode } from "react";
import type { DefaultValues, FieldValues } from "react-hook-form";
import type { z } from "zod";
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
import { FormError, FormField, typedNumber } from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useAddVehicleRecord, type VehicleRecordKind } from "../api/vehicles";
import { NameAndVcdbFields, optionalNumber } from "./name-fields";

/**
 * An add form's card: its title, its fields, the API's refusal, and its submit button (`submit`),
 * held while it is sent.
 */
function FormCard({
  title,
  submit,
  onSubmit,
  formError,
  busy,
  children,
}: {
  title: string;
  submit: string;
  onSubmit: (e?: React.BaseSyntheticEvent) => Promise<void>;
  formError?: string;
  busy: boolean;
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
      <FormError message={formError} />
      <button type="submit" className="btn btn-primary self-start" disabled={busy}>
        {submit}
      </button>
    </form>
  );
}

/**
 * An add form of a record of `kind`: its form (`useApiForm` of `schema`, started from
 * `defaultValues`) and the props of its `FormCard` (`card`), whose submit adds the record, says
 * `added(values, answer)` and starts the form again (from `next(values)`, or `defaultValues`).
 */
function useAddRecord<Input extends FieldValues, Output extends FieldValues, Answer = unknown>(
  kind: VehicleRecordKind,
  schema: z.ZodType<Output, Input>,
  defaultValues: DefaultValues<NoInfer<Input>>,
  added: (values: Output, answer: Answer) => string,
  next?: (values: Output) => DefaultValues<NoInfer<Input>>,
) {
  const add = useAddVehicleRecord<Answer>(kind);
  const form = useApiForm(schema, { defaultValues });
  const card = {
    busy: add.isPending,
    formError: form.formError,
    onSubmit: form.submitWith(async (values) => {
      const answer = await add.mutateAsync(values);
      notify.success(added(values, answer));
      form.reset(next?.(values));
    }),
  };
  return { ...form, card };
}

export function AddMakeForm() {
  const { field, card } = useAddRecord(
    "make",
    makeCreateSchema,
    { name: "" },
    (make) => `Make ${make.name} added`,
  );
  return (
    <FormCard title="Add a make" submit="Add make" {...card}>
      <NameAndVcdbFields kind="make" placeholder="Tesla" field={field} />
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
  const { field, card } = useAddRecord(
    "model",
    modelCreateSchema,
    { makeId: makeId ?? names.makes[0]?.id, name: "" },
    (model) => {
      const make = names.makes.find((m) => m.id === model.makeId)?.name ?? "";
      return `Model ${make} ${model.name} added`;
    },
    (model) => ({ makeId: model.makeId, name: "" }),
  );
  if (names.makes.length === 0) return null;
  return (
    <FormCard title="Add a model" submit="Add model" {...card}>
      <SelectField
        label="Make"
        id="add-model-make"
        {...field("makeId", { setValueAs: typedNumber })}
      >
        {makeOptions(names)}
      </SelectField>
      <NameAndVcdbFields kind="model" placeholder="Model 3" field={field} />
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
  const [make, setMake] = useState(makeId ?? names.makes[0]?.id);
  const models = names.makes.find((m) => m.id === make)?.models ?? [];
  const { field, register, formState, watch, setValue, card } = useAddRecord(
    "baseVehicle",
    baseVehiclesCreateSchema,
    { modelId: models[0]?.id, engineIds: [] },
    (years, done: BaseVehiclesAdded) => {
      const model = models.find((m) => m.id === years.modelId)?.name ?? "";
      const made = done.created.length;
      return `${plural(made, "year")} of the ${model} added${
        done.existing.length > 0 ? ` (${done.existing.length} listed already)` : ""
      }`;
    },
    (years) => ({ modelId: years.modelId, engineIds: [] }),
  );
  const { errors } = formState;
  const engineIds = watch("engineIds") ?? [];
  if (names.makes.length === 0) return null;
  return (
    <FormCard
      title="Add years of a model"
      submit="Add years"
      {...card}
      busy={card.busy || models.length === 0}
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
          {...register("modelId", { setValueAs: typedNumber })}
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
          {...field("yearFrom", { setValueAs: typedNumber })}
        />
        <FormField
          label="To year"
          id="add-years-to"
          inputMode="numeric"
          {...field("yearTo", { setValueAs: typedNumber })}
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
    </FormCard>
  );
}

export function AddEngineForm() {
  const { field, card } = useAddRecord(
    "engine",
    engineCreateSchema,
    { name: "", liters: "", fuel: "" },
    (engine) => `Engine ${engine.name} added`,
  );
  return (
    <FormCard title="Add an engine" submit="Add engine" {...card}>
      <NameAndVcdbFields kind="engine" placeholder="1.4 TSI" field={field}>
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
    </FormCard>
  );
}

export function AddSubmodelForm() {
  const { field, card } = useAddRecord(
    "submodel",
    submodelCreateSchema,
    { name: "" },
    (submodel) => `Submodel ${submodel.name} added`,
  );
  return (
    <FormCard title="Add a submodel" submit="Add submodel" {...card}>
      <NameAndVcdbFields kind="submodel" placeholder="GTI" field={field} />
    </FormCard>
  );
}
