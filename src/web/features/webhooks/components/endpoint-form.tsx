import { useMemo } from "react";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { z } from "zod";
import {
  webhookEndpointChangeSchema,
  webhookEndpointCreateSchema,
  webhookEventLabels,
  webhookEventTypes,
  webhookMessages as say,
  type WebhookEndpoint,
  type WebhookEndpointIssued,
} from "#contract/webhooks";
import { CheckboxGroup } from "../../../components/checkbox-group";
import { FormDialog, useFormDialog } from "../../../components/form-dialog";
import { FormField } from "../../../components/form-field";
import { fieldProps } from "../../../lib/use-api-form";
import { useChangeWebhookEndpoint, useCreateWebhookEndpoint } from "../api/webhooks";

/** The form's fields as typed. */
const endpointFields = z.object({
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.string()),
});
type EndpointFields = z.infer<typeof endpointFields>;

const createSchema = endpointFields
  .transform((f): z.input<typeof webhookEndpointCreateSchema> => ({
    url: f.url,
    description: f.description,
    eventTypes: f.eventTypes as z.input<typeof webhookEndpointCreateSchema>["eventTypes"],
  }))
  .pipe(webhookEndpointCreateSchema);

const changeSchema = endpointFields
  .transform((f): z.input<typeof webhookEndpointChangeSchema> => ({
    url: f.url,
    description: f.description,
    eventTypes: f.eventTypes as z.input<typeof webhookEndpointChangeSchema>["eventTypes"],
  }))
  .pipe(webhookEndpointChangeSchema);

/** The URL, the description and the events, for a new endpoint and a change alike. */
function EndpointFieldset({
  idPrefix,
  register,
  errors,
}: {
  idPrefix: string;
  register: UseFormRegister<EndpointFields>;
  errors: FieldErrors<EndpointFields>;
}) {
  const field = fieldProps(register, errors);
  const eventsError = errors.eventTypes?.message ?? errors.eventTypes?.root?.message;
  return (
    <>
      <FormField
        id={`${idPrefix}-url`}
        label="URL"
        type="url"
        inputMode="url"
        placeholder="https://erp.example.com/webhooks/partsworks"
        hint="The store posts each event here, signed with the endpoint's secret"
        {...field("url")}
      />
      <FormField
        id={`${idPrefix}-description`}
        label="Description (optional)"
        placeholder="Factory ERP"
        {...field("description")}
      />
      <CheckboxGroup
        id={`${idPrefix}-events`}
        legend="Events"
        options={webhookEventTypes.map((type) => ({
          value: type,
          meaning: webhookEventLabels[type],
        }))}
        register={register("eventTypes")}
        error={eventsError}
        twoColumns
      />
    </>
  );
}

/** A new endpoint: on success the caller shows its secret, once (`onIssued`). */
export function CreateEndpointDialog({
  onClose,
  onIssued,
}: {
  onClose(): void;
  onIssued(issued: WebhookEndpointIssued): void;
}) {
  const create = useCreateWebhookEndpoint();
  const form = useFormDialog(
    createSchema,
    { url: "", description: "", eventTypes: [] } satisfies EndpointFields,
    { write: create.mutateAsync, busy: create.isPending, onAnswer: onIssued, onClose },
  );
  return (
    <FormDialog title="Add a webhook endpoint" named submitLabel="Add endpoint" {...form.dialog}>
      <EndpointFieldset
        idPrefix="create-endpoint"
        register={form.register}
        errors={form.formState.errors}
      />
    </FormDialog>
  );
}

/** Changes an endpoint's URL, description or events (its secret stays). */
export function EditEndpointDialog({
  endpoint,
  onClose,
}: {
  endpoint: WebhookEndpoint;
  onClose(): void;
}) {
  const change = useChangeWebhookEndpoint();
  const defaultValues = useMemo(
    () =>
      ({
        url: endpoint.url,
        description: endpoint.description,
        eventTypes: [...endpoint.eventTypes],
      }) satisfies EndpointFields,
    [endpoint],
  );
  const form = useFormDialog(changeSchema, defaultValues, {
    write: (body) => change.mutateAsync({ id: endpoint.id, body }),
    busy: change.isPending,
    said: () => say.saved,
    onClose,
  });
  return (
    <FormDialog title="Edit the webhook endpoint" named {...form.dialog}>
      <EndpointFieldset
        idPrefix="edit-endpoint"
        register={form.register}
        errors={form.formState.errors}
      />
    </FormDialog>
  );
}
