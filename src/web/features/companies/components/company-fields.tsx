import type { Company } from "#contract/companies";
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
      <FormField
        label="Payment terms"
        name="paymentTerms"
        id={`${idPrefix}-terms`}
        placeholder="Net 30"
        defaultValue={company?.paymentTerms ?? ""}
        error={errors.paymentTerms}
        hint="Leave empty for none (pays by card)"
      />
      <FormField
        label="Credit limit"
        name="creditLimit"
        id={`${idPrefix}-credit`}
        type="number"
        min="0"
        step="0.01"
        defaultValue={company?.creditLimit ?? ""}
        error={errors.creditLimit}
        hint="Leave empty for none"
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
    paymentTerms: text("paymentTerms") || null,
    creditLimit: credit === "" ? null : Number(credit),
    priceListId: text("priceListId") || null,
  };
}
