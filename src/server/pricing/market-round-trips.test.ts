import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signUpVerified, type TestAccount } from "../../../tests/support/accounts";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { watchQueries } from "../../../tests/support/query-spy";
import { injectAs } from "../../../tests/support/requests";
import { storeForTests } from "../../../tests/support/store";
import { createAnotherProcess } from "../../../tests/support/test-app";
import type { ProductListItem } from "../../contract/products";

/**
 * With MARKET_CHOICE on, the market a signed-in customer's request prices in (docs/pricing.md
 * "The market chosen": no `?market=`, no cookie, so their default delivery country chooses) costs
 * no statement once warm: the markets, the countries' tax rates and the customer's default
 * delivery country come from memory. Counted on the wire, against a process of the same store
 * with MARKET_CHOICE off. And the country kept is forgotten when the customer's addresses change:
 * at once in the process that wrote, through NOTIFY `addresses:<user id>` in another.
 */

/** A process of the store: its app and its pool (the statements counted are its pool's). */
interface Node {
  app: FastifyInstance;
  database: { pool: pg.Pool };
}

/** The statements `node`'s pool sent while it answered `url` for `who`, and the answer. */
async function statementsOf(node: Node, who: TestAccount, url: string) {
  const seen: string[] = [];
  let answer: Awaited<ReturnType<FastifyInstance["inject"]>> | undefined;
  await watchQueries(
    node.database.pool,
    (q) => seen.push(q.text.replace(/\s+/g, " ")),
    async () => {
      answer = await injectAs(node.app, who, "GET", url);
    },
  );
  expect(answer!.statusCode, answer!.body).toBe(200);
  return { statements: seen, answer: answer! };
}

/** The statements that read what chooses a market: the markets, tax rates, addresses. */
const marketReads = (statements: string[]) =>
  statements.filter((q) => /"?\b(markets|market_countries|tax_rates|addresses)\b"?/.test(q));

/**
 * What `node` sends for `url` once warm: asked until two answers in a row send the same
 * statements (the caches are trusted only once the change listener proves it hears, and the
 * sign-up's and the address's own notifications clear them once more).
 */
async function warm(node: Node, who: TestAccount, url: string): Promise<string[]> {
  let last = (await statementsOf(node, who, url)).statements;
  for (let tries = 0; tries < 200; tries++) {
    const next = (await statementsOf(node, who, url)).statements;
    if (next.join("\n") === last.join("\n") && marketReads(next).length === 0) return next;
    last = next;
  }
  throw new Error(`${url} still reads what chooses its market:\n${last.join("\n")}`);
}

const BERLIN = { ...TEST_SHIP_TO, city: "Berlin", region: "", postalCode: "10115", country: "DE" };
const LONDON = {
  ...TEST_SHIP_TO,
  city: "London",
  region: "",
  postalCode: "SW1A 1AA",
  country: "GB",
};

