import { createJobQueue } from "../../src/server/jobs/queue";
import { startMailer, type Mailer, type MailerOptions } from "../../src/server/mail/mailer";

/**
 * A mailer on a job queue of its own, as the app makes them (`app.ts`), for tests of the outbox
 * without the app; `stop` stops the queue (a message being sent finishes first), then SMTP.
 */
export function startQueuedMailer(
  opts: Omit<MailerOptions, "queue"> & { databaseUrl: string },
): Mailer & { stop(): Promise<void> } {
  const { databaseUrl, ...mailerOptions } = opts;
  const queue = createJobQueue({ databaseUrl, log: opts.log });
  const mailer = startMailer({ ...mailerOptions, queue });
  queue.start();
  return {
    ...mailer,
    async stop() {
      await queue.stop();
      mailer.close();
    },
  };
}
