import { formatCount, plural, pluralCount } from "#contract/count";
import { useState, type ReactNode } from "react";
import {
  MAX_VEHICLE_YEAR,
  MIN_VEHICLE_YEAR,
  VEHICLE_TABLE_PAGE_SIZE,
  type AdminEngine,
  type AdminModel,
  type AdminSubmodel,
  type BaseVehicleRow,
  type VehicleNames,
} from "#contract/vehicles";
import { RemoveDialog } from "../../../components/confirm-dialog";
import { DataTable, ListTable, type Column } from "../../../components/data-table";
import { EditRemoveButtons, editRemoveColumn } from "../../../components/edit-remove-buttons";
import { SelectField } from "../../../components/select-field";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { useListPage, useListStates } from "../../../lib/use-list-page";
import { useRemoveVehicleRecord, useVehicleNames, useVehicleTable } from "../api/vehicles";
import {
  AddEngineForm,
  AddMakeForm,
  AddModelForm,
  AddSubmodelForm,
  AddYearsForm,
} from "./add-forms";
import {
  EditBaseVehicleDialog,
  EditEngineDialog,
  EditMakeDialog,
  EditModelDialog,
  EditSubmodelDialog,
} from "./edit-dialogs";
import { VehicleCsvPanel } from "./vehicle-csv-panel";

const vcdb = (id: number | null) => (id === null ? "—" : String(id));
const idParam = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};
const yearParam = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= MIN_VEHICLE_YEAR && n <= MAX_VEHICLE_YEAR ? n : undefined;
};
const vehicleLabel = (r: BaseVehicleRow) => `${r.year} ${r.make.name} ${r.model.name}`;

/**
 * Admin: the vehicle database (docs/vehicles.md): the base vehicles filtered by make, model and
 * year (in the URL), the forms that add makes, models, years with engines, engines and
 * submodels, renaming and removing each, and the vehicle CSV.
 */
export function VehicleDatabase() {
  const names = useVehicleNames();
  if (names.isPending) return <PageSpinner />;
  if (names.error) return <QueryError error={names.error} />;
  return <VehicleDatabaseWith names={names.data} />;
}

