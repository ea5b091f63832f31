import { z } from "zod";
import { text } from "./text";

// Outgoing webhooks (docs/webhooks.md): an admin registers an endpoint (a URL of another
// system) with the events it wants; the store posts each event to it, signed as the Standard
// Webhooks specification says, retried for about 3 days, with a log of every attempt.

/** Every event the store sends, in the order the admin's form lists them. */
export const webhookEventTypes = [
  "order.placed",
  "order.paid",
  "order.approved",
  "order.shipped",
  "order.cancelled",
  "return.requested",
  "return.received",
  "return.refunded",
  "invoice.issued",
  "credit_note.issued",
  "quote.sent",
  "quote.accepted",
  "stock.low",
  "product.created",
  "product.updated",
  "product.deleted",
  "customer.created",
  "company.created",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** The event `POST /api/webhook-endpoints/:id/test` sends; no endpoint subscribes to it. */
export const WEBHOOK_PING_EVENT = "webhook.ping";

/** What each event means, in the admin's words. */
export const webhookEventLabels: Record<WebhookEventType, string> = {
  "order.placed": "An order was placed",
  "order.paid": "An order was paid in full",
  "order.approved": "A company buyer's order was approved",
  "order.shipped": "An order was shipped",
  "order.cancelled": "An order was cancelled",
  "return.requested": "A return was requested",
  "return.received": "A return was received",
  "return.refunded": "A return was refunded",
  "invoice.issued": "An invoice was issued",
  "credit_note.issued": "A credit note was issued",
  "quote.sent": "A quote was sent to the buyer",
  "quote.accepted": "A quote was accepted",
  "stock.low": "A part's stock fell below its reorder level",
  "product.created": "A product was added",
  "product.updated": "A product was changed",
  "product.deleted": "A product was removed",
  "customer.created": "A customer signed up",
  "company.created": "A company account was created",
};

/**
 * The `data` of an event: ids, the human number, the status and the totals as the API shows them
 * (docs/webhooks.md lists each event's fields). Kept small: a receiver that wants more reads the
 * API with the ids.
 */
export type WebhookEventData = Record<string, string | number | boolean | null>;

/** The JSON body of every delivery. */
export const webhookPayloadSchema = z.object({
  type: z.string(),
  /** When the change committed, ISO 8601. */
  timestamp: z.iso.datetime({ offset: true }),
  data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

export const MAX_WEBHOOK_URL = 2000;
export const MAX_WEBHOOK_DESCRIPTION = 200;
/** A rotated secret keeps signing beside the new one this long. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;
/** Secrets start with this, then the base64 of 24 random bytes. */
export const WEBHOOK_SECRET_START = "whsec_";

export const webhookEndpointStatuses = ["enabled", "disabled"] as const;
export type WebhookEndpointStatus = (typeof webhookEndpointStatuses)[number];

export const webhookDeliveryStatuses = ["pending", "succeeded", "failed"] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];
export const webhookDeliveryStatusLabels: Record<WebhookDeliveryStatus, string> = {
  pending: "Pending",
  succeeded: "Delivered",
  failed: "Failed",
};

/** Why an endpoint is disabled. */
export const webhookDisabledReasons = ["admin", "failing"] as const;
export type WebhookDisabledReason = (typeof webhookDisabledReasons)[number];

/** Words the API and the admin's page use, word for word. */
export const webhookMessages = {
  url: "Give the endpoint's address as an https:// or http:// URL",
  urlLength: `The URL may have at most ${MAX_WEBHOOK_URL} characters`,
  urlCredentials: "The URL may not hold a user name or password",
  description: `The description may have at most ${MAX_WEBHOOK_DESCRIPTION} characters`,
  events: "Choose at least one event",
  event: "Not a webhook event",
  change: "Change at least one field",
  id: "Not a webhook endpoint id",
  deliveryId: "Not a webhook delivery id",
  notFound: "Webhook endpoint not found",
  deliveryNotFound: "Webhook delivery not found",
  testDisabled: "This endpoint is disabled: enable it before sending a test event",
  status: "The status is pending, succeeded or failed",
  privateAddress: (host: string) =>
    `${host} is a private, loopback or link-local address: the store does not send webhooks there`,
  unresolved: (host: string) => `The host name ${host} could not be resolved`,
  // The admin's page.
  copyNow: "Copy this signing secret now: it will not be shown again.",
  created: "Webhook endpoint added",
  saved: "Webhook endpoint saved",
  enabledDone: "Webhook endpoint enabled",
  disabledDone: "Webhook endpoint disabled",
  rotated: "Signing secret rotated: the previous secret keeps signing for 24 hours",
  tested: "Test event queued: see the delivery log",
  deleted: "Webhook endpoint deleted",
  replayed: "Delivery queued again",
  deleteTitle: "Delete this webhook endpoint?",
  deleteBody:
    "No more events are sent to it, and its delivery log is deleted with it. This cannot be undone.",
  rotateTitle: "Rotate the signing secret?",
  rotateBody:
    "A new secret is made and shown once. For 24 hours every delivery is signed with both the new and the previous secret, so the receiver can switch without losing events.",
  disabledFailing:
    "Disabled by the store: its deliveries kept failing. Fix the receiver, then enable it.",
  disabledAdmin: "Disabled by an admin.",
  empty: "No webhook endpoints yet: add one to tell another system what happens in the store.",
  noDeliveries: "No deliveries yet.",
} as const;

const webhookUrl = text({ error: webhookMessages.url })
  .trim()
  .max(MAX_WEBHOOK_URL, webhookMessages.urlLength)
  .refine((value) => {
    try {
      const u = new URL(value);
      return (u.protocol === "https:" || u.protocol === "http:") && u.hostname !== "";
    } catch {
      return false;
    }
  }, webhookMessages.url)
  .refine((value) => {
    try {
      const u = new URL(value);
      return u.username === "" && u.password === "";
    } catch {
      return true;
    }
  }, webhookMessages.urlCredentials);
const webhookDescription = text({ error: webhookMessages.description })
  .trim()
  .max(MAX_WEBHOOK_DESCRIPTION, webhookMessages.description);
export const webhookEventTypeSchema = z.enum(webhookEventTypes, { error: webhookMessages.event });
const webhookEventList = z
  .array(webhookEventTypeSchema, { error: webhookMessages.events })
  .min(1, webhookMessages.events)
  .max(webhookEventTypes.length, webhookMessages.events)
  // Each once, in the contract's order.
  .transform((list) => webhookEventTypes.filter((t) => list.includes(t)));

/** `POST /api/webhook-endpoints`: a new endpoint (its secret is answered once). */
export const webhookEndpointCreateSchema = z.strictObject({
  url: webhookUrl,
  description: webhookDescription.optional(),
  eventTypes: webhookEventList,
});
export type WebhookEndpointCreate = z.infer<typeof webhookEndpointCreateSchema>;

/** `PATCH /api/webhook-endpoints/:id`: any of these. */
export const webhookEndpointChangeSchema = z
  .strictObject({
    url: webhookUrl.optional(),
    description: webhookDescription.optional(),
    eventTypes: webhookEventList.optional(),
    enabled: z.boolean({ error: "enabled is true or false" }).optional(),
  })
  .refine((c) => Object.values(c).some((v) => v !== undefined), webhookMessages.change);
export type WebhookEndpointChange = z.infer<typeof webhookEndpointChangeSchema>;

export const webhookEndpointParamsSchema = z.object({
  id: z.uuid({ error: webhookMessages.id }),
});
export const webhookDeliveryParamsSchema = z.object({
  id: z.uuid({ error: webhookMessages.deliveryId }),
});

/** An endpoint as the admin's list shows it: never its secrets. */
export const webhookEndpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(webhookEventTypeSchema),
  status: z.enum(webhookEndpointStatuses),
  disabledReason: z.enum(webhookDisabledReasons).nullable(),
  disabledAt: z.iso.datetime({ offset: true }).nullable(),
  /** The start of the current secret (`whsec_` and 4 characters), to tell secrets apart. */
  secretHint: z.string(),
  /** Until when the previous secret signs too (null: no rotation under way). */
  previousSecretUntil: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** An endpoint just made or its secret just rotated, with the whole secret: shown once. */
export const webhookEndpointIssuedSchema = z.object({
  endpoint: webhookEndpointSchema,
  secret: z.string(),
});
export type WebhookEndpointIssued = z.infer<typeof webhookEndpointIssuedSchema>;

export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });

