import { useState } from "react";
import type { ShippingMethod, ShippingRateKind, ShippingZone } from "#contract/shipping";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { DataTable } from "../../../components/data-table";
import { FormField } from "../../../components/form-field";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { ApiError } from "../../../lib/api-client";
import { formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useSiteConfig } from "../../../lib/use-site-config";
import {
  useRemoveShippingZone,
  useSaveShippingZone,
  useShippingZones,
} from "../api/shipping-zones";

interface MethodDraft {
  id?: string;
  name: string;
  estimate: string;
  kind: ShippingRateKind;
  price: string;
  freeOver: string;
  /** "5000:19.95, 20000:34.95": up to grams, price. */
  bands: string;
}
interface ZoneDraft {
  name: string;
  countries: string;
  regions: string;
  methods: MethodDraft[];
}
const blankMethod = (): MethodDraft => ({
  name: "",
  estimate: "",
  kind: "flat",
  price: "",
  freeOver: "",
  bands: "",
});
const blankZone = (): ZoneDraft => ({
  name: "",
  countries: "",
  regions: "",
  methods: [blankMethod()],
});

const kindLabels: Record<ShippingRateKind, string> = {
  flat: "Flat rate",
  weight: "By weight bands",
  free_over: "Free over an order value",
};

const list = (s: string) =>
  s
    .split(/[,\s]+/)
    .map((x) => x.trim())
    .filter(Boolean);
const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));

function toDraft(z: ShippingZone): ZoneDraft {
  return {
    name: z.name,
    countries: z.countries.join(", "),
    regions: z.regions.join(", "),
    methods: z.methods.map((m) => ({
      id: m.id,
      name: m.name,
      estimate: m.estimate,
      kind: m.kind,
      price: String(m.price),
      freeOver: m.freeOver === null ? "" : String(m.freeOver),
      bands: m.bands.map((b) => `${b.upToGrams}:${b.price}`).join(", "),
    })),
  };
}

function fromDraft(d: ZoneDraft) {
  return {
    name: d.name,
    countries: list(d.countries),
    regions: list(d.regions),
    methods: d.methods.map((m) => ({
      ...(m.id ? { id: m.id } : {}),
      name: m.name,
      estimate: m.estimate,
      kind: m.kind,
      price: m.kind === "weight" ? 0 : num(m.price),
      freeOver: m.kind === "free_over" ? num(m.freeOver) : null,
      bands:
        m.kind === "weight"
          ? list(m.bands).map((band) => {
              const [grams, price] = band.split(":");
              return { upToGrams: num(grams ?? ""), price: num(price ?? "") };
            })
          : [],
    })),
  };
}

/** A method's rate as people read it. */
function rateText(m: ShippingMethod, currency: string) {
  const money = (n: number) => formatPrice(n, currency);
  if (m.kind === "flat") return money(m.price);
  if (m.kind === "free_over") return `${money(m.price)}, free from ${money(m.freeOver ?? 0)}`;
  return m.bands.map((b) => `≤ ${b.upToGrams / 1000} kg ${money(b.price)}`).join(" · ");
}

/**
 * Admin: where the store ships. A zone is countries (optionally only some of their regions) with
 * methods; checkout offers the methods of the most specific zone covering the address.
 */
