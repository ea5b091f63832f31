import { useId, useState } from "react";
import { useWatch } from "react-hook-form";
import { z } from "zod";
import { fitmentRangeInputSchema, type FitmentRange } from "#contract/vehicles";
import { Modal } from "../../../components/modal";
import { ApiError } from "../../../lib/api-client";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import {
  useEngines,
  useFitmentRows,
  useMakes,
  useModels,
  useSaveFitmentRows,
  useYears,
} from "../api/fitment";
import { ChoiceSelect } from "./choice-options";
import { RowButton } from "../../../components/edit-remove-buttons";

/** A row of the table: as read back, or as just added in this form. */
type Row = FitmentRange;

/** The "Fitment" button of a product row in Manage All Products, with its dialog. */
export function FitmentButton({ product }: { product: { _id: string; name: string } }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <RowButton label={`Fitment of ${product.name}`} tone="outline" onClick={() => setOpen(true)}>
        Fitment
      </RowButton>
      <Modal open={open} title={`Fitment of ${product.name}`} onClose={() => setOpen(false)}>
        {open && <FitmentEditor productId={product._id} onDone={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

/** The vehicles a product fits, as year ranges: add rows, remove rows, save all at once. */
export function FitmentEditor({ productId, onDone }: { productId: string; onDone: () => void }) {
  const { data, error, isPending } = useFitmentRows(productId);
  const save = useSaveFitmentRows(productId);
  const [edited, setEdited] = useState<Row[]>();
  const rows = edited ?? data?.rows ?? [];
  if (isPending) return <p role="status">Loading the fitment…</p>;
  if (error) return <p role="alert">{error.message}</p>;
  const submit = () =>
    save.mutate(
      rows.map((r) => ({
        make: r.make.id,
        model: r.model.id,
        yearFrom: r.yearFrom,
        yearTo: r.yearTo,
        ...(r.engine && { engine: r.engine.id }),
        ...(r.position && { position: r.position }),
        quantity: r.quantity,
        ...(r.note && { note: r.note }),
      })),
      {
        onSuccess: () => {
          notify.success("The fitment is saved");
          onDone();
        },
      },
    );
  return (
    <div className="flex flex-col gap-4">
      {rows.length === 0 ? (
        <p className="text-sm text-base-content/70">No vehicles yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="table table-sm" data-testid="fitment-rows">
            <thead>
              <tr>
                <th scope="col">Vehicle</th>
                <th scope="col">Years</th>
                <th scope="col">Engine</th>
                <th scope="col">Position</th>
                <th scope="col">Qty</th>
                <th scope="col">Note</th>
                <th scope="col">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => {
                const name = `${r.make.name} ${r.model.name} ${r.yearFrom}–${r.yearTo}`;
                return (
                  <tr key={`${i}-${name}`}>
                    <td>
                      {r.make.name} {r.model.name}
                    </td>
                    <td>{r.yearFrom === r.yearTo ? r.yearFrom : `${r.yearFrom}–${r.yearTo}`}</td>
                    <td>{r.engine?.name ?? "All"}</td>
                    <td>{r.position ?? ""}</td>
                    <td>{r.quantity}</td>
                    <td>{r.note ?? ""}</td>
                    <td>
                      <button
                        type="button"
                        className="btn btn-ghost btn-xs"
                        aria-label={`Remove ${name}`}
                        onClick={() => setEdited(rows.filter((_, j) => j !== i))}
                      >
                        ✕
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <AddFitmentRow onAdd={(row) => setEdited([...rows, row])} />
      {save.error && (
        <p role="alert" className="text-error">
          {save.error instanceof ApiError ? save.error.message : "The fitment could not be saved"}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={save.isPending || edited === undefined}
          onClick={submit}
        >
          Save fitment
        </button>
      </div>
    </div>
  );
}

const { position, quantity, note } = fitmentRangeInputSchema.shape;
/** A new row's fields: the vehicle's ids as chosen (the years' order is sorted out on adding). */
const newRowSchema = z.object({
  yearFrom: z.number(),
  yearTo: z.number().optional(),
  make: z.number(),
  model: z.number(),
  engine: z.number().optional(),
  position,
  quantity,
  note,
});
const startingRow = { position: "", quantity: 1, note: "" };

/** A select's option as a number (undefined: the empty first option). */
const chosen = (value: string) => (value ? Number(value) : undefined);

/** Year range, make, model, perhaps the engine, position, quantity and note of a new row. */
function AddFitmentRow({ onAdd }: { onAdd: (row: Row) => void }) {
  const id = useId();
  const { control, register, reset, setValue, submitWith } = useApiForm(newRowSchema, {
    defaultValues: startingRow,
  });
  const [from, make, model] = useWatch({ control, name: ["yearFrom", "make", "model"] });
  const years = useYears();
  const makes = useMakes(from);
  const models = useModels(from, make);
  const engines = useEngines(from, make, model);
  const ready = from !== undefined && make !== undefined && model !== undefined;
  /** A choice makes the ones after it start again (their options depend on it). */
  const choice = (...after: ("make" | "model" | "engine")[]) => ({
    setValueAs: chosen,
    onChange: () => {
      for (const name of after) setValue(name, undefined);
    },
  });
  const add = submitWith((row) => {
    const makeOption = makes.data?.find((m) => m.id === row.make);
    const modelOption = models.data?.find((m) => m.id === row.model);
    if (!makeOption || !modelOption) return;
    onAdd({
      make: makeOption,
      model: modelOption,
      yearFrom: Math.min(row.yearFrom, row.yearTo ?? row.yearFrom),
      yearTo: Math.max(row.yearFrom, row.yearTo ?? row.yearFrom),
      engine: engines.data?.find((x) => x.id === row.engine) ?? null,
      position: row.position || null,
      quantity: row.quantity,
      note: row.note || null,
    });
    // The vehicle stays chosen, for its next engine or years.
    reset({ ...row, engine: undefined, ...startingRow });
  });
  return (
    <form
      onSubmit={add}
      aria-label="Add a vehicle"
      className="grid grid-cols-2 gap-2 rounded-box border border-base-300 p-3 sm:grid-cols-4"
    >
      <ChoiceSelect
        compact
        id={`${id}-from`}
        label="From year"
        {...register("yearFrom", choice("make", "model", "engine"))}
        empty="Year"
        choices={years.data}
      />
      <ChoiceSelect
        compact
        id={`${id}-to`}
        label="To year"
        {...register("yearTo", choice())}
        empty="Same year"
        choices={years.data?.filter((y) => from === undefined || y >= from)}
      />
      <ChoiceSelect
        compact
        id={`${id}-make`}
        label="Make"
        disabled={!makes.data}
        {...register("make", choice("model", "engine"))}
        empty="Make"
        choices={makes.data}
      />
      <ChoiceSelect
        compact
        id={`${id}-model`}
        label="Model"
        disabled={!models.data}
        {...register("model", choice("engine"))}
        empty="Model"
        choices={models.data}
      />
      <ChoiceSelect
        compact
        id={`${id}-engine`}
        label="Engine"
        disabled={!engines.data}
        {...register("engine", choice())}
        empty="All engines"
        choices={engines.data}
      />
      <label className="flex flex-col gap-1 text-sm">
        Position
        <input maxLength={40} className="input input-bordered input-sm" {...register("position")} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Quantity
        <input
          type="number"
          min={1}
          max={100}
          className="input input-bordered input-sm"
          {...register("quantity", { valueAsNumber: true })}
        />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Note
        <input maxLength={120} className="input input-bordered input-sm" {...register("note")} />
      </label>
      <div className="col-span-2 flex justify-end sm:col-span-4">
        <button type="submit" className="btn btn-sm" disabled={!ready}>
          Add vehicle
        </button>
      </div>
    </form>
  );
}
