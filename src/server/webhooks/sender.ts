import http from "node:http";
import https from "node:https";
import { sql } from "../db/sql";
import type { Db } from "../db/database";
import type { Mailer } from "../mail/mailer";
import { mailAdmins } from "../users/admins";
import { endpointDisabledMail } from "./mail";
import { postWebhook, type PostResult } from "./post";
import { messageId, retryDelayMs, signedHeaders } from "./signing";

/** Deliveries in a row that failed for good before the store disables their endpoint. */
export const DISABLE_AFTER_FAILED_DELIVERIES = 5;

export interface SenderOptions {
  allowPrivateAddresses: boolean;
  mailer: Pick<Mailer, "sendIn">;
  publicUrl: string;
  log: { warn(obj: object, msg: string): void };
  /** Each HTTP call, at most (default 10 s). */
  timeoutMs?: number;
  /** The fallback poll when no NOTIFY came (default 1 s). */
  pollMs?: number;
  /** Deliveries claimed per statement (default 100). */
  batch?: number;
  /** Deliveries claimed and not finished yet, at most (default 1,000). */
  maxInFlight?: number;
  disableAfter?: number;
}

interface Claimed {
  id: string;
  endpointId: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  body: string;
  failuresInRound: number;
  leaseUntil: number;
}

/** How long a claim keeps other processes off a delivery. */
const LEASE_MS = 5 * 60_000;

/**
 * Sends the outbox (docs/webhooks.md): every process runs one sender, woken by the deliveries'
 * NOTIFY (sent at the commit of the transaction that wrote them) and polling as a fallback. Due
 * deliveries are claimed with `FOR UPDATE SKIP LOCKED` and a lease (`locked_until`), so two
 * processes never send one delivery at once, then posted outside any transaction: each endpoint's
 * in the order they were written, one at a time, endpoints side by side (a slow endpoint delays
 * only its own). Each attempt is logged; a failure is retried on the schedule of `signing.ts`;
 * an endpoint whose deliveries fail for good `disableAfter` times in a row is disabled and every
 * admin gets an email.
 */
