import { useState } from "react";
import { useFieldArray, useWatch } from "react-hook-form";
import { z } from "zod";
import {
  shippingRateKinds,
  shippingZoneInputSchema,
  type ShippingMethod,
  type ShippingRateKind,
  type ShippingZone,
} from "#contract/shipping";
import { RemoveDialog } from "../../../components/confirm-dialog";
import { DataTable } from "../../../components/data-table";
import { editRemoveColumn } from "../../../components/edit-remove-buttons";
import {
  FormError,
  FormField,
  typedNumber,
  typedNumberOrNull,
} from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { formatPrice } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useSiteConfig } from "../../../lib/use-site-config";
import {
  useRemoveShippingZone,
  useSaveShippingZone,
  useShippingZones,
} from "../api/shipping-zones";

/** A method as its fields hold it; `bands` is "5000:19.95, 20000:34.95": up to grams, price. */
const methodDraftSchema = z.object({
  id: z.string().optional(),
  name: z.string(),
  estimate: z.string(),
  kind: z.enum(shippingRateKinds),
  price: z.string(),
  freeOver: z.string(),
  bands: z.string(),
  transitMinDays: z.string(),
  transitMaxDays: z.string(),
});
type MethodDraft = z.infer<typeof methodDraftSchema>;
type ZoneDraft = { name: string; countries: string; regions: string; methods: MethodDraft[] };
const blankMethod = (): MethodDraft => ({
  name: "",
  estimate: "",
  kind: "flat",
  price: "",
  freeOver: "",
  bands: "",
  transitMinDays: "",
  transitMaxDays: "",
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
const optionalText = (n: number | null) => (n === null ? "" : String(n));

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
      transitMinDays: optionalText(m.transitMinDays),
      transitMaxDays: optionalText(m.transitMaxDays),
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
      price: m.kind === "weight" ? 0 : typedNumber(m.price),
      freeOver: m.kind === "free_over" ? typedNumber(m.freeOver) : null,
      bands:
        m.kind === "weight"
          ? list(m.bands).map((band) => {
              const [grams, price] = band.split(":");
              return { upToGrams: typedNumber(grams ?? ""), price: typedNumber(price ?? "") };
            })
          : [],
      transitMinDays: typedNumberOrNull(m.transitMinDays),
      transitMaxDays: typedNumberOrNull(m.transitMaxDays),
    })),
  };
}

/**
 * The zone form: its fields as typed, checked with the zone's own rules (a band's problem is said
 * under the method's bands), and sent as the request those fields make.
 */
const zoneFormSchema = z
  .object({
    name: z.string(),
    countries: z.string(),
    regions: z.string(),
    methods: z.array(methodDraftSchema),
  })
  .transform((draft, ctx) => {
    const zone = fromDraft(draft);
    const checked = shippingZoneInputSchema.safeParse(zone);
    for (const issue of checked.error?.issues ?? []) {
      const path =
        issue.path[0] === "methods" && issue.path[2] === "bands"
          ? issue.path.slice(0, 3)
          : issue.path;
      ctx.addIssue({ code: "custom", path, message: issue.message });
    }
    return checked.success ? zone : z.NEVER;
  });

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
  const remove = useRemoveShippingZone();
  const currency = useSiteConfig().data?.currency ?? "USD";
  const [editing, setEditing] = useState<{ id?: string; draft: ZoneDraft }>();
  const [removing, setRemoving] = useState<ShippingZone>();

  if (zones.isPending) return <PageSpinner />;
  if (zones.error) return <QueryError error={zones.error} />;
  return (
    <div className="flex flex-col gap-6">
      {editing ? (
        <ZoneForm
          key={editing.id ?? "new"}
          id={editing.id}
          draft={editing.draft}
          onDone={() => setEditing(undefined)}
        />
      ) : (
        <button
          type="button"
          className="btn btn-primary w-fit"
          onClick={() => setEditing({ draft: blankZone() })}
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
                      {m.transitMinDays !== null &&
                        ` · ${m.transitMinDays}–${m.transitMaxDays} working days in transit`}
                    </li>
                  ))}
                </ul>
              ),
            },
            editRemoveColumn<ShippingZone>(
              (z) => z.name,
              (z) => setEditing({ id: z.id, draft: toDraft(z) }),
              setRemoving,
            ),
          ]}
        />
      )}
      <RemoveDialog
        target={removing}
        close={() => setRemoving(undefined)}
        title="Remove this shipping zone?"
        confirmLabel="Remove"
        removal={remove}
      >
        {(z) => (
          <>
            {z.name} and its methods. Addresses it covers can no longer be ordered to; orders placed
            keep their shipping.
          </>
        )}
      </RemoveDialog>
    </div>
  );
}

