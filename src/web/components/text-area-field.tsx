import type { ReactNode, TextareaHTMLAttributes } from "react";
import { FieldFrame } from "./form-field";

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
}

/**
 * A labelled text area with its validation message under it, or its hint while valid (either
 * linked for screen readers): `FormField` for a few lines of text.
 */
export function TextAreaField({ label, error, hint, id, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldFrame id={id ?? textarea.name} label={label} error={error} hint={hint} linkHint>
      {(aria) => (
        <textarea
          {...aria}
          className={`textarea textarea-bordered w-full ${error ? "textarea-error" : ""}`}
          {...textarea}
        />
      )}
    </FieldFrame>
  );
}
