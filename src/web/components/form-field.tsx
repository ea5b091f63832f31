import type { InputHTMLAttributes, ReactNode } from "react";

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** An input's props for a whole number from `min` up: the phone's number pad, steps of 1. */
export const wholeNumber = (min: number) =>
  ({ type: "number", inputMode: "numeric", min, step: 1 }) as const;

/** A labelled input with its validation message under it (linked for screen readers). */
export function FormField({ label, error, hint, id, ...input }: FormFieldProps) {
  const fieldId = id ?? input.name;
  const errorId = `${fieldId}-error`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={fieldId} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={fieldId}
        className={`input input-bordered w-full ${error ? "input-error" : ""} ${input.readOnly ? "bg-base-200 text-base-content/80" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...input}
      />
      {hint && !error && <p className="text-xs text-base-content/70">{hint}</p>}
      {error && (
        <p id={errorId} className="text-sm text-error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * A form's submit button, held with a spinner while the form is sent (`busy`); `disabled` holds
 * it at other times too (nothing changed yet).
 */
export function SubmitButton({
  busy,
  disabled = false,
  children,
}: {
  busy: boolean;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="submit" className="btn btn-primary" disabled={disabled || busy}>
      {busy && <span className="loading loading-spinner loading-sm" />}
      {children}
    </button>
  );
}

/** A form's refusal that belongs to no one field (`useApiForm`'s `formError`), where it was sent. */
export function FormError({
  message,
  className = "text-sm text-error",
}: {
  message?: string;
  className?: string;
}) {
  if (!message) return null;
  return (
    <p role="alert" className={className}>
      {message}
    </p>
  );
}
