import { randomUUID } from "node:crypto";
import { sql, type SQL } from "../db/sql";
import type { WebhookEventData, WebhookEventType } from "../../contract/webhooks";
import type { DbOrTx } from "../db/database";
import { subscribedTypesFor } from "./subscriptions";

/**
 * Records that something happened, for every webhook endpoint that wants it (docs/webhooks.md):
 * call it with the transaction that makes the change, so the event exists exactly when the change
 * commits and never without it. One statement writes the event's row and one delivery row per
 * enabled endpoint subscribed to the type; the deliveries' insert trigger sends NOTIFY, which
 * PostgreSQL delivers at commit, and the sender (`sender.ts`) posts them then: never before the
 * commit, never in the caller's request.
 *
 * Cheap when nothing listens: the set of event types some enabled endpoint subscribes to is kept
 * in memory (`subscriptions.ts`, cleared over the change bus), and an event of a type no endpoint
 * wants costs no query at all. While that set is not known (the bus not hearing, a process with no
 * store services) the statement runs and writes nothing when no endpoint matches.
 */
export async function recordWebhookEvent(
  tx: DbOrTx,
  event: { type: WebhookEventType; data: WebhookEventData },
): Promise<void> {
  await insertEvent(tx, event.type, event.data);
}

/** As `recordWebhookEvent`, for any type (the admin's test ping goes to one endpoint only). */
export async function insertEvent(
  tx: DbOrTx,
  type: string,
  data: WebhookEventData,
  onlyEndpointId?: string,
): Promise<string | undefined> {
  if (onlyEndpointId === undefined) {
    const subscribed = subscribedTypesFor(tx);
    if (subscribed && !subscribed.has(type)) return undefined;
  }
  const id = randomUUID();
  const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
  const endpointFilter =
    onlyEndpointId === undefined
      ? sql`e.enabled and ${type} = any(e.event_types)`
      : sql`e.id = ${onlyEndpointId}`;
  const result = await tx.execute(sql`
    with endpoints as (
      select e.id from webhook_endpoints e where ${endpointFilter}
    ), event as (
      insert into webhook_outbox (id, type, body)
      select ${id}, ${type}, ${body} where exists (select 1 from endpoints)
      returning id
    )
    insert into webhook_deliveries (event_id, endpoint_id)
    select event.id, endpoints.id from event, endpoints
    returning id`);
  return result.rowCount ? id : undefined;
}

/**
 * `recordWebhookEvent` for a caller that writes in one statement without a transaction (the
 * order path: checkout/write.ts `writeOrderAtOnce`): entries for that statement's `with`, named
 * `{name}_endpoints`, `{name}_event` and `{name}_deliveries`, which record the event once per row
 * of `from` (a CTE of the statement, `placed`) with `data`, a SQL expression (json) over it.
 * Undefined when no endpoint wants the type: then the statement is left as it was.
 */
export function webhookEventCtes(
  handle: DbOrTx,
  name: string,
  type: WebhookEventType,
  from: SQL,
  data: SQL,
): SQL | undefined {
  const subscribed = subscribedTypesFor(handle);
  if (subscribed && !subscribed.has(type)) return undefined;
  const id = randomUUID();
  const timestamp = new Date().toISOString();
  const endpoints = sql.identifier(`${name}_endpoints`);
  const event = sql.identifier(`${name}_event`);
  const deliveries = sql.identifier(`${name}_deliveries`);
  return sql`
    ${endpoints} as (
      select e.id from webhook_endpoints e where e.enabled and ${type} = any(e.event_types)
    ),
    ${event} as (
      insert into webhook_outbox (id, type, body)
      select ${id}::uuid, ${type},
             json_build_object('type', ${type}::text, 'timestamp', ${timestamp}::text,
                               'data', ${data})::text
        from ${from}
       where exists (select 1 from ${endpoints})
      returning id
    ),
    ${deliveries} as (
      insert into webhook_deliveries (event_id, endpoint_id)
      select ${event}.id, ${endpoints}.id from ${event}, ${endpoints}
    )`;
}
