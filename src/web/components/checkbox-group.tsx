import type { UseFormRegisterReturn } from "react-hook-form";

/**
 * A form's list of choices, any number of them (a key's scopes, an endpoint's events): each a
 * checkbox with its code and what it means, the field's error under them.
 */
export function CheckboxGroup({
  id,
  legend,
  options,
  register,
  error,
  twoColumns = false,
}: {
  id: string;
  legend: string;
  options: readonly { value: string; meaning: string }[];
  /** What react-hook-form's `register(field)` gives for the array field. */
  register: UseFormRegisterReturn;
  error: string | undefined;
  twoColumns?: boolean;
}) {
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <div className={twoColumns ? "grid gap-2 sm:grid-cols-2" : "flex flex-col gap-2"}>
        {options.map(({ value, meaning }) => (
          <label key={value} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="checkbox checkbox-sm mt-0.5"
              value={value}
              {...register}
            />
            <span>
              <span className="font-mono">{value}</span>
              <span className="block text-base-content/75">{meaning}</span>
            </span>
          </label>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
