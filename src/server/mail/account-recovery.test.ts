import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { cookieHeader, signIn, signUp } from "../../../tests/support/accounts";
import { eventually, messagesFor, waitForMail } from "../../../tests/support/mailbox";
import { createTestApp, type TestApp } from "../../../tests/support/test-app";
import { appForTests } from "../../../tests/support/store";
import { startSilentSmtp } from "../../../tests/support/test-smtp";
import { getFreePort } from "../db/free-port";
import { startLocalSmtpServer } from "./local-smtp";
import { MAIL_QUEUE } from "./mailer";

const PUBLIC_URL = "http://shop.example.test:8080";
const limits = { AUTH_RATE_LIMIT_PER_IP: "1000", AUTH_RATE_LIMIT_PER_EMAIL: "100" };

const { t } = appForTests({ env: { PUBLIC_URL, ...limits } });

const session = (app: TestApp, cookie: string) =>
  app.app.inject({ method: "GET", url: "/api/auth/get-session", headers: { cookie } });
const post = (app: TestApp, url: string, payload: object, cookie?: string) =>
  app.app.inject({ method: "POST", url, payload, headers: cookie ? { cookie } : {} });
/** The link's path and query, to inject into the app (the link itself is on PUBLIC_URL). */
const local = (link: string) => {
  const u = new URL(link);
  return `${u.pathname}${u.search}`;
};

