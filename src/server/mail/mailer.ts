import { createHash } from "node:crypto";
import { type SQL } from "drizzle-orm";
import { sql } from "../db/sql";
import { createTransport } from "nodemailer";
import type PgBoss from "pg-boss";
import type { DbOrTx } from "../db/database";
import { executePrepared } from "../db/prepared";
import { JOB_SCHEMA, type JobQueue } from "../jobs/queue";
import { scrub } from "../logging";
import type { MailContent } from "./layout";

export const MAIL_QUEUE = "mail";

export interface OutgoingMail extends MailContent {
  to: string;
  /**
   * Files to attach, named rather than carried: the job row stays small, and the file is made
   * when the message is sent (`MailerOptions.attachment`), from records that never change.
   */
  attach?: AttachmentRef[];
}

/**
 * A message's job data as the senders see it: `sentAt` is written into the job row once SMTP
 * accepted the message (`markSent`), so an attempt handed out again (its job expired before
 * pg-boss heard it was done) completes without sending it a second time.
 */
type QueuedMail = OutgoingMail & { sentAt?: string };

/** A message's job row as an insert of the caller's own statement (`Mailer.queueSql`). */
export interface QueueInsert {
  insert: SQL;
  queued(): void;
}

/** A token of a message's text and the SQL (text) that stands for it when it is queued. */
export interface MailFill {
  token: string;
  sql: SQL;
}

