import { useMemo } from "react";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { z } from "zod";
import {
  apiKeyChangeSchema,
  apiKeyCreateSchema,
  apiKeyMessages as say,
  apiScopeLabels,
  apiScopes,
  DEFAULT_API_KEY_RATE,
  MAX_API_KEY_RATE,
  type ApiKey,
  type ApiKeyIssued,
} from "#contract/api-keys";
import { CheckboxGroup } from "../../../components/checkbox-group";
import { FormField, typedNumber } from "../../../components/form-field";
import { FormDialog, useFormDialog } from "../../../components/form-dialog";
import { fieldProps } from "../../../lib/use-api-form";
import { useChangeApiKey, useCreateApiKey } from "../api/api-keys";

/** The form's fields as typed: the expiry is a day (`yyyy-mm-dd`, empty: never). */
const keyFields = z.object({
  name: z.string(),
  scopes: z.array(z.string()),
  expiresAt: z.string(),
  rateLimitPerMinute: z.number(),
});
type KeyFields = z.infer<typeof keyFields>;

/** The end of the chosen day where the admin is, as the API takes it; "" stays "" (never). */
function endOfDay(day: string): string {
  if (day === "") return "";
  const at = new Date(`${day}T23:59:59`);
  // Not a day the browser knows: the API's own words say so.
  return Number.isNaN(at.getTime()) ? day : at.toISOString();
}

/** `yyyy-mm-dd` of a moment, where the admin is (the date field's value). */
function dayOf(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * A day already over is refused here too, once the rest is right (the server decides by its
 * own clock).
 */
const notPast = (body: { expiresAt?: string | null }, ctx: z.RefinementCtx) => {
  if (body.expiresAt && new Date(body.expiresAt).getTime() <= Date.now()) {
    ctx.addIssue({ code: "custom", path: ["expiresAt"], message: say.expiryPast });
  }
};

const createSchema = keyFields
  .transform((f): z.input<typeof apiKeyCreateSchema> => ({
    name: f.name,
    scopes: f.scopes as z.input<typeof apiKeyCreateSchema>["scopes"],
    expiresAt: f.expiresAt === "" ? null : endOfDay(f.expiresAt),
    rateLimitPerMinute: f.rateLimitPerMinute,
  }))
  .pipe(apiKeyCreateSchema)
  .superRefine(notPast);

/** A change sends the expiry only when the admin changed it (an expired key can be renamed). */
const changeSchemaFor = (key: ApiKey) =>
  keyFields
    .transform((f): z.input<typeof apiKeyChangeSchema> => ({
      name: f.name,
      scopes: f.scopes as z.input<typeof apiKeyChangeSchema>["scopes"],
      ...(f.expiresAt !== dayOf(key.expiresAt) && {
        expiresAt: f.expiresAt === "" ? null : endOfDay(f.expiresAt),
      }),
      rateLimitPerMinute: f.rateLimitPerMinute,
    }))
    .pipe(apiKeyChangeSchema)
    .superRefine(notPast);

const today = () => dayOf(new Date().toISOString());

/** The four fields of a key, for a new one and a change alike. */
function KeyFieldset({
  idPrefix,
  register,
  errors,
}: {
  idPrefix: string;
  register: UseFormRegister<KeyFields>;
  errors: FieldErrors<KeyFields>;
}) {
  const field = fieldProps(register, errors);
  const scopesError = errors.scopes?.message ?? errors.scopes?.root?.message;
  return (
    <>
      <FormField
        id={`${idPrefix}-name`}
        label="Name"
        placeholder="Factory ERP"
        hint="Which system uses it, so you know what stops if you revoke it"
        {...field("name")}
      />
      <CheckboxGroup
        id={`${idPrefix}-scopes`}
        legend="Scopes"
        options={apiScopes.map((scope) => ({ value: scope, meaning: apiScopeLabels[scope] }))}
        register={register("scopes")}
        error={scopesError}
      />
      <FormField
        id={`${idPrefix}-expires`}
        label="Expires on (optional)"
        type="date"
        min={today()}
        hint="The key stops working at the end of that day; empty: never"
        {...field("expiresAt")}
      />
      <FormField
        id={`${idPrefix}-rate`}
        label="Rate limit (requests a minute)"
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_API_KEY_RATE}
        {...field("rateLimitPerMinute", { setValueAs: typedNumber })}
      />
    </>
  );
}

/** A new key: on success the caller shows the key, once (`onIssued`). */
export function CreateApiKeyDialog({
  onClose,
  onIssued,
}: {
  onClose(): void;
  onIssued(issued: ApiKeyIssued): void;
}) {
  const create = useCreateApiKey();
  const form = useFormDialog(
    createSchema,
    {
      name: "",
      scopes: [],
      expiresAt: "",
      rateLimitPerMinute: DEFAULT_API_KEY_RATE,
    } satisfies KeyFields,
    { write: create.mutateAsync, busy: create.isPending, onAnswer: onIssued, onClose },
  );
  return (
    <FormDialog title="Create an API key" named submitLabel="Create key" {...form.dialog}>
      <KeyFieldset idPrefix="create-key" register={form.register} errors={form.formState.errors} />
    </FormDialog>
  );
}

/** Renames a key or changes its scopes, expiry or rate limit (its secret stays). */
export function EditApiKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose(): void }) {
  const change = useChangeApiKey();
  const schema = useMemo(() => changeSchemaFor(apiKey), [apiKey]);
  const form = useFormDialog(
    schema,
    {
      name: apiKey.name,
      scopes: [...apiKey.scopes],
      expiresAt: dayOf(apiKey.expiresAt),
      rateLimitPerMinute: apiKey.rateLimitPerMinute,
    } satisfies KeyFields,
    {
      write: (body) => change.mutateAsync({ id: apiKey.id, body }),
      busy: change.isPending,
      said: (saved) => say.saved(saved.name),
      onClose,
    },
  );
  return (
    <FormDialog title={`Edit the API key ${apiKey.name}`} named {...form.dialog}>
      <KeyFieldset idPrefix="edit-key" register={form.register} errors={form.formState.errors} />
    </FormDialog>
  );
}