test("forgot password: a single-use emailed link sets a new password and ends every session", async () => {
  const a = await signUp(t.app);
  const second = await signIn(t.app, a.email, a.password);

  const asked = await post(t, "/api/auth/request-password-reset", { email: a.email });
  expect(asked.statusCode).toBe(200);

  const mail = await waitForMail(t.app, a.email, /reset your partsworks password/i);
  expect(mail.from).toContain("PartsWorks");
  const link = mail.links.find((l) => l.includes("/reset-password"));
  expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/reset-password\\?token=[\\w-]+$`));
  expect(mail.html).toContain("PartsWorks");
  expect(mail.html).toContain(link!.replaceAll("&", "&amp;"));
  expect(mail.text).toContain(link);
  const token = new URL(link!).searchParams.get("token")!;

  const reset = await post(t, "/api/auth/reset-password", { token, newPassword: "brand-new-77" });
  expect(reset.statusCode).toBe(200);

  // Every session of the account ended.
  expect((await session(t, a.cookie)).json()).toBeNull();
  expect((await session(t, second)).json()).toBeNull();
  // Our own routes (their session reader) refuse the old cookie too.
  const user = await t.app.inject({ method: "GET", url: "/api/user", headers: { cookie: second } });
  expect(user.statusCode).toBe(401);
  // The old password no longer works, the new one does.
  await expect(signIn(t.app, a.email, a.password)).rejects.toThrow(/401/);
  const fresh = await signIn(t.app, a.email, "brand-new-77");
  expect((await session(t, fresh)).json().user.email).toBe(a.email);
  // The link works once.
  const again = await post(t, "/api/auth/reset-password", { token, newPassword: "third-one-88" });
  expect(again.statusCode).toBe(400);
  expect(again.json()).toMatchObject({ error: "invalid_token" });
  await expect(signIn(t.app, a.email, "third-one-88")).rejects.toThrow(/401/);
  // The account is told its password changed.
  await waitForMail(t.app, a.email, /password was changed/i);
});

test("a reset request for an unknown address gets the same answer as for a known one", async () => {
  const a = await signUp(t.app);
  const known = await post(t, "/api/auth/request-password-reset", { email: a.email });
  const unknown = await post(t, "/api/auth/request-password-reset", {
    email: "nobody-at-all@example.com",
  });
  expect(unknown.statusCode).toBe(known.statusCode);
  expect(unknown.json()).toEqual(known.json());
});

test("a made-up or short reset is refused", async () => {
  const bad = await post(t, "/api/auth/reset-password", {
    token: "not-a-real-token",
    newPassword: "whatever-123",
  });
  expect(bad.statusCode).toBe(400);
  const a = await signUp(t.app);
  await post(t, "/api/auth/request-password-reset", { email: a.email });
  const mail = await waitForMail(t.app, a.email, /reset your partsworks password/i);
  const token = new URL(mail.links.find((l) => l.includes("/reset-password"))!).searchParams.get(
    "token",
  )!;
  const short = await post(t, "/api/auth/reset-password", { token, newPassword: "12345" });
  expect(short.statusCode).toBe(400);
  // A refused attempt does not use the link up.
  expect(
    (await post(t, "/api/auth/reset-password", { token, newPassword: "long-enough-1" })).statusCode,
  ).toBe(200);
});

test("change password needs the current password and ends the other sessions", async () => {
  const a = await signUp(t.app);
  const other = await signIn(t.app, a.email, a.password);

  const wrong = await post(
    t,
    "/api/auth/change-password",
    { currentPassword: "not-my-password", newPassword: "changed-456", revokeOtherSessions: true },
    a.cookie,
  );
  expect(wrong.statusCode).toBe(400);
  expect(wrong.json()).toMatchObject({ error: "invalid_password" });
  await expect(signIn(t.app, a.email, "changed-456")).rejects.toThrow(/401/);
  expect((await session(t, other)).json()).not.toBeNull();

  const anonymous = await post(t, "/api/auth/change-password", {
    currentPassword: a.password,
    newPassword: "changed-456",
  });
  expect(anonymous.statusCode).toBe(401);

  const ok = await post(
    t,
    "/api/auth/change-password",
    { currentPassword: a.password, newPassword: "changed-456", revokeOtherSessions: true },
    a.cookie,
  );
  expect(ok.statusCode).toBe(200);
  // The session that changed it goes on (with a new cookie); the other one ended.
  const renewed = cookieHeader(ok.headers["set-cookie"]);
  expect((await session(t, renewed || a.cookie)).json().user.email).toBe(a.email);
  expect((await session(t, other)).json()).toBeNull();
  await expect(signIn(t.app, a.email, a.password)).rejects.toThrow(/401/);
  await signIn(t.app, a.email, "changed-456");
  await waitForMail(t.app, a.email, /password was changed/i);
});

test("sign-up sends a verification link that marks the address verified", async () => {
  const a = await signUp(t.app);
  expect((await session(t, a.cookie)).json().user.emailVerified).toBe(false);

  const mail = await waitForMail(t.app, a.email, /confirm your email address/i);
  const link = mail.links.find((l) => l.includes("/verify-email"))!;
  expect(link.startsWith(`${PUBLIC_URL}/api/auth/verify-email?token=`)).toBe(true);

  const forged = await t.app.inject({
    method: "GET",
    url: local(link).replace(/token=[^&]+/, "token=forged"),
  });
  expect(forged.statusCode).toBe(302);
  expect(forged.headers.location).toMatch(/^\/email-verified\?error=/);
  expect((await session(t, a.cookie)).json().user.emailVerified).toBe(false);

  const opened = await t.app.inject({ method: "GET", url: local(link) });
  expect(opened.statusCode).toBe(302);
  expect(opened.headers.location).toBe("/email-verified");
  expect((await session(t, a.cookie)).json().user.emailVerified).toBe(true);
  // Opening it again changes nothing and still lands on the page.
  const twice = await t.app.inject({ method: "GET", url: local(link) });
  expect(twice.headers.location).toBe("/email-verified");
});

test("an unverified account can sign in and use its account", async () => {
  const a = await signUp(t.app);
  const cookie = await signIn(t.app, a.email, a.password);
  expect((await session(t, cookie)).json().user.emailVerified).toBe(false);
  const me = await t.app.inject({ method: "GET", url: "/api/user", headers: { cookie } });
  expect(me.statusCode).toBe(200);
});

test("the mailbox lists and shows messages, and its pages escape what they show", async () => {
  const a = await signUp(t.app, { name: "<b>Mallory</b>" });
  const mail = await waitForMail(t.app, a.email, /confirm your email address/i);
  const list = await t.app.inject({ method: "GET", url: "/dev/mailbox" });
  expect(list.statusCode).toBe(200);
  expect(list.headers["content-type"]).toMatch(/text\/html/);
  expect(list.body).toContain(`/dev/mailbox/${mail.id}`);
  const one = await t.app.inject({ method: "GET", url: `/dev/mailbox/${mail.id}` });
  expect(one.statusCode).toBe(200);
  expect(one.body).toContain("Confirm my email address");
  expect(one.body).not.toContain("<b>Mallory</b>");
  expect(one.body).toContain("&lt;b&gt;Mallory&lt;/b&gt;");
  const html = await t.app.inject({ method: "GET", url: `/dev/mailbox/${mail.id}/html` });
  expect(html.statusCode).toBe(200);
  expect(String(html.headers["content-security-policy"])).toContain("default-src 'none'");
  expect((await t.app.inject({ method: "GET", url: "/dev/mailbox/nope" })).statusCode).toBe(404);
});

test("the mailbox does not exist in production", async () => {
  const prod = await createTestApp({ NODE_ENV: "production", PAYMENTS_GATEWAY: "test-card" });
  try {
    for (const url of [
      "/dev/mailbox",
      "/api/dev/mailbox",
      "/dev/mailbox/x",
      "/api/dev/mailbox/x",
    ]) {
      expect((await prod.app.inject({ method: "GET", url })).statusCode, url).toBe(404);
    }
  } finally {
    await prod.close();
  }
});

test("an SMTP server that is down delays mail without slowing the request, and the mail arrives once it is back", async () => {
  const port = await getFreePort();
  // First a server that accepts connections and never greets: a sender waits for it up to its
  // greeting timeout (10 s, DEFAULT_SMTP_TIMEOUTS).
  const { held, goDown } = await startSilentSmtp(port);
  const down = await createTestApp({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_RETRY_DELAY_SECONDS: "1",
    ...limits,
  });
  try {
    // No mailbox when a real SMTP server is configured.
    expect((await down.app.inject({ method: "GET", url: "/api/dev/mailbox" })).statusCode).toBe(
      404,
    );
    const a = await signUp(down.app);
    // The verification mail's sender is connected and waits for a greeting.
    await eventually(async () => (held.size > 0 ? true : undefined), "a sender to connect");
    const waiting = [...held];
    const reset = await post(down, "/api/auth/request-password-reset", { email: a.email });
    expect(reset.statusCode).toBe(200);
    // Answered while that attempt still waits: queuing a mail never waits for SMTP (a request
    // that sent it would have waited out the greeting timeout, which closes the connection).
    expect(waiting.filter((socket) => socket.destroyed)).toEqual([]);
    // Now the server is down: its connections close and the port refuses.
    await goDown();

    const jobs = () =>
      down.database.db.execute<{ state: string; retry_count: number; to: string; subject: string }>(
        sql`select state, retry_count, data->>'to' as to, data->>'subject' as subject
            from pgboss.job where name = ${MAIL_QUEUE} and data->>'to' = ${a.email}`,
      );
    // Both messages are kept and retried while the server is down.
    await eventually(async () => {
      const rows = (await jobs()).rows;
      return rows.length === 2 && rows.every((r) => r.state === "retry" && r.retry_count >= 1)
        ? rows
        : undefined;
    }, "both messages to be waiting for a retry");

    const smtp = await startLocalSmtpServer({ port });
    try {
      await eventually(
        async () => {
          const rows = (await jobs()).rows;
          return rows.length === 2 && rows.every((r) => r.state === "completed") ? rows : undefined;
        },
        "both messages to be sent once the server is back",
        20_000,
      );
      const received = smtp.messages().filter((m) => m.to.includes(a.email));
      expect(received.map((m) => m.subject).sort()).toEqual([
        "Confirm your email address for PartsWorks",
        "Reset your PartsWorks password",
      ]);
    } finally {
      await smtp.stop();
    }
  } finally {
    await down.close();
  }
});

test("the same mail reaches the mailbox exactly once", async () => {
  const a = await signUp(t.app);
  await waitForMail(t.app, a.email, /confirm your email address/i);
  expect(await messagesFor(t.app, a.email)).toHaveLength(1);
});

test("closing the app stops the mail worker and closes the queue's connections", async () => {
  const other = await createTestApp(limits);
  try {
    const mailConnections = async () =>
      (
        await other.database.pool.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where application_name = 'partsworks-jobs' and datname = current_database()",
        )
      ).rows[0]!.n;
    // The queue starts in the background: wait for it to be connected.
    await eventually(
      async () => ((await mailConnections()) > 0 ? true : undefined),
      "the queue to connect",
    );
    await other.app.close();
    await eventually(
      async () => ((await mailConnections()) === 0 ? true : undefined),
      "the queue's connections to close",
    );
  } finally {
    await other.database.close();
  }
});
