import type { ReactNode, SelectHTMLAttributes } from "react";

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
  const fieldId = id ?? select.name;
  const errorId = `${fieldId}-error`;
  const hintId = `${fieldId}-hint`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={fieldId} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={fieldId}
        className={`select select-bordered w-full ${error ? "select-error" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : hint ? hintId : undefined}
        {...select}
      >
        {children}
      </select>
      {hint && !error && (
        <p id={hintId} className="text-xs text-base-content/70">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-error">
          {error}
        </p>
      )}
    </div>
  );
}
