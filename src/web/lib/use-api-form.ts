import { zodResolver } from "@hookform/resolvers/zod";
import { useCallback, useState } from "react";
import { useForm, type FieldValues, type Path, type UseFormProps } from "react-hook-form";
import type { z } from "zod";
import { ApiError } from "./api-client";

/**
 * The web app's one way to write a form: react-hook-form checked by a zod schema (the contract's,
 * or one built from its pieces where the fields are typed differently from the request), and the
 * API's refusal `{ error, message, fields }` shown where the person looks.
 *
 * `submitWith(send)` is the form's onSubmit: it checks the fields, then awaits `send(values)`
 * (a mutation's `mutateAsync`, say). Should that throw, each field the answer names gets its
 * message beside it, and `formError` holds the answer's message when it names no field of the
 * form (shown once, not beside a field and above the buttons again). `showError(err)` does the
 * same for a refusal that arrives another way; `reset` clears it with the fields.
 */
export function useApiForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  options: Omit<UseFormProps<Input, unknown, Output>, "resolver"> = {},
) {
  const form = useForm<Input, unknown, Output>({ ...options, resolver: zodResolver(schema) });
  const { setError, getValues, handleSubmit, reset } = form;
  const [formError, setFormError] = useState<string>();

  const showError = useCallback(
    (err: unknown) => {
      let onField = false;
      const fields = err instanceof ApiError ? err.fields : undefined;
      for (const [name, message] of Object.entries(fields ?? {})) {
        const path = name as Path<Input>;
        setError(path, { type: "server", message });
        // A field the form holds a value for is one it shows.
        if (getValues(path) !== undefined) onField = true;
      }
      setFormError(onField ? undefined : (err as Error).message);
    },
    [setError, getValues],
  );

  const submitWith = (send: (values: Output) => unknown) =>
    handleSubmit(async (values) => {
      setFormError(undefined);
      try {
        await send(values);
      } catch (err) {
        showError(err);
      }
    });

  return {
    ...form,
    // A form started again has no refusal to show either.
    reset: ((...args) => {
      setFormError(undefined);
      reset(...args);
    }) as typeof reset,
    formError,
    setFormError,
    showError,
    submitWith,
  };
}
