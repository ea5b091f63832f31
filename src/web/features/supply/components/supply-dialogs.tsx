import { useState } from "react";
import { z } from "zod";
import {
  SUPPLY_KINDS,
  supplyCreateSchema,
  supplyKindLabels,
  supplyMessages,
  supplyReceiveSchema,
  supplyUpdateSchema,
  type IncomingSupply,
} from "#contract/supply";
import { FormDialog, useFormDialog } from "../../../components/form-dialog";
import { FormField, typedNumber, wholeNumber } from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";
import {
  useAddSupply,
  useChangeSupply,
  useReceiveSupply,
  useSupplyLocations,
  useSupplyProductSearch,
} from "../api/supply";

/**
 * A form schema of the fields as typed (strings), checked by `contract` after `toRequest`, each
 * problem put on its field: the contract's own words beside the field.
 */
function typedForm<Typed extends z.ZodRawShape, Out>(
  fields: Typed,
  contract: z.ZodType<Out>,
  toRequest: (typed: z.infer<z.ZodObject<Typed>>) => unknown,
) {
  return z.object(fields).transform((typed, ctx) => {
    const checked = contract.safeParse(toRequest(typed));
    for (const issue of checked.error?.issues ?? []) {
      ctx.addIssue({ code: "custom", path: issue.path.slice(0, 1), message: issue.message });
    }
    return checked.success ? checked.data : z.NEVER;
  });
}

const addFormSchema = typedForm(
  {
    kind: z.string(),
    reference: z.string(),
    productId: z.string(),
    locationId: z.string(),
    qty: z.string(),
    expectedOn: z.string(),
    note: z.string(),
  },
  supplyCreateSchema,
  (typed) => ({ ...typed, qty: typedNumber(typed.qty) }),
);

/** Admin: enters supply that is coming: a run or a PO of a part, to a location, on a date. */
export function AddSupplyDialog({ onClose }: { onClose(): void }) {
  const add = useAddSupply();
  const locations = useSupplyLocations();
  const { field, formState, setValue, dialog } = useFormDialog(
    addFormSchema,
    {
      kind: "production",
      reference: "",
      productId: "",
      locationId: "",
      qty: "",
      expectedOn: "",
      note: "",
    },
    {
      write: (values) => add.mutateAsync(values),
      busy: add.isPending,
      said: (made) => `${supplyKindLabels[made.kind]} ${made.reference} added`,
      onClose,
    },
  );
  const errors = formState.errors;
  return (
    <FormDialog title="Add supply" named {...dialog} submitLabel="Add supply">
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField label="Kind" {...field("kind")}>
          {SUPPLY_KINDS.map((k) => (
            <option key={k} value={k}>
              {supplyKindLabels[k]}
            </option>
          ))}
        </SelectField>
        <FormField
          label="Run or PO number"
          maxLength={60}
          placeholder="RUN-2027-014"
          {...field("reference")}
        />
      </div>
      <ChoosePart
        error={errors.productId?.message}
        onChoose={(id) => setValue("productId", id, { shouldValidate: formState.isSubmitted })}
      />
      <SelectField label="Arrives at" {...field("locationId")}>
        <option value="">Choose a location</option>
        {(locations.data ?? []).map((l) => (
          <option key={l.id} value={l.id}>
            {l.code} · {l.name}
            {l.active ? "" : " (inactive)"}
          </option>
        ))}
      </SelectField>
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label="Quantity" {...wholeNumber(1)} {...field("qty")} />
        <FormField label="Expected on" type="date" {...field("expectedOn")} />
      </div>
      <FormField label="Note" maxLength={500} {...field("note")} />
    </FormDialog>
  );
}