/** A file a message carries: an issued invoice's PDF. */
export interface AttachmentRef {
  kind: "invoice-pdf";
  id: string;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface Mailer {
  /**
   * Queues the message in PostgreSQL and returns its job id at once; the worker sends it, retrying
   * with growing delays while the SMTP server is unreachable. Never waits for SMTP.
   */
  send(mail: OutgoingMail): Promise<string>;
  /**
   * The transactional outbox: writes the message's job row with the caller's transaction, so it
   * exists (and is sent) only if that transaction commits. `eventKey` names the event that causes
   * it ("order-placed:<id>"): the job id is derived from it, so the same event queues one message
   * however often it is reported.
   */
  sendIn(tx: DbOrTx, mail: OutgoingMail, eventKey: string): Promise<void>;
  /**
   * `sendIn` for a caller that writes in one statement without a transaction (the order path):
   * the insert that queues the message, to run as an entry of that statement's `with`, and
   * `queued`, to call once the statement has run. `fill`: a token in the message replaced by
   * what an SQL expression of that statement answers (the new order's number, taken at its insert).
   */
  queueSql(mail: OutgoingMail, eventKey: string, fill?: MailFill): Promise<QueueInsert>;
  /** Closes the SMTP connections, once the job queue has stopped (no message is being sent). */
  close(): void;
}

export interface MailerOptions {
  /** The store's job queue (`jobs/queue.ts`): the outbox is its "mail" queue. */
  queue: JobQueue;
  /** The SMTP server; when absent the messages are queued and kept, but nothing sends them. */
  smtpUrl: string | undefined;
  from: string;
  /** The first retry's delay; each next one doubles (with jitter). */
  retryDelaySeconds: number;
  retryLimit: number;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  /** Makes a file a message names (an invoice's PDF); a failure is retried like SMTP's. */
  attachment?: (ref: AttachmentRef) => Promise<MailAttachment>;
  /** Told of each message queued and of each failed attempt to send one (the metrics count them). */
  onQueued?: () => void;
  onSendFailed?: () => void;
  /**
   * Told of a recipient the SMTP server refused for good, once its job is failed (the app marks
   * the address as bouncing: email-bounces/service.ts). A failure here is logged, never retried.
   */
  onBounce?: (to: string, refusal: { code: number | undefined; response: string }) => Promise<void>;
  /** How long an SMTP attempt may take; the defaults below (tests shorten them). */
  smtpTimeouts?: Partial<SmtpTimeouts>;
}

/** The bounds on one attempt to send one message; the job's expiry is derived from them. */
export interface SmtpTimeouts {
  /** Opening the TCP connection. */
  connectionMs: number;
  /** The server's greeting, once connected. */
  greetingMs: number;
  /** Silence on the socket (nodemailer's inactivity timeout, renewed by every reply). */
  socketMs: number;
  /**
   * The whole attempt, connection to the server's last reply: the connection is closed and the
   * attempt fails (to be retried) when it is reached. The socket timeout alone cannot bound an
   * attempt, as each reply renews it: a server answering every command after 25 s never hits it.
   */
  messageMs: number;
}

export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = {
  connectionMs: 10_000,
  greetingMs: 10_000,
  socketMs: 30_000,
  messageMs: 60_000,
};

/**
 * How long a mail job may stay active before pg-boss counts it as failed and hands it out again:
 * twice the longest an attempt may take, as a sender holds one message at a time (its job starts
 * when fetched; the second half covers fetching, recording the outcome, a slow database). Were
 * it shorter than an attempt, a message being sent slowly would be sent again by another sender
 * (issue 30, row 4: 10 of 15 messages twice).
 */
export function mailExpireSeconds(timeouts: Partial<SmtpTimeouts> = {}): number {
  const { messageMs } = { ...DEFAULT_SMTP_TIMEOUTS, ...timeouts };
  return Math.max(2, Math.ceil((2 * messageMs) / 1000));
}

/**
 * An SMTP answer that says the message will never be accepted (RFC 5321's 5yz, except 503 "bad
 * sequence of commands", which a new connection can get past: nodemailer's own judgement, its
 * `permanent` flag). Retrying it only repeats the refusal (issue 30, row 9: 550 "no such user"
 * retried 12 times over days).
 */
export function isPermanentSmtpFailure(err: unknown): boolean {
  const { responseCode, permanent } = (err ?? {}) as {
    responseCode?: unknown;
    permanent?: unknown;
  };
  if (typeof permanent === "boolean") return permanent;
  return (
    typeof responseCode === "number" &&
    responseCode >= 500 &&
    responseCode < 600 &&
    responseCode !== 503
  );
}

/** How often an idle worker looks for due messages (a retry's time coming, another process's mail). */
const POLL_SECONDS = 1;
/** Parallel senders in one process. */
const SENDERS = 2;
/**
 * Messages one sender takes per fetch: one. A job's expiry runs from its fetch, so the last of a
 * batch would wait for all the others' attempts within its own expiry; with one, the expiry needs
 * to cover one attempt only (mailExpireSeconds). A sender that sent one asks for the next at once
 * (notifyWorker) rather than after a poll interval, so the pace stays that of SMTP.
 */
const BATCH = 1;

/**
 * The mail outbox: the job queue's "mail" queue in PostgreSQL, and senders that send it through
 * SMTP. Set up on every start of the queue (`JobQueue.setUp`), before it counts as ready: a
 * database that is away when the store starts delays the queue rather than the store.
 */
export function startMailer(opts: MailerOptions): Mailer {
  const timeouts = { ...DEFAULT_SMTP_TIMEOUTS, ...opts.smtpTimeouts };
  const transport = opts.smtpUrl
    ? createTransport({
        url: opts.smtpUrl,
        connectionTimeout: timeouts.connectionMs,
        greetingTimeout: timeouts.greetingMs,
        socketTimeout: timeouts.socketMs,
        dnsTimeout: timeouts.connectionMs,
      })
    : undefined;
  if (!transport) {
    opts.log.warn(
      {},
      "SMTP_URL is not set: mail is queued in PostgreSQL but not sent until it is configured",
    );
  }
  const { queue } = opts;
  /** This process's senders, on the pg-boss started last. */
  let workers: string[] = [];
  queue.setUp(async (boss) => {
    const queueOptions = mailQueueOptions({ ...opts, smtpTimeouts: timeouts });
    await boss.createQueue(MAIL_QUEUE, queueOptions);
    // createQueue leaves a queue that exists as it was: its expiry and retries follow this code.
    await boss.updateQueue(MAIL_QUEUE, queueOptions);
    workers = transport ? await startWorkers(boss, transport) : [];
  });

  async function startWorkers(boss: PgBoss, smtp: NonNullable<typeof transport>) {
    const workers: string[] = [];
    for (let i = 0; i < SENDERS; i++) {
      // Its id is known once work() returns, which is before its first job arrives.
      const worker: { id?: string } = {};
      worker.id = await boss.work<QueuedMail>(
        MAIL_QUEUE,
        { batchSize: BATCH, pollingIntervalSeconds: POLL_SECONDS },
        async (jobs) => {
          for (const job of jobs) await sendOne(boss, smtp, job);
          // One done with: look for the next now rather than after a poll interval.
          if (worker.id && !queue.stopping) boss.notifyWorker(worker.id);
        },
      );
      workers.push(worker.id);
    }
    return workers;
  }

  /**
   * One attempt at one message. Never throws: a temporary failure is handed back for a retry
   * (with its backoff), a permanent refusal fails the job for good; anything going wrong while
   * recording that is logged (pg-boss then fails the job itself, or it expires and is retried).
   */
  async function sendOne(
    boss: PgBoss,
    smtp: NonNullable<typeof transport>,
    job: PgBoss.Job<QueuedMail>,
  ) {
    // Sent by an earlier attempt whose job expired before it was marked done: done now.
    if (job.data.sentAt) return;
    try {
      const attachments = await Promise.all(
        (job.data.attach ?? []).map((ref) => {
          if (!opts.attachment) throw new Error(`no maker of ${ref.kind} attachments`);
          return opts.attachment(ref);
        }),
      );
      await smtp.sendMail({
        from: opts.from,
        to: job.data.to,
        subject: job.data.subject,
        text: job.data.text,
        html: job.data.html,
        ...(attachments.length > 0 ? { attachments } : {}),
        // The same id on every attempt: a receiver can tell a repeat (at-least-once).
        messageId: `<${job.id}@partsworks.mail>`,
        // The whole attempt is bounded, well within the job's expiry (mailExpireSeconds).
        signal: AbortSignal.timeout(timeouts.messageMs),
      });
    } catch (err) {
      try {
        opts.onSendFailed?.();
        if (isPermanentSmtpFailure(err)) {
          const { responseCode, response } = err as { responseCode?: number; response?: string };
          // The job id, and the server's answer with any address taken out: no personal data.
          opts.log.warn(
            { job: job.id, responseCode, response: scrub(String(response ?? "")) },
            "mail refused for good by the SMTP server: not retried",
          );
          await failForGood(boss, job.id, `${responseCode ?? ""} ${scrub(String(response ?? ""))}`);
          await tellBounce(job, { code: responseCode, response: String(response ?? "") });
        } else {
          opts.log.warn({ err, job: job.id }, "mail not sent yet: it will be retried");
          await boss.fail(MAIL_QUEUE, job.id, {
            message: scrub(err instanceof Error ? err.message : String(err)),
          });
        }
      } catch (recordErr) {
        opts.log.error(
          { err: recordErr, job: job.id },
          "could not record a failed mail attempt: pg-boss retries it when its job expires",
        );
      }
      return;
    }
    await markSent(boss, job.id);
  }

  /**
   * Writes into the job's row that its message went, before pg-boss marks the job done: should
   * the job expire first (a slow database, a stalled process), its next attempt finds `sentAt`
   * and sends nothing. Never throws: unmarked, the message is at worst sent again (at-least-once,
   * with the same Message-ID).
   */
  async function markSent(boss: PgBoss, jobId: string) {
    try {
      await boss.getDb().executeSql(
        `update ${JOB_SCHEMA}.job set data = data || jsonb_build_object('sentAt', now())
           where name = $1 and id = $2`,
        [MAIL_QUEUE, jobId],
      );
    } catch (err) {
      opts.log.error({ err, job: jobId }, "could not mark a sent mail as sent");
    }
  }

  /** Passes a permanent refusal on (onBounce); never throws: the mail loop carries on. */
  async function tellBounce(
    job: PgBoss.Job<OutgoingMail>,
    refusal: { code: number | undefined; response: string },
  ) {
    if (!opts.onBounce) return;
    try {
      await opts.onBounce(job.data.to, refusal);
    } catch (err) {
      opts.log.error({ err, job: job.id }, "could not mark a refused address as bouncing");
    }
  }

  /** Fails the job with no retry left: its retry limit is set to the retries it has had. */
  async function failForGood(boss: PgBoss, jobId: string, message: string) {
    await boss.getDb().executeSql(
      `update ${JOB_SCHEMA}.job set retry_limit = retry_count
         where name = $1 and id = $2 and state = 'active'`,
      [MAIL_QUEUE, jobId],
    );
    await boss.fail(MAIL_QUEUE, jobId, { message, permanent: true });
  }

  /** `Mailer.queueSql`: pg-boss's insert of the message's job row, built but not run. */
  async function queueSql(
    mail: OutgoingMail,
    eventKey: string,
    fill?: MailFill,
  ): Promise<QueueInsert> {
    const boss = await queue.ready();
    // pg-boss builds its insert and hands it to `executeSql`, which keeps it instead of running
    // it; the row it would answer is the job's id, known already (the event's).
    const id = eventUuid(eventKey);
    let insert: SQL | undefined;
    await boss.send(MAIL_QUEUE, mail, {
      id,
      db: {
        executeSql: async (text, values) => {
          insert = pgBossSql(text, values ?? [], fill);
          return { rows: [{ id }] };
        },
      },
    });
    if (!insert) throw new Error("the mail queue built no insert");
    return { insert, queued: () => opts.onQueued?.() };
  }

  return {
    async sendIn(tx, mail, eventKey) {
      // Named, as the rest of the order's statements (db/prepared.ts). When this event's message
      // is queued already (a repeat), it inserts nothing, which is what we want.
      const { insert, queued } = await queueSql(mail, eventKey);
      await executePrepared(tx, insert);
      queued();
      // The worker finds it at its next poll (a second at most), after the commit.
    },
    queueSql,
    async send(mail) {
      const boss = await queue.ready();
      const id = await boss.send(MAIL_QUEUE, mail);
      if (!id) throw new Error("the mail queue refused the message");
      opts.onQueued?.();
      // Wake a worker of this process now rather than at its next poll.
      for (const w of workers) boss.notifyWorker(w);
      return id;
    },
    close() {
      transport?.close();
    },
  };
}

/** The mail queue's settings (the restore of a backup creates the queue with them too). */
export function mailQueueOptions(opts: {
  retryLimit: number;
  retryDelaySeconds: number;
  smtpTimeouts?: Partial<SmtpTimeouts>;
}) {
  return {
    name: MAIL_QUEUE,
    retryLimit: opts.retryLimit,
    retryDelay: opts.retryDelaySeconds,
    retryBackoff: true,
    // An active job older than this counts as failed and is handed out again: longer than any
    // attempt can take (mailExpireSeconds), so a slow attempt is never doubled.
    expireInSeconds: mailExpireSeconds(opts.smtpTimeouts),
    // Sent and failed messages are kept a week for inspection, then deleted.
    retentionDays: 7,
  };
}

/** A UUID made from an event's name (the same name, the same id): pg-boss's job id. */
export function eventUuid(eventKey: string): string {
  const h = createHash("sha256").update(`partsworks-mail:${eventKey}`).digest("hex");
  // Shaped as a version-8 (custom) UUID, variant 10xx.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * pg-boss's statement ($1, $2… placeholders) as a drizzle query, so it runs on the caller's
 * transaction: the text between placeholders is pg-boss's own, the values go as parameters.
 * pg-boss sends the same few texts every time: each is split once.
 */
function pgBossSql(text: string, values: unknown[], fill?: MailFill): SQL {
  let parsed = pgBossTexts.get(text);
  if (!parsed) {
    const parts = text.split(/\$(\d+)/);
    parsed = {
      texts: parts.filter((_, i) => i % 2 === 0).map((part) => sql.raw(part)),
      slots: parts.filter((_, i) => i % 2 === 1).map((n) => Number(n) - 1),
    };
    pgBossTexts.set(text, parsed);
  }
  const chunks: SQL[] = [parsed.texts[0]!];
  // The message is pg-boss's `data` (an object the driver sends as JSON): the token is replaced
  // in that JSON text, by digits here, so it stays valid JSON.
  const value = (v: unknown): SQL => {
    const json = fill && v !== null && typeof v === "object" ? JSON.stringify(v) : "";
    return fill && json.includes(fill.token)
      ? sql`replace(${json}::text, ${fill.token}, ${fill.sql})`
      : sql`${v ?? null}`;
  };
  parsed.slots.forEach((slot, i) => chunks.push(value(values[slot]), parsed.texts[i + 1]!));
  return sql.join(chunks);
}

const pgBossTexts = new Map<string, { texts: SQL[]; slots: number[] }>();
