import { beforeAll, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { expectTooManyRequests } from "../../../tests/support/too-many";
import { requestsAs } from "../../../tests/support/requests";
import { QUOTE_LIMITS } from "./routes";
import { appForTests } from "../../../tests/support/store";

// Quote requests and thread messages are mailed, so each account and each client IP has a budget
// of them (issue 49: 40 in 1.2 s). Each test asks from addresses of its own, and spends whole
// budgets (80 requests, 80 messages): about 15 s alone, longer on a busy machine.
const { t } = appForTests();
let productId: string;
beforeAll(async () => {
  productId = (await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 100 })).id;
});

const call = requestsAs(() => t.app);

/** A customer with the part in their cart (a request leaves the cart as it is). */
async function buyer(): Promise<TestAccount> {
  const who = await signUp(t.app);
  const res = await call(who, "PUT", `/api/cart/items/${productId}`, { qty: 2 });
  expect(res.statusCode, res.body).toBe(200);
  return who;
}
const ask = (who: TestAccount, remoteAddress: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/quotes",
    headers: { cookie: who.cookie },
    payload: { note: "Fleet of 12 vans" },
    remoteAddress,
  });
const write = (who: TestAccount, quoteId: string, remoteAddress: string) =>
  t.app.inject({
    method: "POST",
    url: `/api/quotes/${quoteId}/messages`,
    headers: { cookie: who.cookie },
    payload: { body: "Can you do better on the price?" },
    remoteAddress,
  });

test("quote requests: an account's budget wherever it asks from, then an IP's across accounts", async () => {
  const { perUser, perIp } = QUOTE_LIMITS.request;
  const one = await buyer();
  for (let i = 0; i < perUser.max; i++) {
    expect((await ask(one, `203.0.113.${i + 1}`)).statusCode).toBe(201);
  }
  expectTooManyRequests(await ask(one, "203.0.113.200"));

  // One office: accounts from one IP, each within its own budget, until the IP's is spent.
  const office = "198.51.100.50";
  let asked = 0;
  while (asked < perIp.max) {
    const who = await buyer();
    for (let i = 0; i < perUser.max && asked < perIp.max; i++, asked++) {
      expect((await ask(who, office)).statusCode).toBe(201);
    }
  }
  const fresh = await buyer();
  expectTooManyRequests(await ask(fresh, office));
  expect((await ask(fresh, "198.51.100.51")).statusCode).toBe(201);
}, 120_000);

test("quote messages: an account's budget wherever it writes from, then an IP's across accounts", async () => {
  const { perUser, perIp } = QUOTE_LIMITS.message;
  const quoteOf = async (who: TestAccount) =>
    (await ask(who, `192.0.2.${Math.floor(Math.random() * 250) + 1}`)).json().id as string;
  const one = await buyer();
  const quote = await quoteOf(one);
  for (let i = 0; i < perUser.max; i++) {
    expect((await write(one, quote, `203.0.113.${i + 1}`)).statusCode).toBe(201);
  }
  expectTooManyRequests(await write(one, quote, "203.0.113.200"));

  const office = "198.51.100.60";
  let written = 0;
  while (written < perIp.max) {
    const who = await buyer();
    const theirs = await quoteOf(who);
    for (let i = 0; i < perUser.max && written < perIp.max; i++, written++) {
      expect((await write(who, theirs, office)).statusCode).toBe(201);
    }
  }
  const fresh = await buyer();
  const last = await quoteOf(fresh);
  expectTooManyRequests(await write(fresh, last, office));
  expect((await write(fresh, last, "198.51.100.61")).statusCode).toBe(201);
}, 120_000);
