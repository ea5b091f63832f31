import { eq, sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { testCheckout } from "../../../tests/support/checkout-service";
import { TEST_SHIP_TO, shipsToTestAddress } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { orderOfNewPart } from "../../../tests/support/part-orders";
import { eventually, messagesFor, waitForMail } from "../../../tests/support/mailbox";
import { sessionHeaders } from "../../../tests/support/requests";
import { createTestApp, type TestApp } from "../../../tests/support/test-app";
import { appForTests } from "../../../tests/support/store";
import { getFreePort } from "../db/free-port";
import { orders } from "./tables";
import { mailTime } from "./mail";
import { user } from "../users/tables";
import { CLIENT_GONE_MESSAGE } from "../checkout/workflow";
import { startLocalSmtpServer } from "../mail/local-smtp";
import { MAIL_QUEUE } from "../mail/mailer";
import { startQueuedMailer } from "../../../tests/support/mailer";
import { payWithTestCard, cancelOrderAsAdmin } from "../../../tests/support/payments";
import { startSilentSmtp } from "../../../tests/support/test-smtp";
import { createOrderMail } from "./mail";
import { companyAddressInputSchema } from "../../contract/addresses";

const PUBLIC_URL = "http://shop.example.test:8080";
const quiet = { info() {}, warn() {}, error() {} };

const { t, call } = appForTests({
  env: { PUBLIC_URL, HOLD_SWEEP_SECONDS: "1", HOLD_WARNING_HOURS: "2" },
  shipsToTestAddress: true,
});

async function placeOrder(app: TestApp, who: TestAccount, priceCents = 1250, qty = 2) {
  const { res, product: p } = await orderOfNewPart(app, who, qty, { priceCents });
  if (res.statusCode !== 201 && res.statusCode !== 200) {
    throw new Error(`order: ${res.statusCode} ${res.body}`);
  }
  return { order: res.json().order as { _id: string; number: string; total: number }, product: p };
}

async function pay(who: TestAccount, orderId: string): Promise<string> {
  const { charged, paid } = await payWithTestCard(t.app, who, orderId);
  expect(paid.statusCode).toBe(200);
  return charged.json().transactionId as string;
}

async function makeAdmin(app: TestApp): Promise<TestAccount> {
  const admin = await signUp(app.app);
  await app.database.db.update(user).set({ role: "admin" }).where(eq(user.email, admin.email));
  return admin;
}

const ship = (app: TestApp, admin: TestAccount, id: string) =>
  app.app.inject({
    method: "PATCH",
    url: `/api/orders/${id}/status`,
    headers: sessionHeaders(admin),
    payload: { status: "shipped" },
  });

/** Waits until every queued email to `to` has been sent. */
const allMailSent = (to: string) =>
  eventually(async () => {
    const { rows } = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pgboss.job
          where name = ${MAIL_QUEUE} and data->>'to' = ${to} and state <> 'completed'`,
    );
    return rows[0]!.n === 0 ? true : undefined;
  }, `the mail to ${to} to be sent`);

test("placed, paid and shipped: one email each, with the lines, the total, the transaction id and PUBLIC_URL links", async () => {
  const customer = await signUp(t.app, { name: "Ada Driver" });
  const { order, product } = await placeOrder(t, customer, 1250, 2);

  const placed = await waitForMail(t.app, customer.email, /is placed/);
  expect(placed.subject).toBe(`Your PartsWorks order ${order.number} is placed`);
  expect(placed.text).toContain("Hello Ada Driver,");
  expect(placed.text).toContain(`2 × ${product.name}  $25.00`);
  expect(placed.text).toContain("Total  $25.00");
  expect(placed.html).toContain("PartsWorks");
  expect(placed.html).toContain(`2 × ${product.name}`);
  expect(placed.links).toContain(`${PUBLIC_URL}/dashboard/payment/${order._id}`);

  const transactionId = await pay(customer, order._id);
  const paid = await waitForMail(t.app, customer.email, /payment received/i);
  expect(paid.text).toContain(`Transaction id: ${transactionId}.`);
  expect(paid.html).toContain(transactionId);
  expect(paid.links).toContain(`${PUBLIC_URL}/dashboard/orders/${order._id}`);

  const admin = await makeAdmin(t);
  expect((await ship(t, admin, order._id)).statusCode).toBe(200);
  const shipped = await waitForMail(t.app, customer.email, /has shipped/);
  expect(shipped.text).toContain(`Your order ${order.number} is on its way.`);
  // Shipped without tracking: the email says nothing of a carrier.
  expect(shipped.text).not.toMatch(/tracking|Track your parcel/);
  // Shipping the shipped order again changes nothing and sends nothing.
  expect((await ship(t, admin, order._id)).statusCode).toBe(200);

  // Exactly one of each, once every job of this customer is done.
  await allMailSent(customer.email);
  const subjects = (await messagesFor(t.app, customer.email)).map((m) => m.subject).sort();
  expect(subjects.filter((s) => s.includes(order.number))).toEqual([
    `Payment received for your PartsWorks order ${order.number}`,
    `Your PartsWorks order ${order.number} has shipped`,
    `Your PartsWorks order ${order.number} is placed`,
  ]);
});

test("shipped with a carrier and tracking number: the email names them and links the carrier's tracking page", async () => {
  const customer = await signUp(t.app, { name: "Ada Driver" });
  const { order } = await placeOrder(t, customer);
  await pay(customer, order._id);
  const admin = await makeAdmin(t);
  const res = await call(admin, "PATCH", `/api/orders/${order._id}/status`, {
    status: "shipped",
    carrier: "ups",
    trackingNumber: " 1z 999aa1 0123456784 ",
  });
  expect(res.statusCode).toBe(200);

  const shipped = await waitForMail(t.app, customer.email, /has shipped/);
  const url = "https://www.ups.com/track?tracknum=1Z999AA10123456784";
  expect(shipped.text).toContain("It travels with UPS, tracking number 1Z999AA10123456784.");
  expect(shipped.text).toContain(`Track your parcel: ${url}`);
  expect(shipped.html).toContain("1Z999AA10123456784");
  expect(shipped.links).toContain(url);
  expect(shipped.links).toContain(`${PUBLIC_URL}/dashboard/orders/${order._id}`);
});

test("an admin cancelling an unpaid order (one, or all of an account's) emails the customer once per order", async () => {
  const customer = await signUp(t.app, { name: "Cy Cancel" });
  const { order: one, product } = await placeOrder(t, customer, 990, 3);
  const admin = await makeAdmin(t);
  const cancel = () => cancelOrderAsAdmin(t.app, admin, one._id);
  expect((await cancel()).statusCode).toBe(200);
  const mail = await waitForMail(t.app, customer.email, new RegExp(`${one.number} was cancelled`));
  expect(mail.text).toContain("Hello Cy Cancel,");
  expect(mail.text).toContain(`We cancelled your unpaid order ${one.number}`);
  expect(mail.text).toContain(`3 × ${product.name}  $29.70`);
  expect(mail.links).toContain(`${PUBLIC_URL}`);
  // Cancelling it again changes nothing and sends nothing more.
  expect((await cancel()).statusCode).toBe(200);

  // "Cancel holds": each of the account's unpaid orders gets its own message.
  const { order: two } = await placeOrder(t, customer, 500, 1);
  const [row] = await t.database.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, customer.email.toLowerCase()));
  const holds = await call(admin, "DELETE", `/api/holds/${row!.id}`);
  expect(holds.statusCode).toBeLessThan(300);
  await waitForMail(t.app, customer.email, new RegExp(`${two.number} was cancelled`));
  await allMailSent(customer.email);
  const cancelled = (await messagesFor(t.app, customer.email)).filter((m) =>
    m.subject.endsWith("was cancelled"),
  );
  expect(cancelled.map((m) => m.subject).sort()).toEqual(
    [
      `Your PartsWorks order ${one.number} was cancelled`,
      `Your PartsWorks order ${two.number} was cancelled`,
    ].sort(),
  );
});

test("hold about to expire is sent once, then the cancellation when the hold ends", async () => {
  const customer = await signUp(t.app);
  const { order } = await placeOrder(t, customer);
  // Placed 47 hours ago, its hold ends in an hour: inside the 2-hour warning.
  await t.database.db
    .update(orders)
    .set({
      createdAt: sql`now() - interval '47 hours'`,
      holdExpiresAt: sql`now() + interval '1 hour'`,
    })
    .where(eq(orders.id, order._id));
  const warning = await waitForMail(t.app, customer.email, /is held until/);
  expect(warning.text).toContain("not paid yet");
  expect(warning.links).toContain(`${PUBLIC_URL}/dashboard/payment/${order._id}`);

  // The hold ends: the sweeper cancels the order and says so.
  await t.database.db
    .update(orders)
    .set({ holdExpiresAt: sql`now() - interval '1 second'` })
    .where(eq(orders.id, order._id));
  const cancelled = await waitForMail(t.app, customer.email, /was cancelled/);
  expect(cancelled.text).toContain("Nothing was charged.");
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
  expect(row!.status).toBe("cancelled");
  // The sweeper ran many times meanwhile (every second): still one reminder.
  const mine = await messagesFor(t.app, customer.email);
  expect(mine.filter((m) => /is held until/.test(m.subject))).toHaveLength(1);
  expect(mine.filter((m) => /was cancelled/.test(m.subject))).toHaveLength(1);
});

test("an order whose transaction rolls back queues no mail; the same placement committed does", async () => {
  const smtp = await startLocalSmtpServer();
  const mailer = startQueuedMailer({
    databaseUrl: t.database.url,
    smtpUrl: smtp.url,
    from: "PartsWorks <test@example.com>",
    retryDelaySeconds: 1,
    retryLimit: 3,
    log: quiet,
  });
  try {
    const db = t.database.db;
    const service = testCheckout(db, { notify: createOrderMail(mailer, PUBLIC_URL) });
    const account = await signUp(t.app);
    const [u] = await db.select().from(user).where(eq(user.email, account.email));
    const customer = { id: u!.id, email: u!.email, name: u!.name };
    const p = await insertProduct(db, { minimumOrder: 1, availableQuantity: 100 });
    // The last step before the commit fails (the client went away): the email queued with the
    // order goes with it.
    const place = (clientWaiting: boolean) =>
      service.placeLines(
        customer,
        [{ productId: p.id, qty: 1 }],
        { phone: "5550100", address: "1 Dock Road" },
        () => clientWaiting,
        // The test address as the order routes hand it on (parsed: no company, no second line).
        { shipTo: companyAddressInputSchema.parse(TEST_SHIP_TO) },
      );
    const jobs = async () =>
      (
        await db.execute<{ n: number }>(
          sql`select count(*)::int as n from pgboss.job
              where name = ${MAIL_QUEUE} and data->>'to' = ${account.email}
                and data->>'subject' like '%order%'`,
        )
      ).rows[0]!.n;

    await expect(place(false)).rejects.toThrow(CLIENT_GONE_MESSAGE);
    expect(await db.select().from(orders).where(eq(orders.userId, customer.id))).toHaveLength(0);
    expect(await jobs()).toBe(0);

    const placed = await place(true);
    expect(await jobs()).toBe(1);
    // The test app's own mailer works the same queue: whichever sender takes the job delivers it
    // to its own SMTP server, so both mailboxes are looked at.
    const received = async () =>
      [
        ...smtp.messages().filter((m) => m.to.includes(account.email)),
        ...(await messagesFor(t.app, account.email)),
      ].filter((m) => /order/i.test(m.subject));
    await eventually(
      async () => (await received()).find((m) => m.subject.includes(placed.number)),
      "the committed order's email",
    );
    // Nothing else ever came for the rolled-back one.
    expect(await received()).toHaveLength(1);
  } finally {
    await mailer.stop();
    await smtp.stop();
  }
});

test("SMTP not answering while 50 orders are placed: every order succeeds without waiting for it, and all 50 emails arrive once, when it is back", async () => {
  const port = await getFreePort();
  // First a server that accepts connections and never greets: a sender waits for it up to its
  // greeting timeout (10 s, DEFAULT_SMTP_TIMEOUTS). An order that waited for its email would
  // wait that long: 50 of them would outlast this test (a condition, not a stopwatch).
  const { goDown } = await startSilentSmtp(port);
  const down = await createTestApp(
    {
      PUBLIC_URL,
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_RETRY_DELAY_SECONDS: "1",
    },
    { seed: shipsToTestAddress },
  );
  try {
    const customer = await signUp(down.app);
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) ids.push((await placeOrder(down, customer, 100, 1)).order.number);
    expect(ids).toHaveLength(50);
    // Now the server is down: its connections close and the port refuses.
    await goDown();

    const placedJobs = () =>
      down.database.db.execute<{ state: string; retry_count: number }>(
        sql`select state, retry_count from pgboss.job
            where name = ${MAIL_QUEUE} and data->>'to' = ${customer.email}
              and data->>'subject' like '%is placed'`,
      );
    // All 50 are kept and retried while the server is down.
    await eventually(
      async () => {
        const rows = (await placedJobs()).rows;
        return rows.length === 50 && rows.every((r) => r.state === "retry" || r.retry_count >= 1)
          ? rows
          : undefined;
      },
      "50 messages waiting for a retry",
      30_000,
    );

    const smtp = await startLocalSmtpServer({ port });
    try {
      await eventually(
        async () => {
          const rows = (await placedJobs()).rows;
          return rows.length === 50 && rows.every((r) => r.state === "completed")
            ? rows
            : undefined;
        },
        "all 50 messages to be sent",
        60_000,
      );
      // Only the order emails (the sign-up's verification link goes to the same address).
      const received = smtp
        .messages()
        .filter((m) => m.to.includes(customer.email) && m.subject.endsWith(" is placed"));
      expect(received).toHaveLength(50);
      const orderRefs = new Set(received.map((m) => m.subject.match(/order (PW-\d+)/)?.[1]));
      expect([...orderRefs].sort()).toEqual([...ids].sort());
    } finally {
      await smtp.stop();
    }
  } finally {
    await down.close();
  }
}, 180_000);

test("an email's moment is UTC to the minute, its day as the pages write one", () => {
  expect(mailTime("2026-09-12T04:05:59Z")).toBe("12 Sep 2026, 04:05 UTC");
  expect(mailTime("2026-11-24T14:05:00-05:00")).toBe("24 Nov 2026, 19:05 UTC");
});
