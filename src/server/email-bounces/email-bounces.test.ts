import { createEmailVerificationToken } from "better-auth/api";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { UserListItem } from "../../contract/users";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { eventually } from "../../../tests/support/mailbox";
import { testAppWithAdmin } from "../../../tests/support/store";
import { sessionHeaders } from "../../../tests/support/requests";
import type { TestApp } from "../../../tests/support/test-app";
import { startTestSmtp, type TestSmtp } from "../../../tests/support/test-smtp";
import { adminAuditLog } from "../audit/tables";
import { emailBounces } from "./tables";
import { user } from "../users/tables";
import { MAIL_QUEUE } from "../mail/mailer";
import { bounceAnswer, recipientAddress, recordBounce } from "./service";

/**
 * The app on an SMTP server of the test's own that refuses some addresses for good (550 5.1.1):
 * the sign-up's verification email to such an address marks it, and the admin sees it.
 */
const SECRET = "test-secret-that-is-long-enough-0123456789";
const ADMIN = "bounce-admin@example.com";
const GONE = "gone.customer@example.com";
const FIXED = "fixed.later@example.com";

let smtp: TestSmtp;
let t: TestApp;
let admin: TestAccount;
/** The addresses the SMTP server refuses (it reads the array on every RCPT TO). */
const refused = [GONE, FIXED];

beforeAll(async () => {
  smtp = await startTestSmtp({ refuse: refused });
  ({ t, admin } = await testAppWithAdmin(
    { email: ADMIN, name: "Bo Admin" },
    { SMTP_URL: smtp.url, BETTER_AUTH_SECRET: SECRET, MAIL_RETRY_DELAY_SECONDS: "1" },
  ));
});
afterAll(async () => {
  await t?.close();
  await smtp?.stop();
});