/** One attempt to deliver: what was sent and what came back. */
export const webhookAttemptSchema = z.object({
  id: z.uuid(),
  attemptedAt: z.iso.datetime({ offset: true }),
  requestHeaders: z.record(z.string(), z.string()),
  /** HTTP status answered, null when none came (timeout, refused, bad address). */
  responseStatus: z.number().int().nullable(),
  /** The start of the answer's body (at most 2,000 characters). */
  responseBody: z.string().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = z.object({
  id: z.uuid(),
  endpointId: z.uuid(),
  /** The `webhook-id` header: the same on every retry and replay of this delivery. */
  messageId: z.string(),
  eventType: z.string(),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number().int(),
  lastResponseStatus: z.number().int().nullable(),
  lastDurationMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  deliveredAt: z.iso.datetime({ offset: true }).nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryDetailSchema = webhookDeliverySchema.extend({
  /** The JSON body sent, as sent. */
  requestBody: z.string(),
  attemptLog: z.array(webhookAttemptSchema),
});
export type WebhookDeliveryDetail = z.infer<typeof webhookDeliveryDetailSchema>;

export const WEBHOOK_DELIVERY_PAGE = 50;
export const webhookDeliveryQuerySchema = z.strictObject({
  endpointId: z.uuid({ error: webhookMessages.id }).optional(),
  status: z.enum(webhookDeliveryStatuses, { error: webhookMessages.status }).optional(),
  page: z.coerce
    .number({ error: "page is a whole number from 1" })
    .int("page is a whole number from 1")
    .min(1, "page is a whole number from 1")
    .max(10_000, "page is a whole number from 1 to 10,000")
    .default(1),
});
export type WebhookDeliveryQuery = z.infer<typeof webhookDeliveryQuerySchema>;

export const webhookDeliveryListSchema = z.object({
  deliveries: z.array(webhookDeliverySchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;
