import { useState } from "react";
import { countryName } from "#contract/addresses";
import type { TaxRate, TaxRateDraft } from "#contract/tax";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { DataTable } from "../../../components/data-table";
import { FormField } from "../../../components/form-field";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { ApiError } from "../../../lib/api-client";
import { notify } from "../../../lib/notify";
import { useRemoveTaxRate, useSaveTaxRate, useTaxRates } from "../api/tax-rates";

const blank = { country: "", region: "", name: "", rate: "", appliesToShipping: true };
type Draft = typeof blank;

/**
 * Admin: tax rates by country, and by region where it has its own (a region's rate wins over its
 * country's). Catalog prices are net of tax; orders keep the tax they were charged.
 */
export function TaxRates() {
  const rates = useTaxRates();
  const save = useSaveTaxRate();
  const remove = useRemoveTaxRate();
  const [editing, setEditing] = useState<string>();
  const [draft, setDraft] = useState<Draft>(blank);
  const [removing, setRemoving] = useState<TaxRate>();
  const fields = save.error instanceof ApiError ? save.error.fields : undefined;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const rate: TaxRateDraft = {
      country: draft.country,
      region: draft.region,
      name: draft.name,
      rate: draft.rate.trim() === "" ? Number.NaN : Number(draft.rate),
      appliesToShipping: draft.appliesToShipping,
    };
    save.mutate(
      { id: editing, rate },
      {
        onSuccess: () => {
          notify.success(editing ? "Tax rate saved" : "Tax rate added");
          setEditing(undefined);
          setDraft(blank);
        },
      },
    );
  };
  const set = (key: keyof Draft) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setDraft({ ...draft, [key]: key === "appliesToShipping" ? e.target.checked : e.target.value });

  if (rates.isPending) return <PageSpinner />;
  if (rates.error) return <QueryError error={rates.error} />;
  return (
    <div className="flex flex-col gap-6">
      <form
        noValidate
        onSubmit={submit}
        aria-label={editing ? "Edit tax rate" : "Add a tax rate"}
        className="grid gap-3 rounded-box border border-base-300 bg-base-100 p-4 sm:grid-cols-2 lg:grid-cols-4"
      >
        <FormField
          label="Country code"
          name="tax-country"
          placeholder="US"
          value={draft.country}
          onChange={set("country")}
          error={fields?.country}
        />
        <FormField
          label="Region (optional)"
          name="tax-region"
          placeholder="TX"
          hint="Empty: the whole country"
          value={draft.region}
          onChange={set("region")}
          error={fields?.region}
        />
        <FormField
          label="Name"
          name="tax-name"
          placeholder="Texas sales tax"
          value={draft.name}
          onChange={set("name")}
          error={fields?.name}
        />
        <FormField
          label="Rate (%)"
          name="tax-rate"
          inputMode="decimal"
          placeholder="6.25"
          value={draft.rate}
          onChange={set("rate")}
          error={fields?.rate}
        />
        <label className="flex items-center gap-2 text-sm sm:col-span-2">
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            checked={draft.appliesToShipping}
            onChange={set("appliesToShipping")}
          />
          Shipping is taxed too
        </label>
        {save.error && !fields && (
          <p role="alert" className="text-sm text-error sm:col-span-2 lg:col-span-4">
            {save.error.message}
          </p>
        )}
        <div className="flex gap-2 sm:col-span-2 lg:col-span-4">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {editing ? "Save tax rate" : "Add tax rate"}
          </button>
          {editing && (
            <button
              type="button"
              className="btn btn-ghost"
              onClick={() => {
                setEditing(undefined);
                setDraft(blank);
                save.reset();
              }}
            >
              Cancel
            </button>
          )}
        </div>
      </form>
      {rates.data.length === 0 ? (
        <p>No tax rates: orders are charged no tax.</p>
      ) : (
        <DataTable
          label="Tax rates"
          rowKey={(r) => r.id}
          rowTestId="tax-rate"
          rows={rates.data}
          columns={[
            {
              header: "Place",
              role: "title",
              cell: (r) => `${countryName(r.country)}${r.region ? `, ${r.region}` : ""}`,
            },
            { header: "Name", cell: (r) => r.name },
            { header: "Rate", numeric: true, cell: (r) => `${r.rate} %` },
            { header: "Shipping taxed", cell: (r) => (r.appliesToShipping ? "Yes" : "No") },
            {
              header: "Actions",
              role: "actions",
              cell: (r) => (
                <div className="flex gap-2">
                  <button
                    type="button"
                    className="btn btn-sm"
                    aria-label={`Edit ${r.name}`}
                    onClick={() => {
                      save.reset();
                      setEditing(r.id);
                      setDraft({
                        country: r.country,
                        region: r.region,
                        name: r.name,
                        rate: String(r.rate),
                        appliesToShipping: r.appliesToShipping,
                      });
                    }}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-outline btn-error"
                    aria-label={`Remove ${r.name}`}
                    onClick={() => setRemoving(r)}
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
        title="Remove this tax rate?"
        confirmLabel="Remove"
        busy={remove.isPending}
        error={remove.error?.message}
        onCancel={() => setRemoving(undefined)}
        onConfirm={() =>
          removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(undefined) })
        }
      >
        {removing?.name}: orders placed keep the tax they were charged.
      </ConfirmDialog>
    </div>
  );
}
