import type { InputHTMLAttributes, ReactNode } from "react";

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** An input's props for a whole number from `min` up: the phone's number pad, steps of 1. */
export const wholeNumber = (min: number) =>
  ({ type: "number", inputMode: "numeric", min, step: 1 }) as const;

/** An input's props for an amount of money from `min`: steps of a cent. */
export const moneyAmount = (min: number) => ({ type: "number", min, step: 0.01 }) as const;

/**
 * A number field's text as the schema checks it: empty is not a number (NaN, which the schema
 * refuses in its own words), anything else the number typed.
 */
export const typedNumber = (typed: unknown) =>
  typeof typed === "string" && typed.trim() === "" ? Number.NaN : Number(typed);

/** A number field's text where empty means none: null; anything else the number typed. */
export const typedNumberOrNull = (typed: unknown) =>
  typeof typed !== "string" || typed.trim() === "" ? null : Number(typed);

/** The props a labelled control takes from its FieldFrame: its id and what describes it. */
export interface ControlAria {
  id: string | undefined;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/**
 * What a labelled control shares (an input, a select, a text area): its label, the control, then
 * its hint while valid and its validation message, the message linked for screen readers (the
 * hint too with `linkHint`).
 */
export function FieldFrame({
  id,
  label,
  error,
  hint,
  linkHint,
  children,
}: {
  id: string | undefined;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  linkHint: boolean;
  children: (aria: ControlAria) => ReactNode;
}) {
  const errorId = `${id}-error`;
  const hintId = hint && linkHint ? `${id}-hint` : undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": error ? errorId : hintId,
      })}
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

/** A labelled input with its validation message under it (linked for screen readers). */
export function FormField({ label, error, hint, id, ...input }: FormFieldProps) {
  return (
    <FieldFrame id={id ?? input.name} label={label} error={error} hint={hint} linkHint={false}>
      {(aria) => (
        <input
          {...aria}
          className={`input input-bordered w-full ${error ? "input-error" : ""} ${input.readOnly ? "bg-base-200 text-base-content/80" : ""}`}
          {...input}
        />
      )}
    </FieldFrame>
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
