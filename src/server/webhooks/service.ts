import { and, desc, eq, asc } from "drizzle-orm";
import { sql } from "../db/sql";
import {
  WEBHOOK_DELIVERY_PAGE,
  WEBHOOK_PING_EVENT,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  webhookMessages as say,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookDeliveryList,
  type WebhookDeliveryQuery,
  type WebhookEndpoint,
  type WebhookEndpointChange,
  type WebhookEndpointCreate,
  type WebhookEndpointIssued,
} from "../../contract/webhooks";
import { recordAdminAction, type AuditActor } from "../audit/service";
import type { Db, DbOrTx } from "../db/database";
import { conflict, fieldError, notFound } from "../errors";
import { checkedAddresses, hostOf } from "./destination";
import { insertEvent } from "./outbox";
import { messageId, newWebhookSecret, secretHint } from "./signing";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookOutbox } from "./tables";
import { pageOf } from "../db/page";

/*
 * Webhook endpoints and their delivery log, for the admin (docs/webhooks.md): each change in one
 * transaction with its audit row. The URL's host is resolved when saved and refused when any of its
 * addresses is private (unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES); the sender checks again on every
 * attempt, as it connects.
 */

type EndpointRow = typeof webhookEndpoints.$inferSelect;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toEndpoint(r: EndpointRow, now: Date): WebhookEndpoint {
  const overlap =
    r.previousSecretUntil && r.previousSecretUntil > now ? r.previousSecretUntil : null;
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    eventTypes: r.eventTypes,
    status: r.enabled ? "enabled" : "disabled",
    disabledReason: r.disabledReason ?? null,
    disabledAt: iso(r.disabledAt),
    secretHint: secretHint(r.secret),
    previousSecretUntil: iso(overlap),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  endpointId: webhookDeliveries.endpointId,
  eventType: webhookOutbox.type,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  lastResponseStatus: webhookDeliveries.lastResponseStatus,
  lastDurationMs: webhookDeliveries.lastDurationMs,
  lastError: webhookDeliveries.lastError,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  createdAt: webhookDeliveries.createdAt,
  deliveredAt: webhookDeliveries.deliveredAt,
};
const selectDeliveries = (tx: DbOrTx) =>
  tx
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookOutbox, eq(webhookOutbox.id, webhookDeliveries.eventId));
type DeliveryRow = Awaited<ReturnType<typeof selectDeliveries>>[number];

function toDelivery(r: DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    endpointId: r.endpointId,
    messageId: messageId(r.id),
    eventType: r.eventType,
    status: r.status,
    attempts: r.attempts,
    lastResponseStatus: r.lastResponseStatus,
    lastDurationMs: r.lastDurationMs,
    lastError: r.lastError,
    nextAttemptAt: iso(r.nextAttemptAt),
    createdAt: r.createdAt.toISOString(),
    deliveredAt: iso(r.deliveredAt),
  };
}

const audit = (tx: DbOrTx, actor: AuditActor, verb: string, id: string, summary: string) =>
  recordAdminAction(tx, {
    actor,
    action: `webhook-endpoint.${verb}`,
    target: { type: "webhook-endpoint", id },
    summary,
  });

export interface WebhookServiceOptions {
  allowPrivateAddresses: boolean;
  /** Told after a change to endpoints commits, so this process's set of subscribed types is
   * right at once (other processes hear NOTIFY). */
  endpointsChanged?: () => void;
  /** Told after a delivery is queued (test, replay), so this process's sender starts at once. */
  deliveriesQueued?: () => void;
  now?: () => Date;
}