describe("MARKET_CHOICE on: a signed-in customer's market from memory", () => {
  const { t, call, admin } = storeForTests({
    admin: "market-trips-admin@example.com",
    shipsToTestAddress: true,
    env: { MARKET_CHOICE: "true" },
  });
  let off: Awaited<ReturnType<typeof createAnotherProcess>>;
  let other: Awaited<ReturnType<typeof createAnotherProcess>>;
  let partId: string;

  beforeAll(async () => {
    // The same store in two more processes: one with MARKET_CHOICE off (the statements to
    // compare with), one with it on (another node, told of address changes by NOTIFY).
    off = await createAnotherProcess(t, {
      ADMIN_EMAILS: "market-trips-admin@example.com",
      MARKET_CHOICE: "false",
    });
    other = await createAnotherProcess(t, {
      ADMIN_EMAILS: "market-trips-admin@example.com",
      MARKET_CHOICE: "true",
    });
    const rate = await call(admin, "POST", "/api/tax-rates", {
      country: "DE",
      region: "",
      postalCode: "",
      name: "VAT",
      rate: 19,
    });
    expect(rate.statusCode, rate.body).toBe(201);
    partId = (await insertProduct(t.database.db, { priceCents: 1250, minimumOrder: 1 })).id;
  });
  afterAll(async () => {
    await other?.close();
    await off?.close();
  });

  /** A customer with a German default address and a line in their cart. */
  async function germanCustomer(): Promise<TestAccount> {
    const me = await signUpVerified(t);
    const saved = await call(me, "POST", "/api/user/addresses", { ...BERLIN, isDefault: true });
    expect(saved.statusCode, saved.body).toBe(201);
    const put = await call(me, "PUT", `/api/cart/items/${partId}`, { qty: 1 });
    expect(put.statusCode, put.body).toBe(200);
    return me;
  }

  test("the list, the cart and a product's price send no more statements than with it off", async () => {
    const me = await germanCustomer();
    for (const url of ["/api/products?limit=50", "/api/cart", `/api/products/${partId}/price`]) {
      const on = await warm(t, me, url);
      const without = await warm(off, me, url);
      expect(
        on.length,
        `${url}\non:\n${on.join("\n")}\noff:\n${without.join("\n")}`,
      ).toBeLessThanOrEqual(without.length);
    }
    // And they are Europe's gross prices at Germany's 19 %: $12.50 × 0.92 = €11.50 → €13.69.
    const list = (await statementsOf(t, me, "/api/products?limit=50")).answer;
    expect(list.json<ProductListItem[]>().find((p) => p._id === partId)).toMatchObject({
      currency: "EUR",
      price: 13.69,
    });
    const price = (await statementsOf(t, me, `/api/products/${partId}/price`)).answer;
    expect(price.json()).toMatchObject({ currency: "EUR", yourPrice: 13.69 });
    expect((await statementsOf(t, me, "/api/cart")).answer.json()).toMatchObject({
      currency: "EUR",
      subtotal: 13.69,
    });
  });

  test("a new default address prices the next request in its market, in this process and in another", async () => {
    const me = await germanCustomer();
    const priceUrl = `/api/products/${partId}/price`;
    const currencyOn = async (node: Node) =>
      (await statementsOf(node, me, priceUrl)).answer.json<{ currency: string }>().currency;
    // Both processes keep Europe for the customer: no address read any more.
    for (const node of [t, other]) {
      expect(marketReads(await warm(node, me, priceUrl))).toEqual([]);
      expect(await currencyOn(node)).toBe("EUR");
    }
    const london = await call(me, "POST", "/api/user/addresses", { ...LONDON, isDefault: true });
    expect(london.statusCode, london.body).toBe(201);
    // The writing process forgot the customer as the change answered.
    expect(await currencyOn(t)).toBe("GBP");
    // The other heard it (NOTIFY addresses:<user id>).
    await expect.poll(() => currencyOn(other)).toBe("GBP");
    // Removing it makes Berlin the default again: Europe, everywhere.
    const removed = await call(me, "DELETE", `/api/user/addresses/${london.json().id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await currencyOn(t)).toBe("EUR");
    await expect.poll(() => currencyOn(other)).toBe("EUR");
  });

  test("a country's rate changed by another process reaches the prices kept: NOTIFY markets from tax_rates", async () => {
    const me = await germanCustomer();
    const priceUrl = `/api/products/${partId}/price`;
    expect(marketReads(await warm(t, me, priceUrl))).toEqual([]);
    const yourPrice = async () =>
      (await statementsOf(t, me, priceUrl)).answer.json<{ yourPrice: number }>().yourPrice;
    expect(await yourPrice()).toBe(13.69);
    // Written as another process would: €11.50 at 20 % is €13.80.
    await t.database.db.execute(
      sql`update tax_rates set rate_millipercent = 20000 where country = 'DE' and region = ''`,
    );
    try {
      await expect.poll(yourPrice).toBe(13.8);
    } finally {
      await t.database.db.execute(
        sql`update tax_rates set rate_millipercent = 19000 where country = 'DE' and region = ''`,
      );
      await expect.poll(yourPrice).toBe(13.69);
    }
  });

  test("a checkout to a saved address reads no address to choose its market: as many statements as with it off", async () => {
    const zone = await call(admin, "POST", "/api/shipping-zones", {
      name: "Germany",
      countries: ["DE"],
      methods: [{ name: "Standard", estimate: "3-5 business days", kind: "flat", price: 7.5 }],
    });
    expect(zone.statusCode, zone.body).toBe(201);
    const checkoutStatements = async (node: Node) => {
      const me = await germanCustomer();
      const addressId = (await injectAs(node.app, me, "GET", "/api/user/addresses")).json<
        { id: string }[]
      >()[0]!.id;
      await warm(node, me, "/api/cart");
      const quote = await injectAs(node.app, me, "POST", "/api/cart/quote", { addressId });
      expect(quote.statusCode, quote.body).toBe(200);
      const seen: string[] = [];
      let placed: Awaited<ReturnType<FastifyInstance["inject"]>> | undefined;
      await watchQueries(
        node.database.pool,
        (q) => seen.push(q.text.replace(/\s+/g, " ")),
        async () => {
          placed = await injectAs(node.app, me, "POST", "/api/checkout", {
            addressId,
            expectedTotal: quote.json().total,
          });
        },
      );
      expect(placed!.statusCode, placed!.body).toBe(201);
      // The order limits, kept in memory, are read by a process's first placement (and again
      // after its change bus missed a ping): not the market's, so not counted here.
      const statements = seen.filter((q) => !/ from "order_limit_settings"/.test(q));
      return { statements, order: placed!.json().order };
    };
    const on = await checkoutStatements(t);
    const without = await checkoutStatements(off);
    expect(on.order).toMatchObject({ currency: "EUR" });
    expect(without.order).toMatchObject({ currency: "USD" });
    expect(
      on.statements.filter((q) => /^select [^(]*from "addresses"/.test(q)),
      on.statements.join("\n"),
    ).toEqual([]);
    expect(
      on.statements.length,
      `on:\n${on.statements.join("\n")}\noff:\n${without.statements.join("\n")}`,
    ).toBeLessThanOrEqual(without.statements.length);
  });
});
