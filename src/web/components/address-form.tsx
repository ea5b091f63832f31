import { useWatch } from "react-hook-form";
import {
  addressInputSchema,
  CA_PROVINCES,
  POSTAL_RULES,
  US_STATES,
  type AddressInput,
  type AddressInputDraft,
} from "#contract/addresses";
import { useApiForm } from "../lib/use-api-form";
import { CountryOptions } from "./country-options";
import { useNewAddressCountry } from "./address-country";
import { FormError, FormField } from "./form-field";
import { SelectField } from "./select-field";
import { SelectOptions } from "./select-options";

interface AddressFormProps {
  /** Prefills the fields (an address being edited, or the customer's name and phone). */
  defaultValues?: Partial<AddressInputDraft>;
  submitLabel: string;
  /** Sends the address; a refusal it throws is shown on the form, and what was typed stays. */
  onSubmit: (address: AddressInput) => Promise<unknown>;
  onCancel?: () => void;
  pending?: boolean;
  /** Prefix for field ids, so two forms on a page do not share them. */
  idPrefix?: string;
  /** Offer "Make this my default address" (the address book; a company's addresses have none). */
  showDefault?: boolean;
  /**
   * The buyer's default address's country: a new address (no `defaultValues.country`) starts in
   * it; without one, in the market's country (`newAddressCountry`, ./address-country.ts).
   */
  defaultAddressCountry?: string | null;
}

/**
 * A structured delivery address (My Info's address book, checkout, a company's ship-to
 * addresses): the same per-country rules
 * as the server (`#contract/addresses`), so a mistake is said before anything is sent.
 */
export function AddressForm({ defaultAddressCountry, ...props }: AddressFormProps) {
  const preset = useNewAddressCountry(defaultAddressCountry);
  const country = props.defaultValues?.country ?? preset;
  // The market the buyer shops in is still loading: the form starts once its country is known.
  if (country === undefined) {
    return <p className="text-sm text-base-content/75">Loading…</p>;
  }
  return <AddressFields {...props} defaultValues={{ ...props.defaultValues, country }} />;
}

function AddressFields({
  defaultValues,
  submitLabel,
  onSubmit,
  onCancel,
  pending,
  idPrefix = "address",
  showDefault = true,
}: Omit<AddressFormProps, "defaultAddressCountry">) {
  const {
    register,
    submitWith,
    formError,
    control,
    formState: { errors },
  } = useApiForm(addressInputSchema, {
    defaultValues: {
      name: "",
      company: "",
      line1: "",
      line2: "",
      city: "",
      region: "",
      postalCode: "",
      country: "",
      phone: "",
      isDefault: false,
      ...defaultValues,
    },
  });
  const country = useWatch({ control, name: "country" });
  const regionCodes = country === "US" ? US_STATES : country === "CA" ? CA_PROVINCES : null;
  const field = (name: keyof AddressInputDraft) => ({
    id: `${idPrefix}-${name}`,
    error: errors[name]?.message,
    ...register(name),
  });
  const regionError = errors.region?.message;
  const countryError = errors.country?.message;

  return (
    <form
      noValidate
      className="grid gap-3 sm:grid-cols-2"
      onSubmit={(e) => {
        // A form inside another (checkout's) submits itself only.
        e.stopPropagation();
        void submitWith(onSubmit)(e);
      }}
    >
      <FormField label="Full name" autoComplete="name" {...field("name")} />
      <FormField label="Company (optional)" autoComplete="organization" {...field("company")} />
      <div className="sm:col-span-2">
        <FormField label="Address line 1" autoComplete="address-line1" {...field("line1")} />
      </div>
      <div className="sm:col-span-2">
        <FormField
          label="Address line 2 (optional)"
          autoComplete="address-line2"
          {...field("line2")}
        />
      </div>
      <FormField label="City" autoComplete="address-level2" {...field("city")} />
      <SelectField
        label="Country"
        id={`${idPrefix}-country`}
        autoComplete="country"
        error={countryError}
        {...register("country")}
      >
        <CountryOptions chosen={country} />
      </SelectField>
      {regionCodes ? (
        <SelectField
          label={country === "US" ? "State" : "Province or territory"}
          id={`${idPrefix}-region`}
          autoComplete="address-level1"
          error={regionError}
          {...register("region")}
        >
          <SelectOptions empty="Choose…" values={regionCodes} />
        </SelectField>
      ) : (
        <FormField
          label="Region or county (optional)"
          autoComplete="address-level1"
          {...field("region")}
        />
      )}
      <FormField
        label="Postal code"
        autoComplete="postal-code"
        hint={
          POSTAL_RULES[country ?? ""] ? `Like ${POSTAL_RULES[country ?? ""]!.example}` : undefined
        }
        {...field("postalCode")}
      />
      <FormField label="Phone" type="tel" autoComplete="tel" {...field("phone")} />
      {showDefault && (
        <label className="flex items-center gap-2 text-sm sm:col-span-2">
          <input type="checkbox" className="checkbox checkbox-sm" {...register("isDefault")} />
          Make this my default address
        </label>
      )}
      <FormError message={formError} className="alert text-sm alert-error sm:col-span-2" />
      <div className="flex gap-2 sm:col-span-2">
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending && <span className="loading loading-spinner loading-sm" />}
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
