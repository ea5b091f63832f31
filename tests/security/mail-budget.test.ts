import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { MAIL_QUEUE } from "../../src/server/mail/mailer";
import { signUp } from "../support/accounts";
import { appForTests } from "../support/store";

// Penetration test of 75cca6d, finding 8: ten anonymous requests blocked a victim's reset and
// verification mail for 15 minutes, renewably (the budget was per address, shared by every IP).

const { t } = appForTests({
  env: { AUTH_RATE_LIMIT_PER_EMAIL: "3", AUTH_RATE_LIMIT_PER_IP: "1000" },
});

const resetFrom = (email: string, ip: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/request-password-reset",
    payload: { email, redirectTo: "/reset-password" },
    remoteAddress: ip,
  });

/** Reset mails queued for an address (queued in the request's transaction: no waiting). */
const resetMailsTo = async (email: string) =>
  (
    await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pgboss.job
           where name = ${MAIL_QUEUE} and data->>'to' = ${email}
             and data->>'subject' ilike '%password%'`,
    )
  ).rows[0]!.n;

test("someone else's requests cannot block an owner's reset mail, and are answered as usual", async () => {
  const victim = await signUp(t.app);
  const answers = [];
  for (let i = 0; i < 10; i += 1) answers.push(await resetFrom(victim.email, "203.0.113.9"));
  const usual = answers[0]!.json();
  for (const a of answers) {
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual(usual);
  }
  // Three went out (the budget of that client for that address); the rest sent nothing.
  expect(await resetMailsTo(victim.email)).toBe(3);
  const own = await resetFrom(victim.email, "198.51.100.7");
  expect(own.statusCode).toBe(200);
  expect(await resetMailsTo(victim.email)).toBe(4);
});

test("an inbox is not flooded from many addresses either: a ceiling per address", async () => {
  const victim = await signUp(t.app);
  for (let ip = 1; ip <= 8; ip += 1) {
    for (let i = 0; i < 3; i += 1) {
      expect((await resetFrom(victim.email, `192.0.2.${ip}`)).statusCode).toBe(200);
    }
  }
  // 24 requests from 8 clients, each within its own budget: the address takes 15 (5 × 3) in all,
  // and its sign-up was one of them.
  expect(await resetMailsTo(victim.email)).toBe(14);
});

// Fifth outside review (issue 49), finding 2: requests from five addresses sent a victim 45 reset
// mails, and then the owner's own request was answered as usual and sent nothing (the address's
// count from everywhere had run out for 15 minutes). Now it is spaced out, not counted out.
test("after others' burst the owner's request sends a link within one spacing (AUTH_MAIL_SPACING_SECONDS), not 15 minutes later", async () => {
  const victim = await signUp(t.app);
  const answers = [];
  for (let ip = 1; ip <= 5; ip += 1) {
    for (let i = 0; i < 4; i += 1) answers.push(await resetFrom(victim.email, `198.18.0.${ip}`));
  }
  const usual = answers[0]!.json();
  for (const a of answers) expect(a.json()).toEqual(usual);
  // The address's burst (5 × 3, its sign-up mail one of them), whichever clients asked.
  const flooded = await resetMailsTo(victim.email);
  expect(flooded).toBe(14);
  // At once: answered as usual, nothing more to that inbox.
  const own = () => resetFrom(victim.email, "198.51.100.77");
  expect((await own()).json()).toEqual(usual);
  expect(await resetMailsTo(victim.email)).toBe(flooded);
  // One spacing later (its clock moved back instead of waiting two minutes): the owner's does.
  await t.database.db.execute(
    sql`update rate_limit set window_start = window_start - interval '120 seconds'
         where key = ${`auth:mail:${victim.email.toLowerCase()}`}`,
  );
  expect((await own()).json()).toEqual(usual);
  expect(await resetMailsTo(victim.email)).toBe(flooded + 1);
});