async function listed(email: string): Promise<UserListItem | undefined> {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/users?q=${encodeURIComponent(email)}`,
    headers: sessionHeaders(admin),
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as UserListItem[]).find((u) => u.email === email);
}

/** The user's list row once its address is marked as bouncing (the worker sends a moment later). */
const marked = (email: string) =>
  eventually(
    async () => {
      const row = await listed(email);
      return row?.emailBouncedAt ? row : undefined;
    },
    `${email} to be marked as bouncing`,
    20_000,
  );

async function idOf(email: string) {
  const [row] = await t.database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  return row!.id;
}

const markDeliverable = (id: string, who?: TestAccount) =>
  t.app.inject({
    method: "DELETE",
    url: `/api/users/${id}/email-bounce`,
    headers: sessionHeaders(who),
  });

describe("a permanent refusal marks the address", () => {
  test("550 no such user: one attempt, the address is marked with the answer, another is not", async () => {
    await signUp(t.app, { email: GONE, name: "Gone Customer" });
    const fine = await signUp(t.app, { name: "Fine Customer" });

    const row = await marked(GONE);
    expect(row.emailBounce).toMatch(/^550 .*no such user/);
    expect(Date.parse(row.emailBouncedAt!)).toBeGreaterThan(Date.now() - 60_000);

    // The other customer's verification email went (and their address is not marked).
    await eventually(
      async () => (smtp.recipients.includes(fine.email) ? true : undefined),
      "the other verification email to be sent",
      20_000,
    );
    expect(await listed(fine.email)).toMatchObject({ emailBouncedAt: null, emailBounce: null });

    // One attempt, and its job is failed for good (no retry waiting).
    expect(smtp.recipients.filter((r) => r === GONE)).toHaveLength(1);
    const { rows } = await t.database.db.execute<{ state: string; retry_count: number }>(
      sql`select state::text, retry_count from pgboss.job
          where name = ${MAIL_QUEUE} and data->>'to' = ${GONE}`,
    );
    expect(rows).toEqual([{ state: "failed", retry_count: 0 }]);
  });

  test("a second refusal of the same address keeps one mark, with the newer date", async () => {
    const before = await marked(GONE);
    await recordBounce(t.database.db, `Gone Customer <${GONE.toUpperCase()}>`, {
      code: 550,
      response: "550 5.1.1 mailbox unavailable\r\nsecond line",
    });
    const rows = await t.database.db
      .select()
      .from(emailBounces)
      .where(eq(emailBounces.address, GONE));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.smtpAnswer).toBe("550 5.1.1 mailbox unavailable");
    expect(rows[0]!.bouncedAt.getTime()).toBeGreaterThanOrEqual(Date.parse(before.emailBouncedAt!));
  });

  test("the mark belongs to the address: a user whose address changes is no longer marked", async () => {
    const id = await idOf(GONE);
    await marked(GONE);
    const moved = "gone.customer.new@example.com";
    await t.database.db.update(user).set({ email: moved }).where(eq(user.id, id));
    try {
      expect(await listed(moved)).toMatchObject({ emailBouncedAt: null, emailBounce: null });
    } finally {
      await t.database.db.update(user).set({ email: GONE }).where(eq(user.id, id));
    }
    await marked(GONE);
  });

  test("following a verification link to the address takes the mark off", async () => {
    await signUp(t.app, { email: FIXED, name: "Fixed Later" });
    await marked(FIXED);
    // The customer fixed their mailbox and followed a new link.
    const token = await createEmailVerificationToken(SECRET, FIXED);
    const res = await t.app.inject({ method: "GET", url: `/api/auth/verify-email?token=${token}` });
    expect(res.statusCode).toBe(200);
    expect(await listed(FIXED)).toMatchObject({ emailBouncedAt: null, emailBounce: null });
  });
});

describe("Mark deliverable (DELETE /api/users/:id/email-bounce)", () => {
  test("anonymous 401; the customer themself and another customer 403; the mark stays", async () => {
    const id = await idOf(GONE);
    await marked(GONE);
    const self = await signUp(t.app, { name: "Self Check" });
    const other = await signUp(t.app, { name: "Other Customer" });
    expect((await markDeliverable(id)).statusCode).toBe(401);
    expect((await markDeliverable(id, other)).statusCode).toBe(403);
    expect((await markDeliverable(await idOf(self.email), self)).statusCode).toBe(403);
    expect((await listed(GONE))!.emailBouncedAt).not.toBeNull();
  });

  test("an admin clears it, once in the audit log; again is harmless; an unknown user is 404", async () => {
    const id = await idOf(GONE);
    const answer = (await marked(GONE)).emailBounce!;
    const res = await markDeliverable(id, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      user: { _id: id, email: GONE, emailBouncedAt: null, emailBounce: null },
    });
    expect(await listed(GONE)).toMatchObject({ emailBouncedAt: null, emailBounce: null });

    const again = await markDeliverable(id, admin);
    expect(again.statusCode).toBe(200);
    const entries = await t.database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, "user.mark-deliverable"));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorEmail: ADMIN, targetType: "user", targetId: id });
    expect(entries[0]!.summary).toContain(GONE);
    expect(entries[0]!.summary).toContain(answer);

    expect((await markDeliverable("no-such-user", admin)).statusCode).toBe(404);
    expect((await markDeliverable("bad.id", admin)).statusCode).toBe(400);
  });
});

test("the recipient and the answer kept: lower-cased address, first line, capped", () => {
  expect(recipientAddress("Ann <Ann@Example.COM>")).toBe("ann@example.com");
  expect(recipientAddress(" bob@example.com ")).toBe("bob@example.com");
  expect(recipientAddress("nobody")).toBeUndefined();
  expect(bounceAnswer({ code: 550, response: "5.1.1 no such user\nmore" })).toBe(
    "550 5.1.1 no such user",
  );
  expect(bounceAnswer({ code: 552, response: `552 ${"x".repeat(500)}` })).toHaveLength(300);
  expect(bounceAnswer({ code: undefined, response: "" })).toBe("refused");
});
