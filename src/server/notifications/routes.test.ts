import { eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { messagesFor, waitForMail } from "../../../tests/support/mailbox";
import { placeTestOrder } from "../../../tests/support/destination";
import { appForTests } from "../../../tests/support/store";
import { payWithTestCard } from "../../../tests/support/payments";
import { user } from "../users/tables";

const { t, call } = appForTests({ shipsToTestAddress: true });

const get = (who: TestAccount) => call(who, "GET", "/api/user/notifications");
const put = (who: TestAccount, payload: unknown) =>
  call(who, "PUT", "/api/user/notifications", payload as object);

test("everything is on by default; a customer turns one off, the other stays, and only their own", async () => {
  const a = await signUp(t.app);
  const b = await signUp(t.app);
  expect((await get(a)).json()).toEqual({ orderShipped: true, holdReminder: true });

  const off = await put(a, { orderShipped: false });
  expect(off.statusCode).toBe(200);
  expect(off.json()).toEqual({ orderShipped: false, holdReminder: true });
  expect((await get(a)).json()).toEqual({ orderShipped: false, holdReminder: true });
  expect((await get(b)).json()).toEqual({ orderShipped: true, holdReminder: true });

  expect((await put(a, { holdReminder: false })).json()).toEqual({
    orderShipped: false,
    holdReminder: false,
  });
  expect((await put(a, { orderShipped: true })).json()).toEqual({
    orderShipped: true,
    holdReminder: false,
  });
});

test("bad input is a clear 400, never a 500", async () => {
  const a = await signUp(t.app);
  for (const payload of [
    { orderShipped: "no" },
    { orderPlaced: false },
    { holdReminder: null },
    [],
    // An empty change says nothing (the fuzz test's random bodies must not be accepted).
    {},
  ]) {
    const res = await put(a, payload);
    expect(res.statusCode, JSON.stringify(payload)).toBe(400);
  }
  expect((await get(a)).json()).toEqual({ orderShipped: true, holdReminder: true });
});

test("shipping emails turned off: the order is shipped without one; placed and paid still come", async () => {
  const customer = await signUp(t.app);
  const admin = await signUp(t.app);
  await t.database.db.update(user).set({ role: "admin" }).where(eq(user.email, admin.email));
  expect((await put(customer, { orderShipped: false })).statusCode).toBe(200);

  const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 10 });
  const placed = await placeTestOrder(t.app, customer, p.id, 1);
  const orderId = placed.json().order._id as string;
  await payWithTestCard(t.app, customer, orderId);
  const shipped = await call(admin, "PATCH", `/api/orders/${orderId}/status`, {
    status: "shipped",
  });
  expect(shipped.statusCode).toBe(200);
  await waitForMail(t.app, customer.email, /is placed/);
  await waitForMail(t.app, customer.email, /payment received/i);
  // Nothing about shipping was even queued (the outbox holds every message of this customer).
  const queued = await t.database.db.execute<{ subject: string }>(
    sql`select data->>'subject' as subject from pgboss.job where data->>'to' = ${customer.email}`,
  );
  expect(queued.rows.map((r) => r.subject).some((s) => /shipped/.test(s))).toBe(false);
  expect((await messagesFor(t.app, customer.email)).some((m) => /shipped/.test(m.subject))).toBe(
    false,
  );
});
