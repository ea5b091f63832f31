import { useState } from "react";
import type { CompanyTax } from "#contract/tax";
import { FormField } from "../../../components/form-field";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { ApiError } from "../../../lib/api-client";
import { formatDate } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useCompanyTax, useSetCompanyTax } from "../api/companies";

/**
 * Admin: the company's tax status (docs/tax-exemptions.md). An EU VAT number is checked for its
 * country's form (offline: no VIES look-up) and then reverse-charges orders delivered to another
 * EU member state; an exemption certificate number makes its orders 0 %.
 */
export function CompanyTaxStatus({ companyId }: { companyId: string }) {
  const tax = useCompanyTax(companyId);
  if (tax.isPending) return <PageSpinner />;
  if (tax.error) return <QueryError error={tax.error} />;
  return (
    <TaxForm
      key={`${tax.data.taxId}|${tax.data.taxIdCountry}|${tax.data.exemptionCertificate}`}
      companyId={companyId}
      tax={tax.data}
    />
  );
}

function TaxForm({ companyId, tax }: { companyId: string; tax: CompanyTax }) {
  const save = useSetCompanyTax(companyId);
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <section aria-labelledby="company-tax" className="flex flex-col gap-3">
      <h2 id="company-tax" className="text-xl font-semibold">
        Tax status
      </h2>
      <p className="text-sm text-base-content/75" data-testid="company-tax-summary">
        {tax.exemptionCertificate
          ? `Tax exempt: certificate ${tax.exemptionCertificate}, recorded ${formatDate(tax.exemptionRecordedAt!)}${tax.exemptionRecordedBy ? ` by ${tax.exemptionRecordedBy}` : ""}. Its orders bear 0 % tax.`
          : tax.reverseChargeEligible
            ? `EU VAT number ${tax.taxId} (${tax.taxIdCountry}), format checked ${formatDate(tax.taxIdValidatedAt!)}: orders delivered to another EU member state are reverse-charged (0 %).`
            : tax.taxId
              ? `Tax id ${tax.taxId}${tax.taxIdCountry ? ` (${tax.taxIdCountry})` : ""}: not an EU VAT number, so orders are taxed as usual.`
              : "No tax id: orders are taxed as usual."}
      </p>
      <form
        aria-label="Company tax status"
        className="grid gap-3 rounded-box border border-base-300 p-4 sm:grid-cols-3 sm:items-start"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          const field = (name: string) => String(data.get(name) ?? "").trim();
          save.mutate(
            {
              taxId: field("taxId") || null,
              taxIdCountry: field("taxIdCountry") || null,
              exemptionCertificate: field("exemptionCertificate") || null,
            },
            {
              onSuccess: () => {
                setErrors({});
                notify.success("Tax status saved");
              },
              onError: (err) =>
                setErrors(
                  err instanceof ApiError
                    ? { ...err.fields, form: err.message }
                    : { form: err.message },
                ),
            },
          );
        }}
      >
        <FormField
          label="VAT number / tax id"
          name="taxId"
          id="tax-status-id"
          defaultValue={tax.taxId ?? ""}
          hint="EU VAT numbers with their prefix, like DE123456789 (format checked offline)"
          error={errors.taxId}
        />
        <FormField
          label="Issuing country"
          name="taxIdCountry"
          id="tax-status-country"
          defaultValue={tax.taxIdCountry ?? ""}
          maxLength={2}
          hint="Two letters; empty: read from the VAT prefix"
          error={errors.taxIdCountry}
        />
        <FormField
          label="Tax exemption certificate"
          name="exemptionCertificate"
          id="tax-status-exemption"
          defaultValue={tax.exemptionCertificate ?? ""}
          hint="Its number; orders then bear 0 % tax. Empty: not exempt"
          error={errors.exemptionCertificate}
        />
        {errors.form && !errors.taxId && !errors.taxIdCountry && !errors.exemptionCertificate && (
          <p role="alert" className="text-sm text-error sm:col-span-3">
            {errors.form}
          </p>
        )}
        <button type="submit" className="btn btn-primary sm:col-span-3" disabled={save.isPending}>
          Save tax status
        </button>
      </form>
    </section>
  );
}