export function createWebhookService(db: Db, opts: WebhookServiceOptions) {
  const now = opts.now ?? (() => new Date());
  const changed = () => opts.endpointsChanged?.();
  const queued = () => opts.deliveriesQueued?.();

  /** 400 beside `url` when the host does not resolve or is a private address. */
  async function checkUrl(url: string): Promise<void> {
    try {
      await checkedAddresses(hostOf(url), opts.allowPrivateAddresses);
    } catch (err) {
      throw fieldError("url", (err as Error).message);
    }
  }

  async function locked(tx: DbOrTx, id: string): Promise<EndpointRow> {
    const [row] = await tx
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id))
      .for("update");
    if (!row) throw notFound(say.notFound);
    return row;
  }

  async function delivery(id: string): Promise<WebhookDeliveryDetail> {
    const [row] = await db
      .select({ ...deliveryColumns, body: webhookOutbox.body })
      .from(webhookDeliveries)
      .innerJoin(webhookOutbox, eq(webhookOutbox.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.id, id));
    if (!row) throw notFound(say.deliveryNotFound);
    const attempts = await db
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.deliveryId, id))
      .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id));
    return {
      ...toDelivery(row),
      requestBody: row.body,
      attemptLog: attempts.map((a) => ({
        id: a.id,
        attemptedAt: a.attemptedAt.toISOString(),
        requestHeaders: a.requestHeaders,
        responseStatus: a.responseStatus,
        responseBody: a.responseBody,
        durationMs: a.durationMs,
        error: a.error,
      })),
    };
  }

  return {
    async list(): Promise<WebhookEndpoint[]> {
      const rows = await db
        .select()
        .from(webhookEndpoints)
        .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
      const at = now();
      return rows.map((r) => toEndpoint(r, at));
    },

    async get(id: string): Promise<WebhookEndpoint> {
      const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
      if (!row) throw notFound(say.notFound);
      return toEndpoint(row, now());
    },

    /** A new endpoint; its secret is in this answer and nowhere else. */
    async create(actor: AuditActor, input: WebhookEndpointCreate): Promise<WebhookEndpointIssued> {
      await checkUrl(input.url);
      const secret = newWebhookSecret();
      const row = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(webhookEndpoints)
          .values({
            url: input.url,
            description: input.description ?? "",
            eventTypes: input.eventTypes,
            secret,
          })
          .returning();
        await audit(
          tx,
          actor,
          "create",
          made!.id,
          `Added webhook endpoint ${input.url} for ${input.eventTypes.join(", ")}`,
        );
        return made!;
      });
      changed();
      return { endpoint: toEndpoint(row, now()), secret };
    },

    async change(
      actor: AuditActor,
      id: string,
      input: WebhookEndpointChange,
    ): Promise<WebhookEndpoint> {
      if (input.url !== undefined) await checkUrl(input.url);
      const row = await db.transaction(async (tx) => {
        const before = await locked(tx, id);
        const words: string[] = [];
        const set: Partial<typeof webhookEndpoints.$inferInsert> = { updatedAt: now() };
        if (input.url !== undefined && input.url !== before.url) {
          set.url = input.url;
          words.push(`URL ${before.url} → ${input.url}`);
        }
        if (input.description !== undefined && input.description !== before.description) {
          set.description = input.description;
          words.push(`description "${input.description}"`);
        }
        if (
          input.eventTypes !== undefined &&
          input.eventTypes.join(",") !== before.eventTypes.join(",")
        ) {
          set.eventTypes = input.eventTypes;
          words.push(`events ${input.eventTypes.join(", ")}`);
        }
        if (input.enabled !== undefined && input.enabled !== before.enabled) {
          set.enabled = input.enabled;
          set.disabledReason = input.enabled ? null : "admin";
          set.disabledAt = input.enabled ? null : now();
          if (input.enabled) set.consecutiveFailures = 0;
          words.push(input.enabled ? "enabled" : "disabled");
        }
        if (words.length === 0) return before;
        const [after] = await tx
          .update(webhookEndpoints)
          .set(set)
          .where(eq(webhookEndpoints.id, id))
          .returning();
        await audit(
          tx,
          actor,
          "change",
          id,
          `Changed webhook endpoint ${after!.url}: ${words.join("; ")}`,
        );
        return after!;
      });
      changed();
      if (input.enabled) queued();
      return toEndpoint(row, now());
    },

    /** Deletes the endpoint and its delivery log. */
    async remove(actor: AuditActor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const before = await locked(tx, id);
        await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
        await audit(tx, actor, "delete", id, `Deleted webhook endpoint ${before.url}`);
      });
      // Events of no endpoint are of no use any more.
      await db.execute(sql`
        delete from webhook_outbox ev
         where not exists (select 1 from webhook_deliveries d where d.event_id = ev.id)
           and ev.created_at < now() - interval '1 minute'`);
      changed();
    },

    /** A new secret, answered once; the previous one signs too for 24 hours. */
    async rotateSecret(actor: AuditActor, id: string): Promise<WebhookEndpointIssued> {
      const secret = newWebhookSecret();
      const row = await db.transaction(async (tx) => {
        const before = await locked(tx, id);
        const until = new Date(now().getTime() + WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000);
        const [after] = await tx
          .update(webhookEndpoints)
          .set({
            secret,
            previousSecret: before.secret,
            previousSecretUntil: until,
            updatedAt: now(),
          })
          .where(eq(webhookEndpoints.id, id))
          .returning();
        await audit(
          tx,
          actor,
          "rotate-secret",
          id,
          `Rotated the signing secret of webhook endpoint ${before.url}; the previous one signs until ${until.toISOString()}`,
        );
        return after!;
      });
      return { endpoint: toEndpoint(row, now()), secret };
    },

    /** Queues a `webhook.ping` event for this endpoint alone; answers its delivery. */
    async sendTest(actor: AuditActor, id: string): Promise<WebhookDeliveryDetail> {
      const deliveryId = await db.transaction(async (tx) => {
        const endpoint = await locked(tx, id);
        if (!endpoint.enabled) throw conflict(say.testDisabled);
        const eventId = await insertEvent(tx, WEBHOOK_PING_EVENT, { endpointId: id }, id);
        await audit(tx, actor, "test", id, `Sent a test event to webhook endpoint ${endpoint.url}`);
        const [delivery] = await tx
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.eventId, eventId!));
        return delivery!.id;
      });
      queued();
      return delivery(deliveryId);
    },

    async deliveries(q: WebhookDeliveryQuery): Promise<WebhookDeliveryList> {
      const where = and(
        q.endpointId ? eq(webhookDeliveries.endpointId, q.endpointId) : undefined,
        q.status ? eq(webhookDeliveries.status, q.status) : undefined,
      );
      const { rows, total } = await pageOf(
        db,
        selectDeliveries(db)
          .where(where)
          .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)),
        webhookDeliveries,
        where,
        { limit: WEBHOOK_DELIVERY_PAGE, offset: (q.page - 1) * WEBHOOK_DELIVERY_PAGE },
      );
      return {
        deliveries: rows.map(toDelivery),
        page: q.page,
        pageSize: WEBHOOK_DELIVERY_PAGE,
        total,
      };
    },

    delivery: (id: string) => delivery(id),

    /** Events older than 30 days with no delivery pending, deleted with their log; how many. */
    async sweep(): Promise<number> {
      const result = await db.execute(sql`
        delete from webhook_outbox ev
         where ev.created_at < now() - interval '30 days'
           and not exists (select 1 from webhook_deliveries d
                            where d.event_id = ev.id and d.status = 'pending')`);
      return result.rowCount ?? 0;
    },

    /**
     * Sends a delivery again, whatever its status, with the same `webhook-id` and body: back to
     * pending, due now, with a new round of retries.
     */
    async replay(actor: AuditActor, id: string): Promise<WebhookDeliveryDetail> {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .update(webhookDeliveries)
          // A lease still held (being sent right now) is left alone: never two sends at once.
          .set({ status: "pending", nextAttemptAt: sql`now()`, failuresInRound: 0 })
          .where(eq(webhookDeliveries.id, id))
          .returning({ endpointId: webhookDeliveries.endpointId });
        if (!row) throw notFound(say.deliveryNotFound);
        await audit(
          tx,
          actor,
          "replay",
          row.endpointId,
          `Replayed webhook delivery ${messageId(id)}`,
        );
      });
      queued();
      return delivery(id);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
