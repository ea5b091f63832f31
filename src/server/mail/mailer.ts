import { createTransport } from "nodemailer";
import PgBoss from "pg-boss";
import { unavailable } from "../errors";
import type { MailContent } from "./templates";

export const MAIL_QUEUE = "mail";
/** pg-boss keeps its tables in a schema of its own (not a drizzle migration of ours). */
export const MAIL_SCHEMA = "pgboss";

export interface OutgoingMail extends MailContent {
  to: string;
}

export interface Mailer {
  /**
   * Queues the message in PostgreSQL and returns its job id at once; the worker sends it, retrying
   * with growing delays while the SMTP server is unreachable. Never waits for SMTP.
   */
  send(mail: OutgoingMail): Promise<string>;
  /** Stops the worker (a message being sent finishes first) and closes the queue's connections. */
  stop(): Promise<void>;
}

export interface MailerOptions {
  databaseUrl: string;
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
  /** Told of each message queued and of each failed attempt to send one (the metrics count them). */
  onQueued?: () => void;
  onSendFailed?: () => void;
}

/** How often an idle worker looks for due messages (a retry's time coming, another process's mail). */
const POLL_SECONDS = 1;
/** Parallel senders in one process. */
const SENDERS = 2;

/** How long `send` waits for the queue when it is still starting (the database was away). */
const READY_TIMEOUT_MS = 5_000;

/**
 * The mail outbox: a pg-boss queue in PostgreSQL, and a worker that sends it through SMTP. Starts
 * in the background: a database that is away when the store starts delays the queue (retried
 * with backoff) rather than the store.
 */
export function startMailer(opts: MailerOptions): Mailer {
  const transport = opts.smtpUrl
    ? createTransport({
        url: opts.smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      })
    : undefined;
  if (!transport) {
    opts.log.warn(
      {},
      "SMTP_URL is not set: mail is queued in PostgreSQL but not sent until it is configured",
    );
  }
  let stopping = false;
  let retryTimer: NodeJS.Timeout | undefined;
  /** Ends the wait before the next start attempt (stop() calls it). */
  let wake = () => {};
  const queue = startQueue();

  /** A started queue with its workers; a failed start is retried with a fresh pg-boss. */
  async function startQueue(attempt = 0): Promise<{ boss: PgBoss; workers: string[] }> {
    const boss = new PgBoss({
      connectionString: opts.databaseUrl,
      schema: MAIL_SCHEMA,
      max: 4,
      application_name: "partsworks-mail",
      // No cron jobs here: the clock monitor and cron workers stay off.
      schedule: false,
    });
    boss.on("error", (err) => opts.log.error({ err }, "mail queue error"));
    try {
      await boss.start();
      await boss.createQueue(MAIL_QUEUE, {
        name: MAIL_QUEUE,
        retryLimit: opts.retryLimit,
        retryDelay: opts.retryDelaySeconds,
        retryBackoff: true,
        // One attempt may take this long (a slow SMTP server) before it counts as failed.
        expireInSeconds: 120,
        // Sent and failed messages are kept a week for inspection, then deleted.
        retentionDays: 7,
      });
      const workers = transport ? await startWorkers(boss, transport) : [];
      return { boss, workers };
    } catch (err) {
      // A failed pg-boss cannot be started again: the next attempt makes a new one.
      void boss.stop({ graceful: false, wait: false }).catch(() => {});
      if (stopping) throw err;
      const delayMs = Math.min(30_000, 1_000 * 2 ** attempt);
      opts.log.warn({ err, retryInMs: delayMs }, "mail queue not started: retrying");
      await new Promise<void>((resolve) => {
        wake = resolve;
        retryTimer = setTimeout(resolve, delayMs);
        retryTimer.unref();
      });
      if (stopping) throw err;
      return startQueue(attempt + 1);
    }
  }

  async function startWorkers(boss: PgBoss, smtp: NonNullable<typeof transport>) {
    const workers: string[] = [];
    for (let i = 0; i < SENDERS; i++) {
      workers.push(
        await boss.work<OutgoingMail>(
          MAIL_QUEUE,
          { batchSize: 1, pollingIntervalSeconds: POLL_SECONDS },
          async (jobs) => {
            for (const job of jobs) {
              try {
                await smtp.sendMail({
                  from: opts.from,
                  to: job.data.to,
                  subject: job.data.subject,
                  text: job.data.text,
                  html: job.data.html,
                  // The same id on every attempt: a receiver can tell a repeat (at-least-once).
                  messageId: `<${job.id}@partsworks.mail>`,
                });
              } catch (err) {
                opts.onSendFailed?.();
                // The job id, not the address: logs carry no personal data.
                opts.log.warn({ err, job: job.id }, "mail not sent yet: it will be retried");
                throw err;
              }
            }
          },
        ),
      );
    }
    return workers;
  }

  return {
    async send(mail) {
      let timer: NodeJS.Timeout | undefined;
      const { boss, workers } = await Promise.race([
        queue,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(unavailable()), READY_TIMEOUT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      const id = await boss.send(MAIL_QUEUE, mail);
      if (!id) throw new Error("the mail queue refused the message");
      opts.onQueued?.();
      // Wake a worker of this process now rather than at its next poll.
      for (const w of workers) boss.notifyWorker(w);
      return id;
    },
    async stop() {
      stopping = true;
      clearTimeout(retryTimer);
      wake();
      const started = await queue.catch(() => undefined);
      await started?.boss.stop({ graceful: true, wait: true, timeout: 15_000 });
      transport?.close();
    },
  };
}
