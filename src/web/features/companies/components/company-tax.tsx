import { companyTaxInputSchema, type CompanyTax } from "#contract/tax";
import { FormError, FormField } from "../../../components/form-field";
import { QueryError } from "../../../components/query-error";
import { PageSpinner } from "../../../components/spinner";
import { formatDate } from "../../../lib/format";
import { notify, notifyOutcome } from "../../../lib/notify";
import { useApiForm } from "../../../lib/use-api-form";
import { useCheckVies, useCompanyTax, useSetCompanyTax } from "../api/companies";
import { VatCheckLine } from "./vat-check";
import { PageSection } from "../../../components/page-title";

/**
 * Admin: the company's tax status (docs/tax.md). An EU VAT number is checked for its
 * country's form, then asked of VIES (its answer shown, "Check again now"), and reverse-charges
 * orders delivered to another EU member state unless VIES says it is not valid; an exemption
 * certificate number makes its orders 0 %.
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
  const checkVies = useCheckVies(companyId);
  const { field, submitWith, formError } = useApiForm(companyTaxInputSchema, {
    defaultValues: {
      taxId: tax.taxId ?? "",
      taxIdCountry: tax.taxIdCountry ?? "",
      exemptionCertificate: tax.exemptionCertificate ?? "",
    },
  });
  return (
    <PageSection compact headingId="company-tax" title="Tax status">
      <p className="text-sm text-base-content/75" data-testid="company-tax-summary">
        {tax.exemptionCertificate
          ? `Tax exempt: certificate ${tax.exemptionCertificate}, recorded ${formatDate(tax.exemptionRecordedAt!)}${tax.exemptionRecordedBy ? ` by ${tax.exemptionRecordedBy}` : ""}. Its orders bear 0 % tax.`
          : tax.reverseChargeEligible
            ? `EU VAT number ${tax.taxId} (${tax.taxIdCountry}), ${tax.vies?.status === "valid" ? "checked" : "format checked"} ${formatDate(tax.taxIdValidatedAt!)}: orders delivered to another EU member state are reverse-charged (0 %).`
            : tax.vies?.status === "invalid"
              ? `EU VAT number ${tax.taxId} (${tax.taxIdCountry}): orders are taxed as usual, without reverse charge.`
              : tax.taxId
                ? `Tax id ${tax.taxId}${tax.taxIdCountry ? ` (${tax.taxIdCountry})` : ""}: not an EU VAT number, so orders are taxed as usual.`
                : "No tax id: orders are taxed as usual."}
      </p>
      {tax.vies && (
        <div className="flex flex-wrap items-center gap-3">
          <VatCheckLine check={tax.vies} />
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={checkVies.isPending}
            onClick={() =>
              checkVies.mutate(
                undefined,
                notifyOutcome((after) =>
                  after.vies?.status === "unanswered"
                    ? "VIES did not answer: we will try again"
                    : "VIES answered",
                ),
              )
            }
          >
            {checkVies.isPending ? "Asking VIES…" : "Check again now"}
          </button>
        </div>
      )}
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
          hint="EU VAT numbers with their prefix, like DE123456789 (format checked, then asked of VIES)"
          {...field("taxId")}
        />
        <FormField
          label="Issuing country"
          id="tax-status-country"
          maxLength={2}
          hint="Two letters; empty: read from the VAT prefix"
          {...field("taxIdCountry")}
        />
        <FormField
          label="Tax exemption certificate"
          id="tax-status-exemption"
          hint="Its number; orders then bear 0 % tax. Empty: not exempt"
          {...field("exemptionCertificate")}
        />
        <FormError message={formError} className="text-sm text-error sm:col-span-3" />
        <button type="submit" className="btn btn-primary sm:col-span-3" disabled={save.isPending}>
          Save tax status
        </button>
      </form>
    </PageSection>
  );
}
