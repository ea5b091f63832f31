import type { FastifyPluginAsync } from "fastify";
import type { LocalSmtpServer, ReceivedMessage } from "./local-smtp";
import { escapeHtml } from "./layout";

export interface MailboxRoutesOptions {
  smtp: LocalSmtpServer;
}

const summary = (m: ReceivedMessage) => ({
  id: m.id,
  receivedAt: m.receivedAt,
  from: m.from,
  to: m.to,
  subject: m.subject,
});

/** The addresses a message links to (from its plain-text version), in order, once each. */
export function linksIn(m: ReceivedMessage): string[] {
  return [...new Set(m.text.match(/https?:\/\/[^\s<>"]+/g) ?? [])];
}

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)} · PartsWorks demo mailbox</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<style>
body{font-family:system-ui,Arial,sans-serif;margin:0;background:#f3f4f6;color:#111827}
header{background:#111827;color:#fff;padding:12px 24px}header a{color:#fff}
main{max-width:960px;margin:0 auto;padding:24px}
table{width:100%;border-collapse:collapse;background:#fff}
th,td{text-align:left;padding:8px 12px;border-bottom:1px solid #e5e7eb;font-size:14px}
pre{white-space:pre-wrap;background:#fff;padding:16px;border:1px solid #e5e7eb}
dt{font-weight:600}dd{margin:0 0 8px}
</style></head>
<body><header><strong>PartsWorks</strong> · demo mailbox (not present in production) · <a href="/dev/mailbox">all messages</a> · <a href="/">store</a></header>
<main>${body}</main></body></html>
`;

/**
 * The demo mailbox: what the local SMTP server received, newest first. Registered only when that
 * server runs (no SMTP_URL, not production); the API under /api/dev, the pages under /dev.
 */
export const mailboxRoutes: FastifyPluginAsync<MailboxRoutesOptions> = async (app, { smtp }) => {
  app.get("/api/dev/mailbox", { schema: { hide: true } }, async (_req, reply) =>
    reply.header("cache-control", "no-store").send(smtp.messages().map(summary)),
  );
  app.get<{ Params: { id: string } }>(
    "/api/dev/mailbox/:id",
    { schema: { hide: true } },
    async (req, reply) => {
      const m = smtp.message(req.params.id);
      if (!m) return reply.code(404).send({ error: "not_found", message: "No such message" });
      return reply.header("cache-control", "no-store").send({ ...m, links: linksIn(m) });
    },
  );

  app.get("/dev/mailbox", { schema: { hide: true } }, async (_req, reply) => {
    const rows = smtp
      .messages()
      .map(
        (m) =>
          `<tr><td>${escapeHtml(new Date(m.receivedAt).toLocaleString("en-GB", { timeZone: "UTC" }))} UTC</td><td>${escapeHtml(m.to.join(", "))}</td><td><a href="/dev/mailbox/${encodeURIComponent(m.id)}">${escapeHtml(m.subject || "(no subject)")}</a></td></tr>`,
      )
      .join("\n");
    const body =
      rows.length > 0
        ? `<h1>Mailbox</h1><table><thead><tr><th>Received</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table>`
        : `<h1>Mailbox</h1><p>No messages yet. Mail the store sends (password reset, email verification) appears here.</p>`;
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .send(page("Mailbox", body));
  });

  app.get<{ Params: { id: string } }>(
    "/dev/mailbox/:id",
    { schema: { hide: true } },
    async (req, reply) => {
      const m = smtp.message(req.params.id);
      if (!m) {
        return reply
          .code(404)
          .type("text/html; charset=utf-8")
          .send(page("Not found", "<h1>No such message</h1>"));
      }
      const links = linksIn(m)
        .map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`)
        .join("");
      const body = `<h1>${escapeHtml(m.subject || "(no subject)")}</h1>
<dl><dt>From</dt><dd>${escapeHtml(m.from)}</dd><dt>To</dt><dd>${escapeHtml(m.to.join(", "))}</dd><dt>Received</dt><dd>${escapeHtml(m.receivedAt)}</dd></dl>
${links ? `<h2>Links in this message</h2><ul>${links}</ul>` : ""}
${m.html ? `<p><a href="/dev/mailbox/${encodeURIComponent(m.id)}/html">Open the HTML version</a></p>` : ""}
${m.attachments.length > 0 ? `<h2>Attachments</h2><ul>${m.attachments.map((a) => `<li>${escapeHtml(a.filename)} (${escapeHtml(a.contentType)}, ${a.size} bytes)</li>`).join("")}</ul>` : ""}
<h2>Plain-text version</h2><pre>${escapeHtml(m.text)}</pre>`;
      return reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .send(page(m.subject, body));
    },
  );

  // The message's own HTML as the recipient's mail program would show it; no script runs in it.
  app.get<{ Params: { id: string } }>(
    "/dev/mailbox/:id/html",
    { schema: { hide: true } },
    async (req, reply) => {
      const m = smtp.message(req.params.id);
      if (!m?.html) return reply.code(404).type("text/plain").send("No such message");
      return reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .header(
          "content-security-policy",
          "default-src 'none'; style-src 'unsafe-inline'; img-src data: https: http:; frame-ancestors 'none'",
        )
        .send(m.html);
    },
  );
};
