import type { BaseSyntheticEvent, ReactNode } from "react";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import type { Company, CompanyCreate } from "#contract/companies";
import { paymentTermsValues, termsLabels } from "#contract/terms";
import { GARAGE_GROUP_ID } from "#contract/customer-groups";
import { FormError, FormField, moneyAmount } from "../../../components/form-field";
import { SelectField } from "../../../components/select-field";
import { fieldProps } from "../../../lib/use-api-form";

export interface PriceListOption {
  id: string;
  name: string;
}

/** A customer group to put a company in (docs/pricing.md). */
export type GroupOption = PriceListOption;

/** What a company's form offers to choose from, as its page gives it. */
export interface CompanyChoices {
  priceLists: PriceListOption[];
  /** The customer groups to choose from (none given: the field is left out). */
  groups?: GroupOption[];
}

/** A company's values as its form starts: a new one's, or those of the company edited. */
export const companyFormValues = (company?: Company): CompanyCreate => ({
  name: company?.name ?? "",
  taxId: company?.taxId ?? "",
  paymentTerms: company?.paymentTerms ?? "card",
  creditLimit: company?.creditLimit ?? null,
  priceListId: company?.priceListId ?? null,
  customerGroupId: company?.customerGroupId ?? GARAGE_GROUP_ID,
});

/** The fields of a company (new or edited); the page gives the price lists to choose from. */
export function CompanyFields({
  register,
  errors,
  priceLists,
  groups,
  idPrefix,
}: CompanyChoices & {
  register: UseFormRegister<CompanyCreate>;
  errors: FieldErrors<CompanyCreate>;
  idPrefix: string;
}) {
  const field = fieldProps(register, errors);
  return (
    <>
      <FormField label="Name" id={`${idPrefix}-name`} required {...field("name")} />
      <FormField label="Tax / VAT id" id={`${idPrefix}-tax-id`} {...field("taxId")} />
      <SelectField
        label="Payment terms"
        id={`${idPrefix}-terms`}
        hint="Net terms: orders go on the company's account with an invoice due in 15, 30 or 60 days"
        {...field("paymentTerms")}
      >
        {paymentTermsValues.map((t) => (
          <option key={t} value={t}>
            {termsLabels[t]}
          </option>
        ))}
      </SelectField>
      <FormField
        label="Credit limit"
        id={`${idPrefix}-credit`}
        {...moneyAmount(0)}
        hint="Open invoices on account may not go over it; leave empty for no limit"
        {...field("creditLimit", { setValueAs: (v: string) => (v === "" ? null : Number(v)) })}
      />
      <SelectField
        label="Price list"
        id={`${idPrefix}-price-list`}
        {...field("priceListId", { setValueAs: (v: string | null) => v || null })}
      >
        <option value="">None (list prices)</option>
        {priceLists.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </SelectField>
      {groups && groups.length > 0 && (
        <SelectField
          label="Customer group"
          id={`${idPrefix}-group`}
          hint="Its price rules, and whether its buyers keep each part's trade minimum"
          {...field("customerGroupId")}
        >
          {groups.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </SelectField>
      )}
    </>
  );
}

/**
 * A company's form in its box, opened by its `summary` (a new company, a company's details): its
 * fields, the refusal (`error`) and the submit button, held while `busy`.
 */
export function CompanyFormBox({
  summary,
  label,
  submitLabel,
  onSubmit,
  error,
  busy,
  ...fields
}: Parameters<typeof CompanyFields>[0] & {
  summary: ReactNode;
  label: string;
  submitLabel: string;
  onSubmit: (e?: BaseSyntheticEvent) => Promise<void>;
  error: string | undefined;
  busy: boolean;
}) {
  return (
    <details className="rounded-box border border-base-300 p-4">
      <summary className="cursor-pointer font-semibold">{summary}</summary>
      <form aria-label={label} className="mt-4 grid gap-3 sm:grid-cols-2" onSubmit={onSubmit}>
        <CompanyFields {...fields} />
        <FormError message={error} className="text-sm text-error sm:col-span-2" />
        <button type="submit" className="btn btn-primary sm:col-span-2" disabled={busy}>
          {submitLabel}
        </button>
      </form>
    </details>
  );
}
