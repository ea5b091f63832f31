import { orderNumberText } from "../../contract/orders";
import { eq } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import type { TestAccount } from "../../../tests/support/accounts";
import { approvalServiceAt, orderOverTheLimit } from "../../../tests/support/approvals";
import { storeForTests } from "../../../tests/support/store";
import { companyWithBuyer, setOrderLimit } from "../../../tests/support/trade";
import { createInventory } from "../inventory/service";
import { approvalWindowEnd } from "../inventory/holds";
import { createOrderMail } from "../orders/mail";
import { orders } from "../orders/tables";
import { user } from "../users/tables";
import { createExpireHolds } from "../workflows/expire-holds";

/**
 * The approval window (docs/approvals.md): an order awaiting an owner's approval keeps its stock
 * for APPROVAL_WINDOW_BUSINESS_DAYS (3) business days, even for a buyer whose address is not
 * verified (their unpaid orders hold 30 minutes); the owners are reminded once before it ends;
 * when it ends the order is cancelled and the buyer told. Time moves by a clock handed in.
 */

type Member = TestAccount & { id: string };
let owner: Member;
let buyer: Member;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const { t, call, admin } = storeForTests({
  admin: "window-admin@example.com",
  shipsToTestAddress: true,
});
beforeAll(async () => {
  const company = await companyWithBuyer(t.app, admin);
  ({ owner, buyer } = company);
  // An invited buyer who never verified their address: 30-minute holds on unpaid orders.
  await t.database.db.update(user).set({ emailVerified: false }).where(eq(user.id, buyer.id));
  const limit = await setOrderLimit(t.app, owner, company.id, buyer.id, 100);
  expect(limit.statusCode, limit.body).toBe(200);
});

const overTheLimit = () => orderOverTheLimit(t, buyer);

/** What the services queue, instead of the outbox (these are not the app's jobs). */
const queued: { to: string; subject: string; text: string; key: string }[] = [];
const mailer = {
  sendIn: async (_tx: unknown, m: { to: string; subject: string; text: string }, key: string) =>
    void queued.push({ to: m.to, subject: m.subject, text: m.text, key }),
  queueSql: () => Promise.reject(new Error("nothing is placed here")),
};
const approvalsAt = (ms: number) => approvalServiceAt(t, ms, mailer);
const sweepAt = (ms: number) =>
  createExpireHolds(
    createInventory(t.database.db),
    createOrderMail(mailer, "http://store.test"),
    undefined,
    () => new Date(ms),
  )();

test("the window counts business days: a Friday's order waits until Wednesday", () => {
  const friday = new Date("2026-12-04T10:00:00Z");
  expect(approvalWindowEnd(friday, 3).toISOString()).toBe("2026-12-09T10:00:00.000Z");
  expect(approvalWindowEnd(new Date("2026-12-05T08:00:00Z"), 3).toISOString()).toBe(
    "2026-12-09T08:00:00.000Z",
  );
  expect(approvalWindowEnd(new Date("2026-11-30T09:00:00Z"), 3).toISOString()).toBe(
    "2026-12-03T09:00:00.000Z",
  );
});

test("an unverified buyer's order awaiting approval keeps its stock for the window, not 30 minutes", async () => {
  const row = await overTheLimit();
  const expected = approvalWindowEnd(row.createdAt, 3).getTime();
  expect(Math.abs(row.holdExpiresAt.getTime() - expected)).toBeLessThan(10_000);
  expect(row.holdExpiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThanOrEqual(3 * DAY);
});

test("the owners are reminded once before the window ends; two days later the owner still approves", async () => {
  const row = await overTheLimit();
  const end = row.holdExpiresAt.getTime();
  const mine = () => queued.filter((q) => q.key.startsWith(`order-approval-reminder:${row.id}:`));
  expect(await approvalsAt(end - 25 * HOUR).remindExpiring()).toBe(0);
  expect(await approvalsAt(end - 23 * HOUR).remindExpiring()).toBeGreaterThanOrEqual(1);
  await approvalsAt(end - 22 * HOUR).remindExpiring();
  expect(mine()).toEqual([
    expect.objectContaining({
      to: owner.email,
      subject: expect.stringContaining(`Reminder: order ${orderNumberText(row.number)}`),
    }),
  ]);
  expect(mine()[0]!.text).toContain("If nobody approves or declines it by then");

  // Two days on, the sweeper leaves it waiting, and the owner approves it.
  expect(await sweepAt(row.createdAt.getTime() + 2 * DAY)).toBe(0);
  const approved = await call(owner, "POST", `/api/approvals/${row.id}/approve`, {});
  expect(approved.statusCode, approved.body).toBe(200);
  expect(approved.json().order.status).toBe("unpaid");
});

test("when the window ends the order is cancelled and the buyer told", async () => {
  const row = await overTheLimit();
  const statusOf = async () =>
    (await t.database.db.select().from(orders).where(eq(orders.id, row.id)))[0]!.status;
  await sweepAt(row.holdExpiresAt.getTime() - 60_000);
  expect(await statusOf()).toBe("awaiting_approval");
  await sweepAt(row.holdExpiresAt.getTime() + 1_000);
  expect(await statusOf()).toBe("cancelled");
  const told = queued.find(
    (q) => q.to === buyer.email && q.text.includes(orderNumberText(row.number)),
  );
  expect(told?.subject).toContain("was cancelled");
  expect(told?.text).toContain("was not approved by your company's owners before its hold ended");
});
