import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** One message the local SMTP server received, as the mailbox page shows it. */
export interface ReceivedMessage {
  id: string;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | undefined;
  /** Files the message carries (an invoice's PDF), their content in base64. */
  attachments: { filename: string; contentType: string; size: number; content: string }[];
}

export interface LocalSmtpServer {
  /** `smtp://127.0.0.1:<port>`, for nodemailer. */
  url: string;
  port: number;
  /** Newest first. */
  messages(): readonly ReceivedMessage[];
  message(id: string): ReceivedMessage | undefined;
  stop(): Promise<void>;
}

/** How many messages the mailbox keeps (the oldest go first). */
const KEEP = 500;
/** Larger messages are refused: nothing the store sends comes near. */
const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

/**
 * Recipients it refuses for good, as a real server refuses an address that does not exist:
 * those under the reserved `.invalid` top-level domain (RFC 2606), which no mail can reach. The
 * demo can show an address that bounces (docs/email-bounces.md).
 */
export const REFUSED_DOMAIN = /\.invalid$/i;

/**
 * A small SMTP server on loopback that keeps what it receives in memory: the store's mail goes
 * here in the demo set-up and in tests (no SMTP_URL), and /dev/mailbox shows it. Addresses under
 * `.invalid` are refused with 550 (REFUSED_DOMAIN). Never used in production.
 */
export async function startLocalSmtpServer(opts: { port?: number } = {}): Promise<LocalSmtpServer> {
  const received: ReceivedMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!REFUSED_DOMAIN.test(address.address)) return callback();
      const refusal = Object.assign(
        new Error(`5.1.2 <${address.address}>: Recipient address rejected: domain does not exist`),
        { responseCode: 550 },
      );
      callback(refusal);
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          received.unshift({
            id: randomUUID(),
            receivedAt: new Date().toISOString(),
            from:
              parsed.from?.text ??
              (session.envelope.mailFrom ? session.envelope.mailFrom.address : ""),
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : undefined,
            attachments: parsed.attachments.map((a) => ({
              filename: a.filename ?? "",
              contentType: a.contentType,
              size: a.size,
              content: a.content.toString("base64"),
            })),
          });
          received.length = Math.min(received.length, KEEP);
          callback();
        },
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", () => {});
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages: () => received,
    message: (id) => received.find((m) => m.id === id),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
