import { eq } from "drizzle-orm";
import { sql } from "../db/sql";
import { expect, test } from "vitest";
import { storeForTests } from "../../../tests/support/store";
import { claimBody, shippedWarrantyOrder } from "../../../tests/support/warranty";
import {
  WARRANTY_DEADLINE_DEFAULTS,
  deadlineWords,
  warrantyDeadlineMessages,
} from "../../contract/warranty-deadlines";
import { adminAuditLog } from "../audit/tables";
import { createWarrantyDeadlines } from "./deadline-reminders";
import { addDays, claimDeadline, reminderDue } from "./deadlines";
import { dayOf } from "./eligibility";
import { warrantyClaimEvents, warrantyDeadlineSettings } from "./tables";

/**
 * A warranty claim's deadlines and reminders (docs/warranty.md "Deadlines and reminders"): each
 * side's days from the claim's last change of status, the admin's settings, the reminder job.
 */

const DAY = 86_400_000;
const SETTINGS = "/api/warranty/settings";

const { t, call, admin, customer } = storeForTests({
  admin: "deadline-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: "deadline-customer@example.com" },
});

/** A shipped part with a warranty, and a claim of one unit of it (waiting for the store). */
async function claim(): Promise<{ id: string; number: string }> {
  const { orderId } = await shippedWarrantyOrder(t, admin, customer, 1);
  const filed = await call(customer, "POST", "/api/warranty-claims", claimBody(orderId));
  expect(filed.statusCode, filed.body).toBe(201);
  return filed.json();
}

const ask = (id: string) =>
  call(admin, "POST", `/api/warranty-claims/${id}/messages`, {
    body: "Which side of the car?",
    askForInformation: true,
  });

/** Moves the claim's history `days` back, as if it changed status that long ago. */
const age = (id: string, days: number) =>
  t.database.db
    .update(warrantyClaimEvents)
    .set({ at: sql`${warrantyClaimEvents.at} - make_interval(days => ${days})` })
    .where(eq(warrantyClaimEvents.claimId, id));

test("a deadline runs each side's days from the last change of status, overdue the day after", () => {
  const settings = { claimantDays: 14, storeDays: 5 };
  const since = new Date("2026-12-01T23:30:00Z");
  expect(claimDeadline("submitted", since, settings, since)).toEqual({
    side: "store",
    dueOn: "2026-12-06",
    overdue: false,
  });
  expect(claimDeadline("part_received", since, settings, since)?.side).toBe("store");
  expect(claimDeadline("inspected", since, settings, since)?.side).toBe("store");
  expect(claimDeadline("information_requested", since, settings, since)).toEqual({
    side: "claimant",
    dueOn: "2026-12-15",
    overdue: false,
  });
  expect(claimDeadline("part_requested", since, settings, since)?.side).toBe("claimant");
  // The last day is still in time; the next is overdue.
  const on = (day: string) => new Date(`${day}T23:59:00Z`);
  expect(claimDeadline("submitted", since, settings, on("2026-12-06"))?.overdue).toBe(false);
  expect(claimDeadline("submitted", since, settings, on("2026-12-07"))?.overdue).toBe(true);
  // Decided: no deadline.
  expect(claimDeadline("approved", since, settings, since)).toBeNull();
  expect(claimDeadline("rejected", since, settings, since)).toBeNull();
  // The reminder, 2 days before: from 4 December.
  const deadline = claimDeadline("submitted", since, settings, since)!;
  expect(reminderDue(deadline, 2, on("2026-12-03"))).toBe(false);
  expect(reminderDue(deadline, 2, new Date("2026-12-04T00:00:00Z"))).toBe(true);
  expect(addDays("2027-02-27", 2)).toBe("2027-03-01");

  expect(
    deadlineWords(
      { side: "claimant", dueOn: "2026-12-14", overdue: false },
      "information_requested",
      "claimant",
    ),
  ).toBe("Waiting for you: answer by 14 Dec 2026");
  expect(
    deadlineWords(
      { side: "claimant", dueOn: "2026-12-14", overdue: true },
      "part_requested",
      "store",
    ),
  ).toBe("Overdue. Waiting for the claimant: send the part back by 14 Dec 2026");
  expect(
    deadlineWords({ side: "store", dueOn: "2026-12-09", overdue: false }, "submitted", "claimant"),
  ).toBe("Waiting for the store: decision due by 9 Dec 2026");
  expect(
    deadlineWords({ side: "store", dueOn: "2026-12-09", overdue: false }, "inspected", "store"),
  ).toBe("Waiting for you: decision due by 9 Dec 2026");
});

