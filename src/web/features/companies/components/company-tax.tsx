import { companyTaxInputSchema, type CompanyTax } from "#contract/tax";
import { FormError, FormField } from "../../../components/form-field";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { formatDate } from "../../../lib/format";
import { notify } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useCompanyTax, useSetCompanyTax } from "../api/companies";

/**
 * Admin: the company's tax status (docs/tax.md). An EU VAT number is checked for its
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
  const { register, submitWith, formError, formState } = useApiForm(companyTaxInputSchema, {
    defaultValues: {
      taxId: tax.taxId ?? "",
      taxIdCountry: tax.taxIdCountry ?? "",
      exemptionCertificate: tax.exemptionCertificate ?? "",
    },
  });
  const { errors } = formState;
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
        onSubmit={submitWith(async (input) => {
          await save.mutateAsync(input);
          notify.success("Tax status saved");
        })}
      >
        <FormField
          label="VAT number / tax id"
          id="tax-status-id"
          hint="EU VAT numbers with their prefix, like DE123456789 (format checked offline)"
          error={errors.taxId?.message}
          {...register("taxId")}
        />
        <FormField
          label="Issuing country"
          id="tax-status-country"
          maxLength={2}
          hint="Two letters; empty: read from the VAT prefix"
          error={errors.taxIdCountry?.message}
          {...register("taxIdCountry")}
        />
        <FormField
          label="Tax exemption certificate"
          id="tax-status-exemption"
          hint="Its number; orders then bear 0 % tax. Empty: not exempt"
          error={errors.exemptionCertificate?.message}
          {...register("exemptionCertificate")}
        />
        <FormError message={formError} className="text-sm text-error sm:col-span-3" />
        <button type="submit" className="btn btn-primary sm:col-span-3" disabled={save.isPending}>
          Save tax status
        </button>
      </form>
    </section>
  );
}
