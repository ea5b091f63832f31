import { sql } from "../db/sql";
import { boolean, check, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { requiredUuidRef, timestampNow, timestampTz, uuidPrimaryKey } from "../db/columns";
import type {
  WebhookDeliveryStatus,
  WebhookDisabledReason,
  WebhookEventType,
} from "../../contract/webhooks";

/**
 * Another system's URL that the store posts events to (docs/webhooks.md). The secret is kept as
 * is (an HMAC is computed with it); after a rotation the previous one signs too until
 * `previous_secret_until`. Disabled by an admin, or by the store after persistent failure
 * (`consecutive_failures` deliveries failed for good in a row: `sender.ts`).
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuidPrimaryKey(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    eventTypes: text("event_types").array().$type<WebhookEventType[]>().notNull(),
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretUntil: timestampTz("previous_secret_until"),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason").$type<WebhookDisabledReason>(),
    disabledAt: timestampTz("disabled_at"),
    /** Deliveries that failed for good since the last one that succeeded. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdAt: timestampNow("created_at"),
    updatedAt: timestampNow("updated_at"),
  },
  (t) => [
    check("webhook_endpoints_url_length", sql`char_length(${t.url}) between 1 and 2000`),
    check("webhook_endpoints_description_length", sql`char_length(${t.description}) <= 200`),
    check("webhook_endpoints_events_present", sql`cardinality(${t.eventTypes}) > 0`),
    check("webhook_endpoints_secret_valid", sql`${t.secret} ~ '^whsec_[A-Za-z0-9+/=]+$'`),
    check(
      "webhook_endpoints_disabled_reason_valid",
      sql`(${t.enabled} and ${t.disabledReason} is null) or (not ${t.enabled} and ${t.disabledReason} in ('admin', 'failing'))`,
    ),
  ],
);

/** Something that happened, as the body every delivery of it posts (JSON text, as sent). */
export const webhookOutbox = pgTable("webhook_outbox", {
  id: uuid("id").primaryKey(),
  type: text("type").notNull(),
  body: text("body").notNull(),
  /** The clock's time, not the transaction's: events of one transaction keep their order. */
  createdAt: timestampTz("created_at")
    .notNull()
    .default(sql`clock_timestamp()`),
});

/**
 * One event for one endpoint: `pending` (due at `next_attempt_at`; claimed by a sender until
 * `locked_until`), `succeeded` or `failed` (retries used up). Its id is the `webhook-id` header.
 * A replay puts it back to `pending` with a new round of retries (`failures_in_round` from 0).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuidPrimaryKey(),
    eventId: requiredUuidRef("event_id", () => webhookOutbox.id, "cascade"),
    endpointId: requiredUuidRef("endpoint_id", () => webhookEndpoints.id, "cascade"),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    failuresInRound: integer("failures_in_round").notNull().default(0),
    nextAttemptAt: timestampTz("next_attempt_at").defaultNow(),
    lockedUntil: timestampTz("locked_until"),
    lastResponseStatus: integer("last_response_status"),
    lastDurationMs: integer("last_duration_ms"),
    lastError: text("last_error"),
    /** The clock's time: deliveries written by one transaction are sent in the order written. */
    createdAt: timestampTz("created_at")
      .notNull()
      .default(sql`clock_timestamp()`),
    deliveredAt: timestampTz("delivered_at"),
  },
  (t) => [
    check(
      "webhook_deliveries_status_valid",
      sql`${t.status} in ('pending', 'succeeded', 'failed')`,
    ),
    check(
      "webhook_deliveries_pending_has_next",
      sql`(${t.status} = 'pending') = (${t.nextAttemptAt} is not null)`,
    ),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    index("webhook_deliveries_event_idx").on(t.eventId),
  ],
);

/** One attempt to deliver: the headers sent, what came back, how long it took. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: uuidPrimaryKey(),
    deliveryId: requiredUuidRef("delivery_id", () => webhookDeliveries.id, "cascade"),
    attemptedAt: timestampNow("attempted_at"),
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>().notNull(),
    responseStatus: integer("response_status"),
    /** The start of the answer's body (2,000 characters at most). */
    responseBody: text("response_body"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt)],
);