test("a claim shows whose move it waits for and by when, overdue once past, none once decided", async () => {
  const c = await claim();
  const today = dayOf(new Date());
  const get = async () => (await call(customer, "GET", `/api/warranty-claims/${c.id}`)).json();
  expect((await get()).deadline).toEqual({
    side: "store",
    dueOn: addDays(today, WARRANTY_DEADLINE_DEFAULTS.storeDays),
    overdue: false,
  });
  expect((await ask(c.id)).statusCode).toBe(200);
  expect((await get()).deadline).toEqual({
    side: "claimant",
    dueOn: addDays(today, WARRANTY_DEADLINE_DEFAULTS.claimantDays),
    overdue: false,
  });
  // A message that changes nothing does not move the deadline.
  await age(c.id, 20);
  const said = await call(admin, "POST", `/api/warranty-claims/${c.id}/messages`, {
    body: "Any news?",
  });
  expect(said.statusCode).toBe(200);
  const overdue = await get();
  expect(overdue.deadline).toEqual({
    side: "claimant",
    dueOn: addDays(today, WARRANTY_DEADLINE_DEFAULTS.claimantDays - 20),
    overdue: true,
  });
  // The list says it too (admins' queue).
  const list = await call(admin, "GET", `/api/warranty-claims?q=${c.number}`);
  expect(list.json()[0].deadline).toEqual(overdue.deadline);

  const rejected = await call(admin, "POST", `/api/warranty-claims/${c.id}/reject`, {
    reason: "Fitted without the kit's bolts.",
  });
  expect(rejected.statusCode, rejected.body).toBe(200);
  expect(rejected.json().deadline).toBeNull();
});

test("bad settings are refused with the field's message (400, never 500), and nothing is written", async () => {
  const res = await call(admin, "GET", SETTINGS);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ ...WARRANTY_DEADLINE_DEFAULTS, updatedAt: null });
  expect(WARRANTY_DEADLINE_DEFAULTS).toEqual({ claimantDays: 14, storeDays: 5, reminderDays: 2 });

  const good = { claimantDays: 10, storeDays: 4, reminderDays: 1 };
  const bad: [unknown, string, string][] = [
    [{ ...good, claimantDays: 0 }, "claimantDays", warrantyDeadlineMessages.claimantDays],
    [{ ...good, claimantDays: 91 }, "claimantDays", warrantyDeadlineMessages.claimantDays],
    [{ ...good, claimantDays: 2.5 }, "claimantDays", warrantyDeadlineMessages.claimantDays],
    [{ ...good, claimantDays: "10" }, "claimantDays", warrantyDeadlineMessages.claimantDays],
    [{ ...good, storeDays: -1 }, "storeDays", warrantyDeadlineMessages.storeDays],
    [{ ...good, storeDays: null }, "storeDays", warrantyDeadlineMessages.storeDays],
    [{ claimantDays: 10, reminderDays: 1 }, "storeDays", warrantyDeadlineMessages.storeDays],
    [{ ...good, reminderDays: -1 }, "reminderDays", warrantyDeadlineMessages.reminderDays],
    [{ ...good, reminderDays: 1e9 }, "reminderDays", warrantyDeadlineMessages.reminderDays],
    [
      { ...good, reminderDays: 4 },
      "reminderDays",
      warrantyDeadlineMessages.reminderBeforeDeadline(4),
    ],
    [
      { claimantDays: 1, storeDays: 30, reminderDays: 1 },
      "reminderDays",
      warrantyDeadlineMessages.reminderBeforeDeadline(1),
    ],
  ];
  for (const [body, field, message] of bad) {
    const put = await call(admin, "PUT", SETTINGS, body);
    expect(put.statusCode, `${JSON.stringify(body)}: ${put.body}`).toBe(400);
    expect(put.json().fields[field]).toBe(message);
  }
  expect(warrantyDeadlineMessages.claimantDays).toBe(
    "The claimant's days are a whole number from 1 to 90",
  );
  expect(warrantyDeadlineMessages.reminderBeforeDeadline(4)).toBe(
    "The reminder must come after the claim changes: fewer than 4 days before the deadline",
  );
  for (const body of [{ ...good, extra: 1 }, undefined, [good]]) {
    expect((await call(admin, "PUT", SETTINGS, body)).statusCode).toBe(400);
  }
  // Customers may not read or set them; signed out, 401.
  expect((await call(customer, "GET", SETTINGS)).statusCode).toBe(403);
  expect((await call(customer, "PUT", SETTINGS, good)).statusCode).toBe(403);
  expect((await call(null, "PUT", SETTINGS, good)).statusCode).toBe(401);
  expect(await t.database.db.select().from(warrantyDeadlineSettings)).toEqual([]);
});

