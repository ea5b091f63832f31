import type { UseFormRegisterReturn } from "react-hook-form";
import { FormField } from "./form-field";

interface DeliveryFieldsProps {
  /** Who orders: shown read-only (from the session). */
  customer: { name: string; email: string };
  /** The form's registered `Address` and `phonrNo` fields, with their messages. */
  address: UseFormRegisterReturn;
  phone: UseFormRegisterReturn;
  addressError?: string;
  phoneError?: string;
  /** The address and phone come from the saved address chosen above: shown, not typed. */
  fromBook?: boolean;
}

/** Who orders and where it goes: the order dialog's fields (SPEC section 5). */
export function DeliveryFields({
  customer,
  address,
  phone,
  addressError,
  phoneError,
  fromBook = false,
}: DeliveryFieldsProps) {
  const hint = fromBook ? "From the delivery address chosen above" : undefined;
  return (
    <>
      <FormField label="Name" name="customer-name" value={customer.name} readOnly />
      <FormField label="Email" name="customer-email" type="email" value={customer.email} readOnly />
      <FormField
        label="Address"
        autoComplete="street-address"
        error={addressError}
        readOnly={fromBook}
        hint={hint}
        {...address}
      />
      <FormField
        label="Phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="e.g. +44 113 496 0000"
        error={phoneError}
        readOnly={fromBook}
        hint={hint}
        {...phone}
      />
    </>
  );
}
