import type { FastifyInstance } from "fastify";

export interface MailboxMessage {
  id: string;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  links: string[];
  attachments: { filename: string; contentType: string; size: number; content: string }[];
}

/** Polls `check` until it returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every message the app's local SMTP server received for `to`, newest first, in full. */
export async function messagesFor(app: FastifyInstance, to: string): Promise<MailboxMessage[]> {
  const list = await app.inject({ method: "GET", url: "/api/dev/mailbox" });
  if (list.statusCode !== 200) throw new Error(`mailbox: ${list.statusCode}`);
  const mine = (list.json() as { id: string; to: string[] }[]).filter((m) =>
    m.to.includes(to.toLowerCase()),
  );
  return Promise.all(
    mine.map(
      async (m) =>
        (
          await app.inject({ method: "GET", url: `/api/dev/mailbox/${m.id}` })
        ).json() as MailboxMessage,
    ),
  );
}

/** Waits for the newest message to `to` whose subject matches. */
export function waitForMail(
  app: FastifyInstance,
  to: string,
  subject: RegExp,
): Promise<MailboxMessage> {
  return eventually(
    async () => (await messagesFor(app, to)).find((m) => subject.test(m.subject)),
    `a message to ${to} about ${subject}`,
  );
}
