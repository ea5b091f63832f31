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
}

/** Who orders and where it goes: the order dialog's and the checkout's fields. */
export function DeliveryFields({
  customer,
  address,
  phone,
  addressError,
  phoneError,
}: DeliveryFieldsProps) {
  return (
    <>
      <FormField label="Name" name="customer-name" value={customer.name} readOnly />
      <FormField label="Email" name="customer-email" type="email" value={customer.email} readOnly />
      <FormField label="Address" autoComplete="street-address" error={addressError} {...address} />
      <FormField
        label="Phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="e.g. +44 113 496 0000"
        error={phoneError}
        {...phone}
      />
    </>
  );
}
