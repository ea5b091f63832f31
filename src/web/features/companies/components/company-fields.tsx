import type { FieldErrors, UseFormRegister } from "react-hook-form";
import type { Company, CompanyCreate } from "#contract/companies";
import { paymentTermsValues, termsLabels } from "#contract/terms";
import { FormField } from "../../../components/form-field";

export interface PriceListOption {
  id: string;
  name: string;
}

/** A company's values as its form starts: a new one's, or those of the company edited. */
export const companyFormValues = (company?: Company): CompanyCreate => ({
  name: company?.name ?? "",
  taxId: company?.taxId ?? "",
  paymentTerms: company?.paymentTerms ?? "card",
  creditLimit: company?.creditLimit ?? null,
  priceListId: company?.priceListId ?? null,
});

/** The fields of a company (new or edited); the page gives the price lists to choose from. */
export function CompanyFields({
  register,
  errors,
  priceLists,
  idPrefix,
}: {
  register: UseFormRegister<CompanyCreate>;
  errors: FieldErrors<CompanyCreate>;
  priceLists: PriceListOption[];
  idPrefix: string;
}) {
  return (
    <>
      <FormField
        label="Name"
        id={`${idPrefix}-name`}
        error={errors.name?.message}
        required
        {...register("name")}
      />
      <FormField
        label="Tax / VAT id"
        id={`${idPrefix}-tax-id`}
        error={errors.taxId?.message}
        {...register("taxId")}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={`${idPrefix}-terms`} className="text-sm font-medium">
          Payment terms
        </label>
        <select
          id={`${idPrefix}-terms`}
          className="select select-bordered w-full"
          aria-describedby={`${idPrefix}-terms-hint`}
          {...register("paymentTerms")}
        >
          {paymentTermsValues.map((t) => (
            <option key={t} value={t}>
              {termsLabels[t]}
            </option>
          ))}
        </select>
        <p id={`${idPrefix}-terms-hint`} className="text-xs text-base-content/70">
          Net terms: orders go on the company's account with an invoice due in 15, 30 or 60 days
        </p>
        {errors.paymentTerms && <p className="text-sm text-error">{errors.paymentTerms.message}</p>}
      </div>
      <FormField
        label="Credit limit"
        id={`${idPrefix}-credit`}
        type="number"
        min="0"
        step="0.01"
        error={errors.creditLimit?.message}
        hint="Open invoices on account may not go over it; leave empty for no limit"
        {...register("creditLimit", { setValueAs: (v: string) => (v === "" ? null : Number(v)) })}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={`${idPrefix}-price-list`} className="text-sm font-medium">
          Price list
        </label>
        <select
          id={`${idPrefix}-price-list`}
          className="select select-bordered w-full"
          {...register("priceListId", { setValueAs: (v: string | null) => v || null })}
        >
          <option value="">None (list prices)</option>
          {priceLists.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
        {errors.priceListId && <p className="text-sm text-error">{errors.priceListId.message}</p>}
      </div>
    </>
  );
}
