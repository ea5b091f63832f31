import type { Company } from "#contract/companies";
import { paymentTermsValues, termsLabels, type PaymentTerms } from "#contract/terms";
import { FormField } from "../../../components/form-field";

export interface PriceListOption {
  id: string;
  name: string;
}

/** The fields of a company (new or edited); the page gives the price lists to choose from. */
export function CompanyFields({
  company,
  priceLists,
  errors,
  idPrefix,
}: {
  company?: Company;
  priceLists: PriceListOption[];
  errors: Record<string, string>;
  idPrefix: string;
}) {
  return (
    <>
      <FormField
        label="Name"
        name="name"
        id={`${idPrefix}-name`}
        defaultValue={company?.name}
        error={errors.name}
        required
      />
      <FormField
        label="Tax / VAT id"
        name="taxId"
        id={`${idPrefix}-tax-id`}
        defaultValue={company?.taxId ?? ""}
        error={errors.taxId}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={`${idPrefix}-terms`} className="text-sm font-medium">
          Payment terms
        </label>
        <select
          id={`${idPrefix}-terms`}
          name="paymentTerms"
          className="select select-bordered w-full"
          defaultValue={company?.paymentTerms ?? "card"}
          aria-describedby={`${idPrefix}-terms-hint`}
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
        {errors.paymentTerms && <p className="text-sm text-error">{errors.paymentTerms}</p>}
      </div>
      <FormField
        label="Credit limit"
        name="creditLimit"
        id={`${idPrefix}-credit`}
        type="number"
        min="0"
        step="0.01"
        defaultValue={company?.creditLimit ?? ""}
        error={errors.creditLimit}
        hint="Open invoices on account may not go over it; leave empty for no limit"
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={`${idPrefix}-price-list`} className="text-sm font-medium">
          Price list
        </label>
        <select
          id={`${idPrefix}-price-list`}
          name="priceListId"
          className="select select-bordered w-full"
          defaultValue={company?.priceListId ?? ""}
        >
          <option value="">None (list prices)</option>
          {priceLists.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
        {errors.priceListId && <p className="text-sm text-error">{errors.priceListId}</p>}
      </div>
    </>
  );
}

/** The form's values as the API takes them (empty → none). */
export function companyFromForm(data: FormData) {
  const text = (k: string) => String(data.get(k) ?? "").trim();
  const credit = text("creditLimit");
  return {
    name: text("name"),
    taxId: text("taxId") || null,
    paymentTerms: (text("paymentTerms") || "card") as PaymentTerms,
    creditLimit: credit === "" ? null : Number(credit),
    priceListId: text("priceListId") || null,
  };
}
