import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { eventually } from "../../../tests/support/mailbox";
import { sqlUuids } from "../db/sql-arrays";
import { startQueuedMailer } from "../../../tests/support/mailer";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { startTestSmtp, type TestSmtp } from "../../../tests/support/test-smtp";
import { MAIL_QUEUE, mailExpireSeconds, type Mailer, type MailerOptions } from "./mailer";

/**
 * The mail worker against SMTP servers of the test's own: one that takes its time over every
 * message, one that refuses an address for good. Each test has the database's mail queue to
 * itself (one mailer at a time).
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

interface LogLine {
  level: "info" | "warn" | "error";
  obj: object;
  msg: string;
}

function mailerFor(
  smtp: TestSmtp,
  lines: LogLine[],
  more: Partial<MailerOptions> = {},
): Mailer & { stop(): Promise<void> } {
  return startQueuedMailer({
    databaseUrl: database.url,
    smtpUrl: smtp.url,
    from: "PartsWorks <test@example.com>",
    retryDelaySeconds: 1,
    retryLimit: 2,
    log: {
      info: (obj, msg) => lines.push({ level: "info", obj, msg }),
      warn: (obj, msg) => lines.push({ level: "warn", obj, msg }),
      error: (obj, msg) => lines.push({ level: "error", obj, msg }),
    },
    ...more,
  });
}

async function jobStates(ids: string[]) {
  const { rows } = await database.db.execute<{ id: string; state: string; retry_count: number }>(
    sql`select id::text, state::text, retry_count from pgboss.job
        where name = ${MAIL_QUEUE} and id = any(${sqlUuids(ids)})`,
  );
  return rows;
}

/** Every job done with, one way or the other (no attempt pending or waiting to be retried). */
async function allSettled(ids: string[]) {
  const rows = await jobStates(ids);
  return rows.length === ids.length && rows.every((r) => ["completed", "failed"].includes(r.state))
    ? rows
    : undefined;
}

const mail = (to: string, n: number) => ({
  to,
  subject: `Test message ${n}`,
  text: `Message ${n}`,
  html: `<p>Message ${n}</p>`,
});

test("an SMTP server slower per message than a batch's expiry allows: every message is delivered once", async () => {
  // 1 s per message; an attempt may take 2 s, so a job expires after 4 s. A sender that took
  // 5 messages per fetch held the 5th for over 5 s: pg-boss failed the batch, and the messages
  // already sent went out again.
  const smtpTimeouts = { messageMs: 2_000 };
  expect(mailExpireSeconds(smtpTimeouts)).toBe(4);
  const smtp = await startTestSmtp({ delayMs: 1_000 });
  const lines: LogLine[] = [];

  // The queue exists already with the default expiry: the mailer's settings replace it.
  const earlier = mailerFor(smtp, lines);
  await earlier.stop();
  const mailer = mailerFor(smtp, lines, { smtpTimeouts });
  try {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await mailer.send(mail(`buyer${i}@example.com`, i)));
    const { rows: queue } = await database.db.execute<{ expire_seconds: number }>(
      sql`select expire_seconds from pgboss.queue where name = ${MAIL_QUEUE}`,
    );
    expect(queue[0]!.expire_seconds).toBe(4);

    const settled = await eventually(() => allSettled(ids), "every message to be sent", 30_000);
    expect(settled.map((r) => r.state)).toEqual(ids.map(() => "completed"));
    const expected = ids.map((id) => `<${id}@partsworks.mail>`).sort();
    expect([...smtp.accepted].sort()).toEqual(expected);
    expect(lines.filter((l) => l.level !== "info")).toEqual([]);
  } finally {
    await mailer.stop();
    await smtp.stop();
  }
});

test("a message already sent whose job is handed out again (expired before it was marked done) is not sent twice", async () => {
  const smtp = await startTestSmtp({});
  const lines: LogLine[] = [];
  const mailer = mailerFor(smtp, lines);
  try {
    const id = await mailer.send(mail("once@example.com", 1));
    await eventually(() => allSettled([id]), "the message to be sent");
    // What pg-boss does to a job that outlived its expiry: back to be fetched again.
    await database.db.execute(
      sql`update pgboss.job set state = 'retry', started_on = null, completed_on = null,
          start_after = now(), retry_count = retry_count + 1
          where name = ${MAIL_QUEUE} and id = ${id}::uuid`,
    );
    const [again] = await eventually(async () => {
      const rows = await jobStates([id]);
      return rows[0]?.state === "completed" && rows[0].retry_count === 1 ? rows : undefined;
    }, "the repeat to be done with");
    expect(again).toMatchObject({ state: "completed", retry_count: 1 });
    expect(smtp.accepted).toEqual([`<${id}@partsworks.mail>`]);
    expect(lines.filter((l) => l.level !== "info")).toEqual([]);
  } finally {
    await mailer.stop();
    await smtp.stop();
  }
});

test("a permanent SMTP refusal (550 no such user) fails that message after one attempt; the others go", async () => {
  const gone = "nobody.here@example.com";
  const smtp = await startTestSmtp({ refuse: [gone] });
  const lines: LogLine[] = [];
  const mailer = mailerFor(smtp, lines);
  try {
    const refused = await mailer.send(mail(gone, 1));
    const others = [
      await mailer.send(mail("first@example.com", 2)),
      await mailer.send(mail("second@example.com", 3)),
    ];
    const settled = await eventually(
      () => allSettled([refused, ...others]),
      "every message to be done with",
      20_000,
    );
    const byId = new Map(settled.map((r) => [r.id, r]));
    expect(byId.get(refused)).toMatchObject({ state: "failed", retry_count: 0 });
    for (const id of others) expect(byId.get(id)!.state).toBe("completed");
    expect(smtp.recipients.filter((r) => r === gone)).toHaveLength(1);
    expect([...smtp.accepted].sort()).toEqual(others.map((id) => `<${id}@partsworks.mail>`).sort());

    // Said at warn, with the server's answer but not the address.
    const warned = lines.filter((l) => l.level === "warn");
    expect(warned).toHaveLength(1);
    expect(warned[0]!.msg).toMatch(/refused for good/);
    expect(warned[0]!.obj).toMatchObject({ job: refused, responseCode: 550 });
    expect(JSON.stringify(warned[0])).toContain("no such user");
    expect(JSON.stringify(lines)).not.toContain(gone);
  } finally {
    await mailer.stop();
    await smtp.stop();
  }
});

test("a refused recipient is told to onBounce; a failure there is logged and the mail goes on", async () => {
  const gone = "bounced.here@example.com";
  const smtp = await startTestSmtp({ refuse: [gone] });
  const lines: LogLine[] = [];
  const told: { to: string; code: number | undefined; response: string }[] = [];
  const mailer = mailerFor(smtp, lines, {
    onBounce: async (to, refusal) => {
      told.push({ to, ...refusal });
      throw new Error("the database is away");
    },
  });
  try {
    const refused = await mailer.send(mail(gone, 1));
    const after = await mailer.send(mail("after@example.com", 2));
    const settled = await eventually(
      () => allSettled([refused, after]),
      "both messages to be done with",
      20_000,
    );
    const byId = new Map(settled.map((r) => [r.id, r]));
    expect(byId.get(refused)).toMatchObject({ state: "failed", retry_count: 0 });
    expect(byId.get(after)!.state).toBe("completed");
    expect(told).toEqual([
      { to: gone, code: 550, response: expect.stringMatching(/no such user/) },
    ]);
    const errors = lines.filter((l) => l.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.msg).toMatch(/could not mark a refused address/);
  } finally {
    await mailer.stop();
    await smtp.stop();
  }
});
