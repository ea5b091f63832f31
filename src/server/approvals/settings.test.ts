import { eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { approvalSettingsMessages, type ApprovalSettings } from "../../contract/approvals";
import type { TestAccount } from "../../../tests/support/accounts";
import { approvalServiceAt, orderOverTheLimit } from "../../../tests/support/approvals";
import { storeForTests } from "../../../tests/support/store";
import { sessionHeaders } from "../../../tests/support/requests";
import { companyWithBuyer, setOrderLimit } from "../../../tests/support/trade";
import { adminAuditLog } from "../audit/tables";
import { loadConfig } from "../config";
import { approvalWindowEnd } from "../inventory/holds";
import { approvalSettings } from "./tables";

/**
 * The approval settings an admin saves (docs/approvals.md, "The approval window"): the window an
 * order awaiting approval keeps its stock, and how many hours before its end the owners are
 * reminded. Until saved, the store's defaults (here APPROVAL_WINDOW_BUSINESS_DAYS=4 and
 * APPROVAL_REMINDER_HOURS=20) are in force.
 */

type Member = TestAccount & { id: string };
let owner: Member;
let buyer: Member;
const HOUR = 3_600_000;
const SETTINGS = "/api/approvals/settings";

const { t, admin, customer } = storeForTests({
  admin: "settings-admin@example.com",
  shipsToTestAddress: true,
  customers: { customer: {} },
  env: { APPROVAL_WINDOW_BUSINESS_DAYS: "4", APPROVAL_REMINDER_HOURS: "20" },
});
beforeAll(async () => {
  const company = await companyWithBuyer(t.app, admin);
  ({ owner, buyer } = company);
  const limit = await setOrderLimit(t.app, owner, company.id, buyer.id, 100);
  expect(limit.statusCode, limit.body).toBe(200);
});

const call = (who: TestAccount | null, method: "GET" | "PUT", payload?: unknown) =>
  t.app.inject({
    method,
    url: SETTINGS,
    headers: sessionHeaders(who),
    payload: payload as object | undefined,
  });

const overTheLimit = () => orderOverTheLimit(t, buyer);

/**
 * How many business days the order's stock is held, from when it was written (the end is
 * computed a moment before the row's `created_at`; one business day more or less is a day off).
 */
function heldFor(row: { createdAt: Date; holdExpiresAt: Date }): number | null {
  for (let days = 1; days <= 30; days++) {
    const end = approvalWindowEnd(row.createdAt, days).getTime();
    if (Math.abs(row.holdExpiresAt.getTime() - end) < 10_000) return days;
  }
  return null;
}

const auditRows = () =>
  t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "approval.settings"));

/** The approval service with its clock at `ms`, on the app's database, its emails kept here. */
const queued: { to: string; key: string }[] = [];
const mailer = {
  sendIn: async (_tx: unknown, m: { to: string }, key: string) =>
    void queued.push({ to: m.to, key }),
};
const approvalsAt = (ms: number) =>
  approvalServiceAt(t, ms, mailer, { windowBusinessDays: 4, reminderHours: 20 });

test("until an admin saves settings, the environment's window holds an order awaiting approval", async () => {
  const res = await call(admin, "GET");
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ windowBusinessDays: 4, reminderHours: 20, updatedAt: null });
  const row = await overTheLimit();
  expect(heldFor(row)).toBe(4);
});

test("bad settings are refused with the field's message, and nothing is written", async () => {
  const bad: [unknown, string, string][] = [
    [{ windowBusinessDays: 0, reminderHours: 5 }, "windowBusinessDays", "window"],
    [{ windowBusinessDays: 31, reminderHours: 5 }, "windowBusinessDays", "window"],
    [{ windowBusinessDays: 2.5, reminderHours: 5 }, "windowBusinessDays", "window"],
    [{ windowBusinessDays: "5", reminderHours: 5 }, "windowBusinessDays", "window"],
    [{ reminderHours: 5 }, "windowBusinessDays", "window"],
    [{ windowBusinessDays: 5, reminderHours: 0 }, "reminderHours", "reminder"],
    [{ windowBusinessDays: 5, reminderHours: 1.5 }, "reminderHours", "reminder"],
    [{ windowBusinessDays: 5, reminderHours: null }, "reminderHours", "reminder"],
  ];
  for (const [body, field, message] of bad) {
    const res = await call(admin, "PUT", body);
    expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
    expect(res.json().fields[field]).toBe(
      approvalSettingsMessages[message as "window" | "reminder"],
    );
  }
  // The reminder at or after the window's end: a business day is at least 24 hours.
  for (const [days, hours] of [
    [1, 24],
    [2, 100],
  ] as const) {
    const res = await call(admin, "PUT", { windowBusinessDays: days, reminderHours: hours });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      error: "validation",
      fields: { reminderHours: approvalSettingsMessages.reminderBeforeEnd(days) },
    });
  }
  expect(approvalSettingsMessages.reminderBeforeEnd(1)).toBe(
    "The reminder must come before the window ends: fewer than 24 hours for 1 business day",
  );
  // A field it does not know, or no body at all.
  for (const body of [{ windowBusinessDays: 5, reminderHours: 5, extra: 1 }, undefined]) {
    expect((await call(admin, "PUT", body)).statusCode).toBe(400);
  }
  expect(await t.database.db.select().from(approvalSettings)).toEqual([]);
  expect(await auditRows()).toEqual([]);
  expect((await call(admin, "GET")).json().updatedAt).toBeNull();
});

