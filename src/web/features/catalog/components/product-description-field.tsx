import type { UseFormRegisterReturn } from "react-hook-form";
import { MAX_DESCRIPTION_LENGTH } from "#contract/products";
import { TextAreaField } from "../../../components/text-area-field";

/** The short description, a product's new or changed: a few lines, with its message under them. */
export function ProductDescriptionField({
  field,
  error,
}: {
  field: UseFormRegisterReturn;
  error?: string;
}) {
  return (
    <TextAreaField
      label="Short description"
      rows={4}
      maxLength={MAX_DESCRIPTION_LENGTH}
      error={error}
      {...field}
    />
  );
}
