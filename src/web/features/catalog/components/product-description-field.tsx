import type { UseFormRegisterReturn } from "react-hook-form";
import { MAX_DESCRIPTION_LENGTH } from "#contract/products";

/** The short description: a textarea with its message under it, like FormField's inputs. */
export function ProductDescriptionField({
  field,
  error,
}: {
  field: UseFormRegisterReturn;
  error?: string;
}) {
  const errorId = `${field.name}-error`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={field.name} className="text-sm font-medium">
        Short description
      </label>
      <textarea
        id={field.name}
        rows={4}
        maxLength={MAX_DESCRIPTION_LENGTH}
        className={`textarea textarea-bordered w-full ${error ? "textarea-error" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...field}
      />
      {error && (
        <p id={errorId} className="text-sm text-error">
          {error}
        </p>
      )}
    </div>
  );
}