test("customers and owners may not read or set them; signed out, 401", async () => {
  for (const who of [customer, owner, buyer]) {
    expect((await call(who, "GET")).statusCode).toBe(403);
    const put = await call(who, "PUT", { windowBusinessDays: 10, reminderHours: 5 });
    expect(put.statusCode).toBe(403);
  }
  expect((await call(null, "GET")).statusCode).toBe(401);
  expect((await call(null, "PUT", { windowBusinessDays: 10, reminderHours: 5 })).statusCode).toBe(
    401,
  );
  expect(await t.database.db.select().from(approvalSettings)).toEqual([]);
});

test("an admin sets 5 business days: an order awaiting approval placed after holds its stock 5 business days, audited", async () => {
  const res = await call(admin, "PUT", { windowBusinessDays: 5, reminderHours: 30 });
  expect(res.statusCode, res.body).toBe(200);
  const saved = res.json() as ApprovalSettings;
  expect(saved).toEqual({
    windowBusinessDays: 5,
    reminderHours: 30,
    updatedAt: expect.any(String),
  });
  expect((await call(admin, "GET")).json()).toEqual(saved);
  expect((await auditRows()).map((r) => [r.actorEmail, r.summary])).toEqual([
    [
      "settings-admin@example.com",
      "Set the approval window to 5 business days, owners reminded 30 hours before it ends",
    ],
  ]);

  const row = await overTheLimit();
  expect(heldFor(row)).toBe(5);
});

test("the owners' reminder comes as many hours before the end as saved", async () => {
  expect((await call(admin, "PUT", { windowBusinessDays: 5, reminderHours: 30 })).statusCode).toBe(
    200,
  );
  const row = await overTheLimit();
  const end = row.holdExpiresAt.getTime();
  const mine = () => queued.filter((q) => q.key.startsWith(`order-approval-reminder:${row.id}:`));
  // 31 hours before: not yet; 29 hours before (the default's 20 would wait 9 more): once.
  await approvalsAt(end - 31 * HOUR).remindExpiring();
  expect(mine()).toEqual([]);
  await approvalsAt(end - 29 * HOUR).remindExpiring();
  await approvalsAt(end - 28 * HOUR).remindExpiring();
  expect(mine()).toEqual([expect.objectContaining({ to: owner.email })]);
});

test("the table keeps one row, within the rules, whoever writes it", async () => {
  const write = (values: { id?: number; windowBusinessDays: number; reminderHours: number }) =>
    t.database.db
      .insert(approvalSettings)
      .values(values)
      .onConflictDoUpdate({ target: approvalSettings.id, set: values });
  await expect(write({ id: 2, windowBusinessDays: 3, reminderHours: 5 })).rejects.toMatchObject({
    cause: { constraint: "approval_settings_one_row" },
  });
  await expect(write({ windowBusinessDays: 31, reminderHours: 5 })).rejects.toMatchObject({
    cause: { constraint: "approval_settings_window_valid" },
  });
  await expect(write({ windowBusinessDays: 2, reminderHours: 48 })).rejects.toMatchObject({
    cause: { constraint: "approval_settings_reminder_valid" },
  });
  expect((await call(admin, "GET")).json()).toMatchObject({
    windowBusinessDays: 5,
    reminderHours: 30,
  });
});

test("the environment's approval defaults are ones the form can save unchanged, or the store does not start", () => {
  expect(
    loadConfig({ APPROVAL_WINDOW_BUSINESS_DAYS: "1", APPROVAL_REMINDER_HOURS: "23" }),
  ).toMatchObject({ approvalDefaults: { windowBusinessDays: 1, reminderHours: 23 } });
  for (const [days, hours] of [
    ["3", "1.5"], // not whole
    ["1", "24"], // not before the window's end
  ]) {
    expect(() =>
      loadConfig({ APPROVAL_WINDOW_BUSINESS_DAYS: days, APPROVAL_REMINDER_HOURS: hours }),
    ).toThrow(/APPROVAL_REMINDER_HOURS: must be what the approval settings form takes/);
  }
});