export function ShippingZones() {
  const zones = useShippingZones();
  const save = useSaveShippingZone();
  const remove = useRemoveShippingZone();
  const currency = useSiteConfig().data?.currency ?? "USD";
  const [editing, setEditing] = useState<string | "new">();
  const [draft, setDraft] = useState<ZoneDraft>(blankZone);
  const [removing, setRemoving] = useState<ShippingZone>();
  const fields = save.error instanceof ApiError ? save.error.fields : undefined;
  const setMethod = (i: number, patch: Partial<MethodDraft>) =>
    setDraft({
      ...draft,
      methods: draft.methods.map((m, j) => (j === i ? { ...m, ...patch } : m)),
    });

  if (zones.isPending) return <PageSpinner />;
  if (zones.error) return <QueryError error={zones.error} />;
  return (
    <div className="flex flex-col gap-6">
      {editing ? (
        <form
          noValidate
          aria-label={editing === "new" ? "Add a shipping zone" : "Edit shipping zone"}
          className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(
              { id: editing === "new" ? undefined : editing, zone: fromDraft(draft) },
              {
                onSuccess: () => {
                  notify.success("Shipping zone saved");
                  setEditing(undefined);
                },
              },
            );
          }}
        >
          <div className="grid gap-3 sm:grid-cols-3">
            <FormField
              label="Zone name"
              name="zone-name"
              value={draft.name}
              onChange={(e) => setDraft({ ...draft, name: e.target.value })}
              error={fields?.name}
            />
            <FormField
              label="Country codes"
              name="zone-countries"
              placeholder="US, CA"
              value={draft.countries}
              onChange={(e) => setDraft({ ...draft, countries: e.target.value })}
              error={fields?.countries}
            />
            <FormField
              label="Only these regions (optional)"
              name="zone-regions"
              placeholder="HI, AK"
              hint="Empty: the whole of each country"
              value={draft.regions}
              onChange={(e) => setDraft({ ...draft, regions: e.target.value })}
              error={fields?.regions}
            />
          </div>
          <h3 className="font-semibold">Methods</h3>
          {draft.methods.map((m, i) => {
            const f = (key: string) => fields?.[`methods.${i}.${key}`];
            const bandError = Object.entries(fields ?? {}).find(([k]) =>
              k.startsWith(`methods.${i}.bands`),
            )?.[1];
            return (
              <fieldset
                key={i}
                className="grid gap-3 rounded-box border border-base-300 p-3 sm:grid-cols-2 lg:grid-cols-4"
              >
                <legend className="px-1 text-sm">Method {i + 1}</legend>
                <FormField
                  label="Name"
                  name={`method-${i}-name`}
                  value={m.name}
                  onChange={(e) => setMethod(i, { name: e.target.value })}
                  error={f("name")}
                />
                <FormField
                  label="Delivery estimate"
                  name={`method-${i}-estimate`}
                  placeholder="3-5 business days"
                  value={m.estimate}
                  onChange={(e) => setMethod(i, { estimate: e.target.value })}
                  error={f("estimate")}
                />
                <div className="flex flex-col gap-1">
                  <label htmlFor={`method-${i}-kind`} className="text-sm font-medium">
                    Rate
                  </label>
                  <select
                    id={`method-${i}-kind`}
                    className="select select-bordered w-full"
                    value={m.kind}
                    onChange={(e) => setMethod(i, { kind: e.target.value as ShippingRateKind })}
                  >
                    {Object.entries(kindLabels).map(([k, label]) => (
                      <option key={k} value={k}>
                        {label}
                      </option>
                    ))}
                  </select>
                </div>
                {m.kind === "weight" ? (
                  <FormField
                    label="Bands (grams:price)"
                    name={`method-${i}-bands`}
                    placeholder="5000:19.95, 20000:34.95"
                    value={m.bands}
                    onChange={(e) => setMethod(i, { bands: e.target.value })}
                    error={bandError}
                  />
                ) : (
                  <FormField
                    label="Price"
                    name={`method-${i}-price`}
                    inputMode="decimal"
                    value={m.price}
                    onChange={(e) => setMethod(i, { price: e.target.value })}
                    error={f("price")}
                  />
                )}
                {m.kind === "free_over" && (
                  <FormField
                    label="Free from an order value of"
                    name={`method-${i}-free-over`}
                    inputMode="decimal"
                    value={m.freeOver}
                    onChange={(e) => setMethod(i, { freeOver: e.target.value })}
                    error={f("freeOver")}
                  />
                )}
                <button
                  type="button"
                  className="btn btn-ghost btn-sm w-fit self-end"
                  onClick={() =>
                    setDraft({ ...draft, methods: draft.methods.filter((_, j) => j !== i) })
                  }
                >
                  Remove method
                </button>
              </fieldset>
            );
          })}
          <button
            type="button"
            className="btn btn-sm w-fit"
            onClick={() => setDraft({ ...draft, methods: [...draft.methods, blankMethod()] })}
          >
            Add a method
          </button>
          {save.error && !fields && (
            <p role="alert" className="text-sm text-error">
              {save.error.message}
            </p>
          )}
          {fields && (
            <p role="alert" className="text-sm text-error">
              Please check the fields above.
            </p>
          )}
          <div className="flex gap-2">
            <button type="submit" className="btn btn-primary" disabled={save.isPending}>
              Save zone
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setEditing(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button
          type="button"
          className="btn btn-primary w-fit"
          onClick={() => {
            save.reset();
            setDraft(blankZone());
            setEditing("new");
          }}
        >
          Add a shipping zone
        </button>
      )}
      {zones.data.length === 0 ? (
        <p>No shipping zones: orders with an address cannot be placed until one serves it.</p>
      ) : (
        <DataTable
          label="Shipping zones"
          rowKey={(z) => z.id}
          rowTestId="shipping-zone"
          rows={zones.data}
          columns={[
            { header: "Zone", role: "title", cell: (z) => z.name },
            {
              header: "Covers",
              cell: (z) =>
                `${z.countries.join(", ")}${z.regions.length > 0 ? ` (only ${z.regions.join(", ")})` : ""}`,
            },
            {
              header: "Methods",
              cell: (z) => (
                <ul className="text-sm">
                  {z.methods.map((m) => (
                    <li key={m.id}>
                      <span className="font-medium">{m.name}</span>
                      {m.estimate && ` (${m.estimate})`}: {rateText(m, currency)}
                    </li>
                  ))}
                </ul>
              ),
            },
            {
              header: "Actions",
              role: "actions",
              cell: (z) => (
                <div className="flex gap-2">
                  <button
                    type="button"
                    className="btn btn-sm"
                    aria-label={`Edit ${z.name}`}
                    onClick={() => {
                      save.reset();
                      setDraft(toDraft(z));
                      setEditing(z.id);
                    }}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-outline btn-error"
                    aria-label={`Remove ${z.name}`}
                    onClick={() => setRemoving(z)}
                  >
                    Remove
                  </button>
                </div>
              ),
            },
          ]}
        />
      )}
      <ConfirmDialog
        open={removing !== undefined}
        title="Remove this shipping zone?"
        confirmLabel="Remove"
        busy={remove.isPending}
        error={remove.error?.message}
        onCancel={() => setRemoving(undefined)}
        onConfirm={() =>
          removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(undefined) })
        }
      >
        {removing?.name} and its methods. Addresses it covers can no longer be ordered to; orders
        placed keep their shipping.
      </ConfirmDialog>
    </div>
  );
}
