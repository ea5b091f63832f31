import { useState } from "react";
import { countryName } from "#contract/addresses";
import { taxRateInputSchema, type TaxRate, type TaxRateDraft } from "#contract/tax";
import { RemoveDialog } from "../../../components/confirm-dialog";
import { DataTable } from "../../../components/data-table";
import { editRemoveColumn } from "../../../components/edit-remove-buttons";
import { FormError, FormField, typedNumber } from "../../../components/form-field";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useRemoveTaxRate, useSaveTaxRate, useTaxRates } from "../api/tax-rates";
import { TaxRatesImport } from "./tax-rates-import";

const blank: Partial<TaxRateDraft> = {
  country: "",
  region: "",
  postalCode: "",
  name: "",
  rate: undefined,
  appliesToShipping: true,
};

/**
 * Admin: tax rates by country, by region where it has its own, and by postal code (a code, a
 * prefix or a range): the most specific rate of a place wins. Catalog prices are net of tax;
 * orders keep the tax they were charged.
 */
export function TaxRates() {
  const rates = useTaxRates();
  const save = useSaveTaxRate();
  const remove = useRemoveTaxRate();
  const [editing, setEditing] = useState<string>();
  const [removing, setRemoving] = useState<TaxRate>();
  const { field, register, reset, submitWith, formError } = useApiForm(taxRateInputSchema, {
    defaultValues: blank,
  });
  const startAgain = (id?: string, values: Partial<TaxRateDraft> = blank) => {
    setEditing(id);
    reset(values);
  };

  if (rates.isPending) return <PageSpinner />;
  if (rates.error) return <QueryError error={rates.error} />;
  return (
    <div className="flex flex-col gap-6">
      <form
        noValidate
        onSubmit={submitWith(async (rate) => {
          await save.mutateAsync({ id: editing, rate });
          notify.success(editing ? "Tax rate saved" : "Tax rate added");
          startAgain();
        })}
        aria-label={editing ? "Edit tax rate" : "Add a tax rate"}
        className="grid gap-3 rounded-box border border-base-300 bg-base-100 p-4 sm:grid-cols-2 lg:grid-cols-4"
      >
        <FormField label="Country code" id="tax-country" placeholder="US" {...field("country")} />
        <FormField
          label="Region (optional)"
          id="tax-region"
          placeholder="TX"
          hint="Empty: the whole country"
          {...field("region")}
        />
        <FormField
          label="Postal codes (optional)"
          id="tax-postal-code"
          placeholder="10001, 100* or 10001-10282"
          hint="Empty: the whole region"
          {...field("postalCode")}
        />
        <FormField label="Name" id="tax-name" placeholder="Texas sales tax" {...field("name")} />
        <FormField
          label="Rate (%)"
          id="tax-rate"
          inputMode="decimal"
          placeholder="6.25"
          {...field("rate", { setValueAs: typedNumber })}
        />
        <label className="flex items-center gap-2 text-sm sm:col-span-2">
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            {...register("appliesToShipping")}
          />
          Shipping is taxed too
        </label>
        <FormError message={formError} className="text-sm text-error sm:col-span-2 lg:col-span-4" />
        <div className="flex gap-2 sm:col-span-2 lg:col-span-4">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {editing ? "Save tax rate" : "Add tax rate"}
          </button>
          {editing && (
            <button type="button" className="btn btn-ghost" onClick={() => startAgain()}>
              Cancel
            </button>
          )}
        </div>
      </form>
      <TaxRatesImport />
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
              cell: (r) =>
                [countryName(r.country), r.region, r.postalCode].filter(Boolean).join(", "),
            },
            { header: "Name", cell: (r) => r.name },
            { header: "Rate", numeric: true, cell: (r) => `${r.rate} %` },
            { header: "Shipping taxed", cell: (r) => (r.appliesToShipping ? "Yes" : "No") },
            editRemoveColumn<TaxRate>(
              (r) => r.name,
              (r) =>
                startAgain(r.id, {
                  country: r.country,
                  region: r.region,
                  postalCode: r.postalCode,
                  name: r.name,
                  rate: r.rate,
                  appliesToShipping: r.appliesToShipping,
                }),
              setRemoving,
            ),
          ]}
        />
      )}
      <RemoveDialog
        target={removing}
        close={() => setRemoving(undefined)}
        title="Remove this tax rate?"
        confirmLabel="Remove"
        removal={remove}
      >
        {(r) => <>{r.name}: orders placed keep the tax they were charged.</>}
      </RemoveDialog>
    </div>
  );
}