test("an admin saves the deadlines: audited, and every open claim's deadline follows", async () => {
  const c = await claim();
  const put = await call(admin, "PUT", SETTINGS, {
    claimantDays: 21,
    storeDays: 3,
    reminderDays: 1,
  });
  expect(put.statusCode, put.body).toBe(200);
  expect(put.json()).toEqual({
    claimantDays: 21,
    storeDays: 3,
    reminderDays: 1,
    updatedAt: expect.any(String),
  });
  expect((await call(admin, "GET", SETTINGS)).json()).toEqual(put.json());
  const audit = await t.database.db
    .select()
    .from(adminAuditLog)
    .where(eq(adminAuditLog.action, "warranty.deadlines"));
  expect(audit.map((a) => [a.actorEmail, a.summary])).toEqual([
    [
      "deadline-admin@example.com",
      "Set the warranty claims' deadlines: the claimant 21 days, the store 3 days, reminders 1 day before",
    ],
  ]);
  const got = (await call(customer, "GET", `/api/warranty-claims/${c.id}`)).json();
  expect(got.deadline.dueOn).toBe(addDays(dayOf(new Date()), 3));
  // Back to the defaults for the reminders' test.
  const back = await call(admin, "PUT", SETTINGS, { ...WARRANTY_DEADLINE_DEFAULTS });
  expect(back.statusCode).toBe(200);
});

test("each side is reminded once per change of status, from the lead's days before; decided claims never", async () => {
  const asked = await claim();
  expect((await ask(asked.id)).statusCode).toBe(200);
  const waiting = await claim();
  const decided = await claim();
  expect(
    (
      await call(admin, "POST", `/api/warranty-claims/${decided.id}/reject`, {
        reason: "Not a warranty matter.",
      })
    ).statusCode,
  ).toBe(200);

  const sent: { to: string; subject: string; text: string; key: string }[] = [];
  const start = Date.now();
  const at = (days: number) =>
    createWarrantyDeadlines(t.database.db, {
      publicUrl: "http://store.test",
      mailer: {
        sendIn: async (_tx, m, key) =>
          void sent.push({ to: m.to, subject: m.subject, text: m.text, key }),
      },
      now: () => new Date(start + days * DAY),
    });
  const about = (n: string) => sent.filter((m) => m.text.includes(n));

  // The store's 5 days, reminded 2 before: from day 3 on; the claimant's 14: from day 12.
  await at(2).remindDeadlines();
  expect(about(waiting.number)).toEqual([]);
  await at(3).remindDeadlines();
  const toStore = about(waiting.number);
  expect(toStore.map((m) => m.to)).toEqual([admin.email]);
  expect(toStore[0]!.text).toContain(`${waiting.number}: 1 × `);
  expect(toStore[0]!.text).toContain(`due by ${deadlineWordsDay(dayOf(new Date(start)), 5)}`);
  expect(about(asked.number)).toEqual([]);

  await at(11).remindDeadlines();
  expect(about(asked.number)).toEqual([]);
  await at(12).remindDeadlines();
  await at(13).remindDeadlines();
  const toClaimant = about(asked.number);
  expect(toClaimant.map((m) => [m.to, m.subject])).toEqual([
    [customer.email, `Warranty claim ${asked.number}: we are waiting for your answer`],
  ]);
  expect(toClaimant[0]!.text).toContain(
    `Warranty claim ${asked.number}: we are waiting for your answer; please reply by ${deadlineWordsDay(dayOf(new Date(start)), 14)}.`,
  );
  // Once each, however often the job runs; never for the decided claim.
  expect(about(waiting.number)).toHaveLength(1);
  expect(about(decided.number)).toEqual([]);

  // The claimant answers: the claim changed status, and waits for the store again, reminded anew.
  const answered = await call(customer, "POST", `/api/warranty-claims/${asked.id}/messages`, {
    body: "The front left.",
  });
  expect(answered.json().status).toBe("submitted");
  await age(asked.id, 4);
  await at(0).remindDeadlines();
  expect(about(asked.number).map((m) => m.to)).toEqual([customer.email, admin.email]);
});

/** The email's words for `days` after `day`. */
const deadlineWordsDay = (day: string, days: number) =>
  deadlineWords(
    { side: "store", dueOn: addDays(day, days), overdue: false },
    "submitted",
    "store",
  ).replace("Waiting for you: decision due by ", "");
