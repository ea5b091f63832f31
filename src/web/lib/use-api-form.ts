import { zodResolver } from "@hookform/resolvers/zod";
import { useCallback, useState } from "react";
import {
  get,
  useForm,
  type FieldError,
  type FieldValues,
  type FieldErrors,
  type Path,
  type RegisterOptions,
  type UseFormProps,
  type UseFormRegister,
  type UseFormRegisterReturn,
} from "react-hook-form";
import type { z } from "zod";
import { ApiError } from "./api-client";
import { notify } from "./notify";

/** An input's registration with its error message: what a form's `field(name)` gives. */
export type FieldProps = UseFormRegisterReturn & { error?: string };

/**
 * A form's `field(name)`: the props of the input it names, spread on a `FormField` (or
 * `SelectField`) as `{...field("name")}`: its registration and its error message.
 */
export const fieldProps =
  <T extends FieldValues>(register: UseFormRegister<T>, errors: FieldErrors<T>) =>
  (name: Path<T>, options?: RegisterOptions<T, Path<T>>): FieldProps => ({
    ...register(name, options),
    error: (get(errors, name) as FieldError | undefined)?.message,
  });

/**
 * The web app's one way to write a form: react-hook-form checked by a zod schema (the contract's,
 * or one built from its pieces where the fields are typed differently from the request), and the
 * API's refusal `{ error, message, fields }` shown where the person looks.
 *
 * `submitWith(send)` is the form's onSubmit: it checks the fields, then awaits `send(values)`
 * (a mutation's `mutateAsync`, say). Should that throw, each field the answer names gets its
 * message beside it, and `formError` holds the answer's message when it names no field of the
 * form (shown once, not beside a field and above the buttons again). `showError(err)` does the
 * same for a refusal that arrives another way; `reset` clears it with the fields. `field(name)`
 * gives an input its registration and its message (`fieldProps`).
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

  // A form started again has no refusal to show either.
  const startAgain = ((...args) => {
    setFormError(undefined);
    reset(...args);
  }) as typeof reset;

  /**
   * The onSubmit of a form that adds a record and starts again: `submitWith(create)`, a refusal
   * toasted as `said.failed` too, then the form emptied and `said.added` toasted.
   */
  const addWith = (
    create: (values: Output) => Promise<unknown>,
    said: { added: string; failed: string },
  ) =>
    submitWith(async (values) => {
      await create(values).catch((error: unknown) => {
        notify.error(said.failed);
        throw error;
      });
      startAgain();
      notify.success(said.added);
    });

  return {
    ...form,
    reset: startAgain,
    // The errors are read as a field is drawn: a form follows them only where it shows them.
    field: (name: Path<Input>, options?: RegisterOptions<Input, Path<Input>>) =>
      fieldProps(form.register, form.formState.errors)(name, options),
    formError,
    setFormError,
    showError,
    submitWith,
    addWith,
  };
}