function VehicleDatabaseWith({ names }: { names: VehicleNames }) {
  const list = useListPage(VEHICLE_TABLE_PAGE_SIZE);
  const make = names.makes.find((m) => m.id === idParam(list.params.get("make")));
  const model = make?.models.find((m) => m.id === idParam(list.params.get("model")));
  const year = yearParam(list.params.get("year"));
  const filtered = make !== undefined || year !== undefined;
  // The add forms start again when the lists they choose from change (a make or model added).
  const listed = `${make?.id}-${names.makes.length}-${names.makes.reduce((n, m) => n + m.models.length, 0)}`;

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="vehicles-table-heading" className="flex flex-col gap-4">
        <h2 id="vehicles-table-heading" className="text-lg font-semibold">
          Makes, models and years
        </h2>
        <div className="grid gap-3 sm:grid-cols-3">
          <SelectField
            label="Make"
            id="vehicles-filter-make"
            value={make?.id ?? ""}
            onChange={(e) => list.refine({ make: e.target.value || undefined, model: undefined })}
          >
            <option value="">All makes</option>
            {names.makes.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Model"
            id="vehicles-filter-model"
            value={model?.id ?? ""}
            disabled={!make}
            onChange={(e) => list.refine({ model: e.target.value || undefined })}
          >
            <option value="">{make ? "All models" : "Choose a make first"}</option>
            {make?.models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </SelectField>
          <YearFilter
            key={year ?? "any"}
            year={year}
            onYear={(y) => list.refine({ year: y === undefined ? undefined : String(y) })}
          />
        </div>
        {make && <MakeAndModel make={make} model={model} />}
        <VehicleTable
          list={list}
          names={names}
          query={{ make: make?.id, model: model?.id, year, ...list.paging }}
          filtered={filtered}
        />
      </section>

      <section aria-labelledby="vehicles-add-heading" className="flex flex-col gap-3">
        <h2 id="vehicles-add-heading" className="text-lg font-semibold">
          Add to the vehicle database
        </h2>
        <div className="grid gap-4 lg:grid-cols-2">
          <AddMakeForm />
          <AddModelForm key={`model-${listed}`} names={names} makeId={make?.id} />
          <AddYearsForm key={`years-${listed}`} names={names} makeId={make?.id} />
          <AddEngineForm />
          <AddSubmodelForm />
        </div>
      </section>

      <EnginesAndSubmodels names={names} />
      <VehicleCsvPanel />
    </div>
  );
}

function YearFilter({ year, onYear }: { year?: number; onYear(year?: number): void }) {
  const [typed, setTyped] = useState(year === undefined ? "" : String(year));
  return (
    <form
      className="flex flex-col gap-1"
      role="search"
      aria-label="Filter by year"
      onSubmit={(e) => {
        e.preventDefault();
        onYear(yearParam(typed.trim()));
      }}
    >
      <label htmlFor="vehicles-filter-year" className="text-sm font-medium">
        Year
      </label>
      <div className="join w-full">
        <input
          id="vehicles-filter-year"
          className="input input-bordered join-item w-full"
          inputMode="numeric"
          placeholder="Any year"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <button type="submit" className="btn join-item">
          Show
        </button>
      </div>
    </form>
  );
}

/** The make (and model) chosen in the filters, with their VCdb ids, to rename or remove. */
function MakeAndModel({
  make,
  model,
}: {
  make: VehicleNames["makes"][number];
  model?: AdminModel;
}) {
  const [editing, setEditing] = useState<"make" | "model">();
  const [removing, setRemoving] = useState<"make" | "model">();
  const removeMake = useRemoveVehicleRecord("make");
  const removeModel = useRemoveVehicleRecord("model");
  return (
    <div className="flex flex-col gap-2 rounded-box bg-base-200 p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2" data-testid="chosen-make">
        <span className="grow">
          Make <strong>{make.name}</strong> · VCdb make id {vcdb(make.vcdbMakeId)} ·{" "}
          {plural(make.models.length, "model")}
        </span>
        <EditRemoveButtons
          name={`make ${make.name}`}
          onEdit={() => setEditing("make")}
          onRemove={() => setRemoving("make")}
        />
      </div>
      {model && (
        <div className="flex flex-wrap items-center gap-2" data-testid="chosen-model">
          <span className="grow">
            Model <strong>{model.name}</strong> · VCdb model id {vcdb(model.vcdbModelId)}
          </span>
          <EditRemoveButtons
            name={`model ${make.name} ${model.name}`}
            onEdit={() => setEditing("model")}
            onRemove={() => setRemoving("model")}
          />
        </div>
      )}
      {editing === "make" && <EditMakeDialog make={make} onClose={() => setEditing(undefined)} />}
      {editing === "model" && model && (
        <EditModelDialog model={model} makeName={make.name} onClose={() => setEditing(undefined)} />
      )}
      <RemoveDialog
        target={removing === "make" ? make : undefined}
        close={() => setRemoving(undefined)}
        title={`Remove the make ${make.name}?`}
        confirmLabel="Remove make"
        removal={removeMake}
        removed={`Make ${make.name} removed`}
      >
        {(m) => <>Its {m.models.length} models and all their years go with it.</>}
      </RemoveDialog>
      <RemoveDialog
        target={removing === "model" ? model : undefined}
        close={() => setRemoving(undefined)}
        title={`Remove the model ${make.name} ${model?.name ?? ""}?`}
        confirmLabel="Remove model"
        removal={removeModel}
        removed={`Model ${model?.name ?? ""} removed`}
      >
        {() => <>All its years go with it.</>}
      </RemoveDialog>
    </div>
  );
}

function VehicleTable({
  list,
  names,
  query,
  filtered,
}: {
  list: ReturnType<typeof useListPage>;
  names: VehicleNames;
  query: { make?: number; model?: number; year?: number; limit: number; offset: number };
  filtered: boolean;
}) {
  const answer = useVehicleTable(query);
  const states = useListStates(list, answer, (total) => pluralCount(total, "vehicle"));
  const [editing, setEditing] = useState<BaseVehicleRow>();
  const [removing, setRemoving] = useState<BaseVehicleRow>();
  const remove = useRemoveVehicleRecord("baseVehicle");
  const columns: Column<BaseVehicleRow>[] = [
    { header: "Vehicle", role: "title", cell: vehicleLabel },
    {
      header: "VCdb ids",
      cell: (r) => (
        <span className="text-sm">
          base vehicle {vcdb(r.vcdbBaseVehicleId)}, make {vcdb(r.make.vcdbMakeId)}, model{" "}
          {vcdb(r.model.vcdbModelId)}
        </span>
      ),
    },
    {
      header: "Engines",
      cell: (r) =>
        r.engines.length === 0 ? (
          <span className="text-base-content/75">None listed</span>
        ) : (
          <span>
            {r.engines
              .map((e) => (e.vcdbEngineConfigId ? `${e.name} (${e.vcdbEngineConfigId})` : e.name))
              .join(", ")}
          </span>
        ),
    },
    editRemoveColumn(vehicleLabel, setEditing, setRemoving),
  ];
  return (
    <>
      <ListTable
        {...states}
        filtered={filtered}
        empty="No vehicles yet: add a make, a model and its years below, or import a CSV."
        noMatch="No vehicle matches these filters."
        label="Vehicles"
        columns={columns}
        rowKey={(r) => String(r.id)}
        rowTestId="vehicle-row"
      />
      {editing && (
        <EditBaseVehicleDialog
          row={editing}
          engines={names.engines}
          onClose={() => setEditing(undefined)}
        />
      )}
      <RemoveDialog
        target={removing}
        close={() => setRemoving(undefined)}
        title={`Remove the ${removing ? vehicleLabel(removing) : ""}?`}
        confirmLabel="Remove"
        removal={remove}
        removed="Vehicle removed"
      >
        {() => <>Shoppers can no longer choose it.</>}
      </RemoveDialog>
    </>
  );
}

/** Engines and submodels, each a list to find in, rename and remove. */
function EnginesAndSubmodels({ names }: { names: VehicleNames }) {
  const [editingEngine, setEditingEngine] = useState<AdminEngine>();
  const [removingEngine, setRemovingEngine] = useState<AdminEngine>();
  const [editingSubmodel, setEditingSubmodel] = useState<AdminSubmodel>();
  const [removingSubmodel, setRemovingSubmodel] = useState<AdminSubmodel>();
  const removeEngine = useRemoveVehicleRecord("engine");
  const removeSubmodel = useRemoveVehicleRecord("submodel");
  const [find, setFind] = useState("");
  const match = (name: string) => name.toLowerCase().includes(find.trim().toLowerCase());
  const engines = names.engines.filter((e) => match(e.name));
  const submodels = names.submodels.filter((s) => match(s.name));
  return (
    <section aria-labelledby="vehicles-parts-heading" className="flex flex-col gap-3">
      <h2 id="vehicles-parts-heading" className="text-lg font-semibold">
        Engines and submodels
      </h2>
      <input
        type="search"
        className="input input-bordered w-full sm:max-w-xs"
        aria-label="Find an engine or submodel"
        placeholder="Find an engine or submodel"
        value={find}
        onChange={(e) => setFind(e.target.value)}
      />
      <FoundList title="Engines" count={engines.length} open={find !== ""}>
        <DataTable
          label="Engines"
          rowKey={(e) => String(e.id)}
          rowTestId="engine-row"
          rows={engines}
          columns={[
            { header: "Engine", role: "title", cell: (e) => e.name },
            { header: "Litres", cell: (e) => e.liters ?? "—" },
            { header: "Fuel", cell: (e) => e.fuel ?? "—" },
            { header: "VCdb engine config id", cell: (e) => vcdb(e.vcdbEngineConfigId) },
            editRemoveColumn<AdminEngine>(
              (e) => `engine ${e.name}`,
              setEditingEngine,
              setRemovingEngine,
            ),
          ]}
        />
      </FoundList>
      <FoundList title="Submodels" count={submodels.length} open={find !== ""}>
        {submodels.length === 0 ? (
          <p className="text-sm text-base-content/75">No submodels.</p>
        ) : (
          <DataTable
            label="Submodels"
            rowKey={(s) => String(s.id)}
            rowTestId="submodel-row"
            rows={submodels}
            columns={[
              { header: "Submodel", role: "title", cell: (s) => s.name },
              { header: "VCdb submodel id", cell: (s) => vcdb(s.vcdbSubmodelId) },
              editRemoveColumn<AdminSubmodel>(
                (s) => `submodel ${s.name}`,
                setEditingSubmodel,
                setRemovingSubmodel,
              ),
            ]}
          />
        )}
      </FoundList>
      {editingEngine && (
        <EditEngineDialog engine={editingEngine} onClose={() => setEditingEngine(undefined)} />
      )}
      {editingSubmodel && (
        <EditSubmodelDialog
          submodel={editingSubmodel}
          onClose={() => setEditingSubmodel(undefined)}
        />
      )}
      <RemoveDialog
        target={removingEngine}
        close={() => setRemovingEngine(undefined)}
        title={`Remove the engine ${removingEngine?.name ?? ""}?`}
        confirmLabel="Remove engine"
        removal={removeEngine}
        removed="Engine removed"
      >
        {() => <>Every year of every model loses it.</>}
      </RemoveDialog>
      <RemoveDialog
        target={removingSubmodel}
        close={() => setRemovingSubmodel(undefined)}
        title={`Remove the submodel ${removingSubmodel?.name ?? ""}?`}
        confirmLabel="Remove submodel"
        removal={removeSubmodel}
        removed="Submodel removed"
      >
        {() => <>Fitment can no longer name it.</>}
      </RemoveDialog>
    </section>
  );
}

/** A list under its name and count, folded until a search looks in it (`open`). */
function FoundList({
  title,
  count,
  open,
  children,
}: {
  title: string;
  count: number;
  open: boolean;
  children: ReactNode;
}) {
  return (
    <details className="rounded-box border border-base-300 bg-base-100 p-3" open={open}>
      <summary className="cursor-pointer font-medium">
        {title} ({formatCount(count)})
      </summary>
      <div className="mt-3">{children}</div>
    </details>
  );
}
