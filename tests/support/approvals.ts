import { eq } from "drizzle-orm";
import { fixedOrderRules } from "../../src/server/orders/limits";
import { expect } from "vitest";
import { createApprovalMail } from "../../src/server/approvals/mail";
import { createApprovalService } from "../../src/server/approvals/service";
import type { ApprovalDefaults } from "../../src/server/approvals/settings";
import { createInventory } from "../../src/server/inventory/service";
import type { Mailer } from "../../src/server/mail/mailer";
import { orders } from "../../src/server/orders/tables";
import type { TestAccount } from "./accounts";
import { placeTestOrder } from "./destination";
import { insertProduct } from "./factories";
import type { TestApp } from "./test-app";

const HOUR = 3_600_000;

/**
 * The approval service on `t`'s database with its clock at `ms` (48-hour holds, limits no test
 * order reaches), its emails sent through `mailer`: for tests of the approval window and its
 * reminders. `defaults` are the environment's window and reminder, when the test sets them.
 */
export const approvalServiceAt = (
  t: TestApp,
  ms: number,
  mailer: Pick<Mailer, "sendIn">,
  defaults?: ApprovalDefaults,
) =>
  createApprovalService(t.database.db, createInventory(t.database.db), {
    rules: fixedOrderRules({
      holdMs: 48 * HOUR,
      limits: {
        maxShare: 1,
        freeUnits: 10,
        maxValueCents: 1e9,
        perMinute: 100,
        newCustomerHoldMs: 30 * 60_000,
        newCustomerShare: 1,
      },
    }),
    mail: createApprovalMail(mailer, "http://store.test"),
    now: () => new Date(ms),
    ...(defaults && { defaults }),
  });

/**
 * The buyer orders 3 of a new $50.00 part, over an order limit of $100 (set by the test): the
 * order's row, awaiting approval.
 */
export async function orderOverTheLimit(t: TestApp, buyer: TestAccount) {
  const p = await insertProduct(t.database.db, {
    priceCents: 5000,
    minimumOrder: 1,
    availableQuantity: 100,
  });
  const res = await placeTestOrder(t.app, buyer, p.id, 3, "1 Fleet Yard");
  expect(res.statusCode, res.body).toBe(201);
  const order = res.json().order as { _id: string; status: string };
  expect(order.status).toBe("awaiting_approval");
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
  return row!;
}