export function createWebhookSender(db: Db, opts: SenderOptions) {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const pollMs = opts.pollMs ?? 1_000;
  const batch = opts.batch ?? 100;
  const maxInFlight = opts.maxInFlight ?? 1_000;
  const disableAfter = opts.disableAfter ?? DISABLE_AFTER_FAILED_DELIVERIES;

  const lanes = new Map<string, Claimed[]>();
  // Connections kept open between deliveries (each new one is checked as it connects).
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 8 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 8 }),
  };
  let inFlight = 0;
  let draining: Promise<void> | undefined;
  let again = false;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;

  async function claim(limit: number): Promise<Claimed[]> {
    const result = await db.execute<{
      id: string;
      endpoint_id: string;
      url: string;
      secret: string;
      previous_secret: string | null;
      body: string;
      failures_in_round: number;
      lease_until: Date;
    }>(sql`
      update webhook_deliveries d
         set locked_until = now() + make_interval(secs => ${LEASE_MS / 1000})
        from (
          select w.id from webhook_deliveries w
            join webhook_endpoints e on e.id = w.endpoint_id and e.enabled
           where w.status = 'pending' and w.next_attempt_at <= now()
             and (w.locked_until is null or w.locked_until < now())
           order by w.next_attempt_at, w.created_at, w.id
           limit ${limit}
             for update of w skip locked
        ) due, webhook_endpoints e, webhook_outbox ev
       where d.id = due.id and e.id = d.endpoint_id and ev.id = d.event_id
      returning d.id, d.endpoint_id, e.url, e.secret,
        case when e.previous_secret_until > now() then e.previous_secret end as previous_secret,
        ev.body, d.failures_in_round, d.locked_until as lease_until, d.next_attempt_at, d.created_at`);
    // RETURNING keeps no order: the lanes send in the order written.
    return result.rows
      .map((r) => ({
        ...(r as unknown as { next_attempt_at: Date; created_at: Date }),
        id: r.id,
        endpointId: r.endpoint_id,
        url: r.url,
        secret: r.secret,
        previousSecret: r.previous_secret,
        body: r.body,
        failuresInRound: r.failures_in_round,
        leaseUntil: new Date(r.lease_until).getTime(),
      }))
      .sort(
        (a, b) =>
          new Date(a.next_attempt_at).getTime() - new Date(b.next_attempt_at).getTime() ||
          new Date(a.created_at).getTime() - new Date(b.created_at).getTime(),
      )
      .map(({ next_attempt_at: _n, created_at: _c, ...rest }) => rest as Claimed);
  }

  /**
   * The attempt logged and the delivery moved on. A success or a retry is one statement (its own
   * transaction); a delivery failed for good takes a transaction, with its endpoint's count.
   */
  async function record(d: Claimed, headers: Record<string, string>, r: PostResult) {
    const ok = r.error === null;
    const failures = ok ? 0 : d.failuresInRound + 1;
    const delay = ok ? undefined : retryDelayMs(failures);
    const status = ok ? "succeeded" : delay === undefined ? "failed" : "pending";
    const statement = sql`
      with attempt as (
        insert into webhook_attempts
          (delivery_id, request_headers, response_status, response_body, duration_ms, error)
        values (${d.id}, ${JSON.stringify(headers)}::jsonb, ${r.status}, ${r.body},
          ${r.durationMs}, ${r.error})
      ), delivery as (
        update webhook_deliveries set
          status = ${status},
          attempts = attempts + 1,
          failures_in_round = ${failures},
          next_attempt_at = ${
            status === "pending" ? sql`now() + make_interval(secs => ${delay! / 1000})` : sql`null`
          },
          locked_until = null,
          last_response_status = ${r.status},
          last_duration_ms = ${r.durationMs},
          last_error = ${r.error},
          delivered_at = ${ok ? sql`now()` : sql`delivered_at`}
        where id = ${d.id}
      )
      ${
        ok
          ? sql`update webhook_endpoints set consecutive_failures = 0
                 where id = ${d.endpointId} and consecutive_failures > 0`
          : sql`select 1`
      }`;
    if (status !== "failed") {
      await db.execute(statement);
      return;
    }
    await db.transaction(async (tx) => {
      await tx.execute(statement);
      await failedForGood(tx, d, r.error);
    });
  }

  async function failedForGood(
    tx: Parameters<Parameters<Db["transaction"]>[0]>[0],
    d: Claimed,
    error: string | null,
  ) {
    const [endpoint] = (
      await tx.execute<{ consecutive_failures: number; enabled: boolean; url: string }>(sql`
        update webhook_endpoints set consecutive_failures = consecutive_failures + 1
         where id = ${d.endpointId}
        returning consecutive_failures, enabled, url`)
    ).rows;
    if (!endpoint || !endpoint.enabled || endpoint.consecutive_failures < disableAfter) return;
    const disabled = await tx.execute<{ disabled_at: Date }>(sql`
      update webhook_endpoints
         set enabled = false, disabled_reason = 'failing', disabled_at = now(), updated_at = now()
       where id = ${d.endpointId} and enabled
      returning disabled_at`);
    const at = disabled.rows[0]?.disabled_at;
    if (!at) return;
    await mailAdmins(
      tx,
      opts.mailer,
      (admin) =>
        endpointDisabledMail({
          name: admin.name,
          url: endpoint.url,
          failures: endpoint.consecutive_failures,
          lastError: error,
          publicUrl: opts.publicUrl,
        }),
      (admin) => `webhook-disabled:${d.endpointId}:${new Date(at).toISOString()}:${admin.id}`,
    );
  }

  /**
   * Posts one delivery; answers the recording of its result, which the caller need not wait for
   * before posting the endpoint's next (they are in order already).
   */
  async function deliver(d: Claimed): Promise<{ recorded: Promise<void> }> {
    // A claim that sat too long behind a slow endpoint is left to whoever claims it next.
    if (Date.now() + timeoutMs + 5_000 > d.leaseUntil) return { recorded: Promise.resolve() };
    const secrets = d.previousSecret ? [d.secret, d.previousSecret] : [d.secret];
    const headers = signedHeaders(secrets, messageId(d.id), Math.floor(Date.now() / 1000), d.body);
    const result = await postWebhook(d.url, headers, d.body, {
      timeoutMs,
      allowPrivate: opts.allowPrivateAddresses,
      agents,
    });
    return {
      recorded: record(d, headers, result).catch((err: unknown) => {
        // The lease ends and the delivery is sent again: at least once, never lost.
        opts.log.warn({ err, delivery: d.id }, "webhook delivery result not recorded");
      }),
    };
  }

  async function runLane(endpointId: string) {
    const queue = lanes.get(endpointId)!;
    const recording = new Set<Promise<void>>();
    try {
      for (;;) {
        const d = queue.shift();
        if (!d) {
          // Done once nothing is left to post nor to record (more may be claimed meanwhile).
          if (recording.size === 0) break;
          await Promise.race(recording);
          continue;
        }
        try {
          const recorded = (await deliver(d)).recorded.finally(() => {
            recording.delete(recorded);
            inFlight--;
          });
          recording.add(recorded);
          // A few results may be written while the next ones are posted, not more.
          if (recording.size >= 16) await Promise.race(recording);
        } catch (err) {
          inFlight--;
          opts.log.warn({ err, delivery: d.id }, "webhook delivery not sent");
        }
      }
    } finally {
      lanes.delete(endpointId);
      // Room again, and maybe more due.
      wake();
    }
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      while (!stopped && inFlight < maxInFlight) {
        const claimed = await claim(Math.min(batch, maxInFlight - inFlight));
        for (const d of claimed) {
          inFlight++;
          const lane = lanes.get(d.endpointId);
          if (lane) lane.push(d);
          else {
            lanes.set(d.endpointId, [d]);
            void runLane(d.endpointId);
          }
        }
        if (claimed.length < batch) break;
      }
    } while (again && !stopped);
  }

  function wake(): void {
    if (stopped) return;
    if (draining) {
      again = true;
      return;
    }
    draining = drain()
      .catch((err: unknown) => opts.log.warn({ err }, "webhook sender could not claim deliveries"))
      .finally(() => {
        draining = undefined;
        if (again) wake();
      });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setInterval(wake, pollMs).unref();
      wake();
    },
    /** A NOTIFY said deliveries are due (or an admin replayed one). */
    wake,
    /**
     * Stops claiming; waits 2 seconds at most for what is being sent (a delivery whose result is
     * not recorded is sent again once its lease ends: at least once).
     */
    async stop() {
      stopped = true;
      clearInterval(timer);
      const deadline = Date.now() + 2_000;
      agents.http.destroy();
      agents.https.destroy();
      while ((draining || inFlight > 0) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    /** Claims and sends what is due now, once, and waits for it (tests, the benchmark). */
    async drainOnce(): Promise<void> {
      const claimed = await claim(batch);
      for (const d of claimed) {
        inFlight++;
        try {
          await await deliver(d);
        } finally {
          inFlight--;
        }
      }
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
