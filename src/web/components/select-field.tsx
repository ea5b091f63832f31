import type { ReactNode, SelectHTMLAttributes } from "react";
import { FieldFrame } from "./form-field";

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/**
 * A labelled select (its options as children) with its validation message under it, or its hint
 * while valid (either linked for screen readers): `FormField` for a choice.
 */
export function SelectField({ label, error, hint, id, children, ...select }: SelectFieldProps) {
  return (
    <FieldFrame id={id ?? select.name} label={label} error={error} hint={hint} linkHint>
      {(aria) => (
        <select
          {...aria}
          className={`select select-bordered w-full ${error ? "select-error" : ""}`}
          {...select}
        >
          {children}
        </select>
      )}
    </FieldFrame>
  );
}