/** A zone's form, new (no `id`) or edited, with its methods. */
function ZoneForm({ id, draft, onDone }: { id?: string; draft: ZoneDraft; onDone(): void }) {
  const save = useSaveShippingZone();
  const { field, control, register, submitWith, formError, formState } = useApiForm(
    zoneFormSchema,
    {
      defaultValues: draft,
    },
  );
  const { errors } = formState;
  const methods = useFieldArray({ control, name: "methods" });
  const kinds = useWatch({ control, name: "methods" }).map((m) => m.kind);
  return (
    <form
      noValidate
      aria-label={id ? "Edit shipping zone" : "Add a shipping zone"}
      className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4"
      onSubmit={submitWith(async (zone) => {
        await save.mutateAsync({ id, zone });
        notify.success("Shipping zone saved");
        onDone();
      })}
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <FormField label="Zone name" id="zone-name" {...field("name")} />
        <FormField
          label="Country codes"
          id="zone-countries"
          placeholder="US, CA"
          {...field("countries")}
        />
        <FormField
          label="Only these regions (optional)"
          id="zone-regions"
          placeholder="HI, AK"
          hint="Empty: the whole of each country"
          {...field("regions")}
        />
      </div>
      <h3 className="font-semibold">Methods</h3>
      {methods.fields.map((m, i) => {
        return (
          <fieldset
            key={m.id}
            className="grid gap-3 rounded-box border border-base-300 p-3 sm:grid-cols-2 lg:grid-cols-4"
          >
            <legend className="px-1 text-sm">Method {i + 1}</legend>
            <FormField label="Name" id={`method-${i}-name`} {...field(`methods.${i}.name`)} />
            <FormField
              label="Delivery estimate"
              id={`method-${i}-estimate`}
              placeholder="3-5 business days"
              {...field(`methods.${i}.estimate`)}
            />
            <SelectField label="Rate" id={`method-${i}-kind`} {...register(`methods.${i}.kind`)}>
              {Object.entries(kindLabels).map(([k, label]) => (
                <option key={k} value={k}>
                  {label}
                </option>
              ))}
            </SelectField>
            {kinds[i] === "weight" ? (
              <FormField
                label="Bands (grams:price)"
                id={`method-${i}-bands`}
                placeholder="5000:19.95, 20000:34.95"
                {...field(`methods.${i}.bands`)}
              />
            ) : (
              <FormField
                label="Price"
                id={`method-${i}-price`}
                inputMode="decimal"
                {...field(`methods.${i}.price`)}
              />
            )}
            {kinds[i] === "free_over" && (
              <FormField
                label="Free from an order value of"
                id={`method-${i}-free-over`}
                inputMode="decimal"
                {...field(`methods.${i}.freeOver`)}
              />
            )}
            <FormField
              label="Transit, least (working days)"
              id={`method-${i}-transit-min`}
              inputMode="numeric"
              placeholder="3"
              hint="Dated delivery windows at checkout; empty: none"
              {...field(`methods.${i}.transitMinDays`)}
            />
            <FormField
              label="Transit, most (working days)"
              id={`method-${i}-transit-max`}
              inputMode="numeric"
              placeholder="5"
              {...field(`methods.${i}.transitMaxDays`)}
            />
            <button
              type="button"
              className="btn btn-ghost btn-sm w-fit self-end"
              onClick={() => methods.remove(i)}
            >
              Remove method
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        className="btn btn-sm w-fit"
        onClick={() => methods.append(blankMethod())}
      >
        Add a method
      </button>
      <FormError message={formError} />
      {Object.keys(errors).length > 0 && <FormError message="Please check the fields above." />}
      <div className="flex gap-2">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          Save zone
        </button>
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
