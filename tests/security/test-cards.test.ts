import { Writable } from "node:stream";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildApp } from "../../src/server/app";
import { loadConfig, NO_CARD_GATEWAY_MESSAGE } from "../../src/server/config";
import { createLogger } from "../../src/server/logging";
import { TEST_PAYMENT_NOTICE } from "../../src/server/orders/mail";
import { signUp, signUpAdmin, type TestAccount } from "../support/accounts";
import { shipsToTestAddress } from "../support/destination";
import { waitForMail } from "../support/mailbox";
import { paidOrderOfNewPart } from "../support/payments";
import { injectAs } from "../support/requests";
import { createTestApp, type TestApp } from "../support/test-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

// Penetration test of 75cca6d, finding 2: a production start without Stripe keys took test
// cards, said nothing, and a $999.99 order became paid with 4242 4242 4242 4242.

const prodEnv = {
  NODE_ENV: "production",
  BETTER_AUTH_SECRET: "test-secret-that-is-long-enough-0123456789",
  LOG_LEVEL: "info",
};

test("production without a real card gateway refuses to start, saying how to choose one", () => {
  expect(() => loadConfig(prodEnv)).toThrow(NO_CARD_GATEWAY_MESSAGE);
});

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

test("start-up always logs which gateway is live, and warns in production on test cards", async () => {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({
    ...prodEnv,
    DATABASE_URL: database.url,
    PAYMENTS_GATEWAY: "test-card",
  });
  const app = await buildApp({ config, database, logger: createLogger("info", sink) });
  await app.close();
  const said = lines.find((l) => l.msg.startsWith("payments:"));
  expect(said).toMatchObject({ level: 40, msg: expect.stringContaining("TEST CARDS ONLY") });
});

/** A $999.99 part ordered and paid with the test card by `who`: the order's id. */
async function payWithTestCard(t: TestApp, who: TestAccount) {
  const { orderId } = await paidOrderOfNewPart(t, who, 1, {
    priceCents: 99_999,
    availableQuantity: 5,
  });
  return orderId;
}

test("an order paid with a test card is marked TEST for the customer and the admin", async () => {
  const t = await createTestApp(
    {
      NODE_ENV: "production",
      PAYMENTS_GATEWAY: "test-card",
      ADMIN_EMAILS: "cards-admin@example.com",
      ADMIN_2FA_REQUIRED: "false",
    },
    { seed: shipsToTestAddress },
  );
  try {
    const customer = await signUp(t.app);
    const admin = await signUpAdmin(t, { email: "cards-admin@example.com" });
    const orderId = await payWithTestCard(t, customer);
    const mine = await injectAs(t.app, customer, "GET", "/api/orders");
    expect(mine.json().find((o: { _id: string }) => o._id === orderId)).toMatchObject({
      paid: true,
      testPayment: true,
    });
    const all = await injectAs(t.app, admin, "GET", "/api/orders/all");
    expect(all.json().find((o: { _id: string }) => o._id === orderId)).toMatchObject({
      testPayment: true,
    });
  } finally {
    await t.close();
  }
});

test("the payment email of a test-card order says no money was taken", async () => {
  const t = await createTestApp({}, { seed: shipsToTestAddress });
  try {
    const customer = await signUp(t.app);
    await payWithTestCard(t, customer);
    const mail = await waitForMail(t.app, customer.email, /Payment received/);
    expect(mail.text).toContain(TEST_PAYMENT_NOTICE);
  } finally {
    await t.close();
  }
});