/** The part of new supply: found by part number or name, then chosen. */
function ChoosePart({ error, onChoose }: { error?: string; onChoose(id: string): void }) {
  const [q, setQ] = useState("");
  const [chosen, setChosen] = useState<{ partNumber: string; name: string }>();
  const found = useSupplyProductSearch(chosen ? "" : q);
  if (chosen) {
    return (
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium">Part</span>
        <div className="flex flex-wrap items-center gap-2">
          <span data-testid="supply-part">
            <span className="font-mono">{chosen.partNumber}</span> {chosen.name}
          </span>
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            onClick={() => {
              setChosen(undefined);
              onChoose("");
            }}
          >
            Change part
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <FormField
        label="Part"
        type="search"
        name="supply-part"
        placeholder="Part number or name"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        error={error}
      />
      {q.trim() !== "" && found.data && (
        <ul className="menu w-full rounded-box bg-base-200" aria-label="Matching parts">
          {found.data.length === 0 && <li className="p-2 text-sm">No part matches.</li>}
          {found.data.map((p) => (
            <li key={p._id}>
              <button
                type="button"
                onClick={() => {
                  setChosen({ partNumber: p.partNumber ?? "", name: p.name });
                  onChoose(p._id);
                }}
              >
                <span className="font-mono">{p.partNumber}</span> {p.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const changeFormSchema = typedForm(
  { reference: z.string(), qty: z.string(), expectedOn: z.string(), note: z.string() },
  supplyUpdateSchema.required(),
  (typed) => ({ ...typed, qty: typedNumber(typed.qty) }),
);

/** Admin: changes open supply: its expected date above all, its quantity, number or note. */
export function ChangeSupplyDialog({
  supply,
  onClose,
}: {
  supply: IncomingSupply;
  onClose(): void;
}) {
  const change = useChangeSupply();
  const { field, dialog } = useFormDialog(
    changeFormSchema,
    {
      reference: supply.reference,
      qty: String(supply.qty),
      expectedOn: supply.expectedOn,
      note: supply.note,
    },
    {
      write: (values) => change.mutateAsync({ id: supply.id, change: values }),
      busy: change.isPending,
      said: () => `${supply.reference} saved`,
      onClose,
    },
  );
  return (
    <FormDialog title={`Change ${supply.reference}`} named {...dialog}>
      <p className="text-sm text-base-content/80">
        <span className="font-mono">{supply.partNumber}</span> {supply.productName} to{" "}
        {supply.locationName}
      </p>
      <FormField label="Expected on" type="date" {...field("expectedOn")} />
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField
          label="Quantity"
          {...wholeNumber(Math.max(1, supply.received))}
          hint={supply.received > 0 ? `${supply.received} received already` : undefined}
          {...field("qty")}
        />
        <FormField label="Run or PO number" maxLength={60} {...field("reference")} />
      </div>
      <FormField label="Note" maxLength={500} {...field("note")} />
    </FormDialog>
  );
}

const receiveFormSchema = typedForm({ qty: z.string() }, supplyReceiveSchema, (typed) => ({
  qty: typedNumber(typed.qty),
}));

/** Admin: units of open supply arrived: they go on sale at its location. */
export function ReceiveSupplyDialog({
  supply,
  onClose,
}: {
  supply: IncomingSupply;
  onClose(): void;
}) {
  const receive = useReceiveSupply();
  const { field, dialog } = useFormDialog(
    receiveFormSchema,
    { qty: String(supply.toCome) },
    {
      write: ({ qty }) => receive.mutateAsync({ id: supply.id, qty }),
      busy: receive.isPending,
      said: (_, { qty }) => supplyMessages.received(qty, supply.reference),
      onClose,
    },
  );
  return (
    <FormDialog title={`Receive ${supply.reference}`} named {...dialog} submitLabel="Receive">
      <p className="text-sm text-base-content/80">
        <span className="font-mono">{supply.partNumber}</span> {supply.productName}:{" "}
        {supply.received} of {supply.qty} received, {supply.toCome} still to come. The units
        received go on sale at {supply.locationName}.
      </p>
      <FormField label="Units arrived" {...wholeNumber(1)} max={supply.toCome} {...field("qty")} />
    </FormDialog>
  );
}
