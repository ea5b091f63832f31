import { eq, sql } from "drizzle-orm";
import { fixedOrderRules } from "../orders/limits";
import { describe, expect, test } from "vitest";
import { holdMessages, orderMessages } from "../../contract/orders";
import { signUpTrusted, signUpVerified } from "../../../tests/support/accounts";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { watchQueries } from "../../../tests/support/query-spy";
import type { HoldLimits } from "../config";
import { addresses } from "../addresses/tables";
import { holdWindows } from "../inventory/tables";
import { orders } from "../orders/tables";
import { products } from "../catalog/tables";
import { GARAGE_GROUP_ID, priceRules } from "../pricing/tables";
import { createInventory } from "../inventory/service";
import { createPlacementMemory } from "./memory";
import type { ProductFacts } from "./decide";
import type { UnlockedRead } from "./read";
import type { Customer, OrderToWrite } from "./write";
import { createCheckout } from "./workflow";
import { appForTests } from "../../../tests/support/store";

// Orders decided from a process's memory (docs/decisions/011-checkout-workflow.md, "Decided from
// memory") must be the orders a fresh read would decide, whatever changed since the memory was
// made: in another process, by an admin, by a payment. Two checkouts, each with its own memory,
// stand for two server processes on one database.

// More sign-ups than the default budget of one address (every test makes its customers).
const { t } = appForTests({ env: { AUTH_RATE_LIMIT_PER_IP: "100" }, shipsToTestAddress: true });
const LIMITS: HoldLimits = {
  maxShare: 0.5,
  freeUnits: 10,
  maxValueCents: 2_500_000,
  perMinute: 100,
  newCustomerHoldMs: 30 * 60_000,
  newCustomerShare: 0.2,
};
const HOLD_MS = 48 * 3_600_000;
const processOf = (limits: Partial<HoldLimits> = {}) =>
  createCheckout(createInventory(t.database.db), {
    currency: "USD",
    rules: fixedOrderRules({ holdMs: HOLD_MS, limits: { ...LIMITS, ...limits } }),
    memory: createPlacementMemory(),
  });
/** A checkout that reads every time: what the answer must be. */
const reading = () =>
  createCheckout(createInventory(t.database.db), {
    currency: "USD",
    rules: fixedOrderRules({ holdMs: HOLD_MS, limits: LIMITS }),
  });

/** The customer's default address: where the memory decides their orders go. */
const withDefaultAddress = (userId: string) =>
  t.database.db.insert(addresses).values({ userId, ...TEST_SHIP_TO, isDefault: true });

/** A trusted customer (a new one whose holds are capped is placed under the lock). */
async function customer(): Promise<Customer> {
  const { id, email, name } = await signUpTrusted(t);
  await withDefaultAddress(id);
  return { id, email, name, emailVerified: true };
}

const part = (availableQuantity = 100) =>
  insertProduct(t.database.db, { priceCents: 1000, minimumOrder: 1, availableQuantity });

type Checkout = ReturnType<typeof processOf>;
const order = (checkout: Checkout, who: Customer, productId: string, qty = 1) =>
  checkout.placeOne(who, { productId, orderQty: qty, phonrNo: "5550100", Address: "1 Dock Road" });

/** What `work` answered (or refused with), and how many placement reads it made. */
async function placing(work: () => Promise<unknown>) {
  let reads = 0;
  let answer: unknown;
  await watchQueries(
    t.database.pool,
    (q) => {
      if (/^\s*with wanted as/.test(q.text)) reads += 1;
    },
    async () => {
      answer = await work().catch((err: unknown) => err);
    },
  );
  return { answer, reads };
}

/** An order paid in another process (without the customer's lock, as a payment is). */
const paidElsewhere = (orderId: string) =>
  t.database.db
    .update(orders)
    .set({
      status: "paid",
      transactionId: `paid-elsewhere-${orderId}`,
      paidWith: "test-card",
      paidAt: new Date(),
    })
    .where(eq(orders.id, orderId));

/** An HTTP refusal as the client sees it. */
const refusal = (err: unknown) => {
  const e = err as { statusCode?: number; message?: string; fields?: unknown };
  return { statusCode: e.statusCode, message: e.message, fields: e.fields };
};

/**
 * A process that knows `who` (from an order of a part of its own) and `productIds` (each read by
 * another customer's order of one unit).
 */
async function primed(productIds: string[], who: Customer) {
  const checkout = processOf();
  await order(checkout, who, (await part()).id);
  const primer = await customer();
  for (const id of productIds) await order(checkout, primer, id);
  return checkout;
}

test("a known customer ordering a known part is decided from memory: no read, the order a read makes", async () => {
  const me = await customer();
  const p = await part();
  const checkout = await primed([p.id], me);
  const { answer, reads } = await placing(() => order(checkout, me, p.id, 3));
  expect(reads).toBe(0);
  const placed = answer as Awaited<ReturnType<typeof order>>;
  expect(placed.items).toMatchObject([{ productId: p.id, qty: 3, unitPrice: 10 }]);
  expect(placed.status).toBe("unpaid");
  const [stock] = await t.database.db.select().from(products).where(eq(products.id, p.id));
  expect(stock!.availableQuantity).toBe(100 - 1 - 3);
  // Its hold: the full 48 hours, as a read would give.
  const ends = new Date(placed.holdExpiresAt!).getTime();
  expect(Math.abs(ends - (Date.now() + HOLD_MS))).toBeLessThan(60_000);
});

test("a customer in a group of their own (no company) is not remembered: its rules were read for one order's parts", async () => {
  const me = await customer();
  await t.database.db.execute(
    sql`update "user" set customer_group_id = ${GARAGE_GROUP_ID} where id = ${me.id}`,
  );
  const p = await part();
  await t.database.db
    .insert(priceRules)
    .values({ groupId: GARAGE_GROUP_ID, percent: 20, scope: "part", productId: p.id });
  // Their first order (another part) read Garage's rules for that part alone.
  const checkout = await primed([p.id], me);
  const { answer, reads } = await placing(() => order(checkout, me, p.id, 2));
  expect(reads).toBe(1);
  expect((answer as Awaited<ReturnType<typeof order>>).items).toMatchObject([{ unitPrice: 8 }]);
});

describe("what changed since the memory was made is what the order is decided on", () => {
  test("a price changed by an admin: the new price", async () => {
    const me = await customer();
    const p = await part();
    const checkout = await primed([p.id], me);
    await t.database.db.update(products).set({ priceCents: 1234 }).where(eq(products.id, p.id));
    const { answer, reads } = await placing(() => order(checkout, me, p.id, 2));
    expect(reads).toBe(1);
    expect((answer as Awaited<ReturnType<typeof order>>).items).toMatchObject([
      { unitPrice: 12.34 },
    ]);
  });

  test("the same part ordered by the customer in another process: refused as a duplicate", async () => {
    const me = await customer();
    const p = await part();
    const checkout = await primed([p.id], me);
    await order(processOf(), me, p.id);
    const { answer, reads } = await placing(() => order(checkout, me, p.id));
    expect(reads).toBe(1);
    expect(refusal(answer)).toMatchObject({ statusCode: 409, message: orderMessages.duplicate });
  });

  test("stock taken elsewhere: refused as a read refuses it, for the stock or for the share", async () => {
    const me = await customer();
    const [short, shared] = [await part(), await part()];
    const checkout = await primed([short.id, shared.id], me);
    // Taken by other processes: the memory still counts 99 of each.
    await t.database.db
      .update(products)
      .set({ availableQuantity: 4 })
      .where(eq(products.id, short.id));
    await t.database.db
      .update(products)
      .set({ availableQuantity: 30 })
      .where(eq(products.id, shared.id));
    const other = await customer();
    for (const [id, qty] of [
      [short.id, 5],
      [shared.id, 16],
    ] as const) {
      const expected = refusal(await order(reading(), other, id, qty).catch((e: unknown) => e));
      const { answer } = await placing(() => order(checkout, me, id, qty));
      expect(refusal(answer)).toEqual(expected);
    }
    expect(
      refusal(await order(reading(), other, shared.id, 16).catch((e: unknown) => e)),
    ).toMatchObject({
      statusCode: 422,
      message: holdMessages.share(15),
    });
  });

  test("stock delivered elsewhere: the memory's refusal is read again, and the order placed", async () => {
    const me = await customer();
    const p = await part(3);
    const checkout = await primed([p.id], me);
    await t.database.db
      .update(products)
      .set({ availableQuantity: 100 })
      .where(eq(products.id, p.id));
    const { answer, reads } = await placing(() => order(checkout, me, p.id, 5));
    expect(reads).toBe(1);
    expect((answer as Awaited<ReturnType<typeof order>>).items).toMatchObject([{ qty: 5 }]);
  });

  test("a sold-out part: refused from memory, confirmed on the stock as it is (not the whole read)", async () => {
    const me = await customer();
    const p = await part(3);
    const checkout = await primed([p.id], me); // 2 left, as the memory knows
    const statements: string[] = [];
    const expected = refusal(await order(reading(), await customer(), p.id, 5).catch((e) => e));
    let answer: unknown;
    await watchQueries(
      t.database.pool,
      (q) => statements.push(q.text.trim().slice(0, 40)),
      async () => {
        answer = await order(checkout, me, p.id, 5).catch((e: unknown) => e);
      },
    );
    expect(refusal(answer)).toEqual(expected);
    expect(refusal(answer)).toMatchObject({ message: orderMessages.lessThen(2) });
    expect(statements).toEqual([expect.stringMatching(/^select exists \(select 1 from "user"/)]);
  });

  test("a refusal for the value held, from memory, is read again: an order paid since holds nothing", async () => {
    const me = await customer();
    const [p, q] = [await part(), await part()];
    const small = processOf({ maxValueCents: 2_500 });
    await order(small, await customer(), q.id);
    const first = await order(small, me, p.id, 2); // $20 of the $25 held
    await paidElsewhere(first._id);
    const { answer, reads } = await placing(() => order(small, me, q.id, 1));
    expect(reads).toBe(1);
    expect((answer as Awaited<ReturnType<typeof order>>).items).toMatchObject([{ qty: 1 }]);
  });

  test("an order paid elsewhere: the part ordered again, held for the full time", async () => {
    const me = await customer();
    const p = await part();
    const checkout = await primed([p.id], me);
    const first = await order(checkout, me, p.id);
    // Paid in another process: paid, its hold windows closed (as payments/service.ts does).
    await paidElsewhere(first._id);
    await t.database.db.delete(holdWindows).where(eq(holdWindows.userId, me.id));
    const { answer, reads } = await placing(() => order(checkout, me, p.id));
    expect(reads).toBe(1);
    const again = answer as Awaited<ReturnType<typeof order>>;
    expect(again.status).toBe("unpaid");
    expect(new Date(again.holdExpiresAt!).getTime()).toBeGreaterThan(
      new Date(first.holdExpiresAt!).getTime(),
    );
  });

  test("a new customer's first order paid since: the full hold of a trusted customer", async () => {
    const me = await signUpVerified(t);
    await withDefaultAddress(me.id);
    const newcomer: Customer = { id: me.id, email: me.email, name: me.name, emailVerified: true };
    const p = await part();
    const uncapped = processOf({ newCustomerShare: 1 });
    const first = await order(uncapped, newcomer, (await part()).id);
    const shortHold = new Date(first.holdExpiresAt!).getTime();
    expect(Math.abs(shortHold - (Date.now() + LIMITS.newCustomerHoldMs))).toBeLessThan(60_000);
    await order(uncapped, await customer(), p.id);
    // The payment is not the customer's own change (no revision moves): the write sees it.
    await t.database.db
      .update(orders)
      .set({ status: "paid", paidAt: new Date(), transactionId: `pi_memory_${me.id}` })
      .where(eq(orders.id, first._id));
    const { answer, reads } = await placing(() => order(uncapped, newcomer, p.id));
    expect(reads).toBe(1);
    const ends = new Date((answer as Awaited<ReturnType<typeof order>>).holdExpiresAt!).getTime();
    expect(Math.abs(ends - (Date.now() + HOLD_MS))).toBeLessThan(60_000);
  });

  test("nothing oversold when two processes order the same parts from memory at once", async () => {
    const p = await part(30);
    const buyers = await Promise.all(Array.from({ length: 8 }, customer));
    const [a, b] = [processOf(), processOf()];
    for (const c of [a, b]) await order(c, await customer(), p.id);
    const results = await Promise.allSettled(
      buyers.flatMap((who) => [order(a, who, p.id, 4), order(b, who, p.id, 4)]),
    );
    const placed = results.filter((r) => r.status === "fulfilled").length;
    const [row] = await t.database.db.select().from(products).where(eq(products.id, p.id));
    const held = await t.database.db.execute<{ units: number }>(
      sql`select coalesce(sum(qty), 0)::int as units from order_items where product_id = ${p.id}`,
    );
    expect(row!.availableQuantity).toBeGreaterThanOrEqual(0);
    expect(row!.availableQuantity + held.rows[0]!.units).toBe(30);
    // Each buyer once (the duplicate rule across processes), and as many as the stock allows.
    expect(placed).toBeLessThanOrEqual(8);
    expect(placed).toBe(Math.min(8, Math.floor(28 / 4)));
  });
});

describe("the memory itself", () => {
  const product = (id: string): ProductFacts => ({
    id,
    name: id,
    partNumber: null,
    listPriceCents: 1000,
    minimumOrder: 1,
    available: 10,
  });
  /** A read of `productIds` for `customerId`'s default address at `factsVersion`. */
  const readOf = (productIds: string[], factsVersion: number, minuteEndsAt = Date.now() + 60_000) =>
    ({
      placement: {
        wanted: [],
        products: new Map(productIds.map((id) => [id, product(id)])),
        standing: { trusted: true, heldCents: 0, unpaidProductIds: [] },
        charges: { place: null, zones: [], rates: [] },
        address: null,
        pricing: { customerId: "c", currency: "USD" },
        vehicle: null,
        windowEnd: null,
      },
      decidedOn: { revision: 1, trusted: true, factsVersion, windowEnd: null },
      rate: { allowed: true, retryAfter: 1 },
      standing: {
        unpaidProductIds: [],
        windows: new Map(),
        placedThisMinute: 0,
        minuteEndsAt: new Date(minuteEndsAt),
      },
    }) satisfies UnlockedRead;
  const line = (productId: string) => [{ productId, qty: 1 }];

  test("recalls a customer and parts it read, and nothing it did not", () => {
    const memory = createPlacementMemory();
    memory.learn("a", readOf(["p"], 1));
    expect(memory.recall("a", line("p"))?.decidedOn).toMatchObject({
      revision: 1,
      factsVersion: 1,
    });
    expect(memory.recall("a", line("q"))).toBeNull();
    expect(memory.recall("b", line("p"))).toBeNull();
  });

  test("keeps no customer from a read without their whole standing (a cart's, say)", () => {
    const memory = createPlacementMemory();
    memory.learn("a", { ...readOf(["p"], 1), standing: null });
    expect(memory.recall("a", line("p"))).toBeNull();
    expect(memory.recall("b", line("p"))).toBeNull();
    memory.learn("b", readOf([], 1));
    expect(memory.recall("b", line("p"))).not.toBeNull(); // the part was kept
  });

  test("a read of newer facts forgets everything older", () => {
    const memory = createPlacementMemory();
    memory.learn("a", readOf(["p"], 1));
    memory.learn("b", readOf(["q"], 2));
    expect(memory.recall("a", line("p"))).toBeNull();
    expect(memory.recall("b", line("q"))).not.toBeNull();
    memory.learn("a", readOf(["p"], 1)); // an older read, answered late: not kept
    expect(memory.recall("a", line("p"))).toBeNull();
  });

  test("a per-minute window that has ended counts nothing, and the next order opens a new one", () => {
    const memory = createPlacementMemory();
    const read = readOf(["p"], 1, Date.now() - 1);
    read.standing.placedThisMinute = 4;
    memory.learn("a", read);
    const known = memory.recall("a", line("p"))!;
    expect(known.placedThisMinute).toBe(0);
    memory.placed(
      "a",
      known.decidedOn,
      { lines: [], totalCents: 0, holdExpiresAt: new Date() } as unknown as OrderToWrite,
      new Map(),
    );
    expect(memory.recall("a", line("p"))!.placedThisMinute).toBe(1);
    // A window still open keeps its count.
    const open = readOf(["p"], 1);
    open.standing.placedThisMinute = 4;
    memory.learn("b", open);
    expect(memory.recall("b", line("p"))!.placedThisMinute).toBe(4);
  });

  test("keeps one copy of a country's shipping zones and tax rates for all its customers", () => {
    const memory = createPlacementMemory();
    const shippingTo = (read: UnlockedRead) => {
      read.placement.charges = {
        place: { country: "US", region: "TX" },
        zones: [{ id: "z", name: "US", countries: ["US"], regions: [], methods: [] }],
        rates: [],
      };
      return read;
    };
    memory.learn("a", shippingTo(readOf(["p"], 1)));
    memory.learn("b", shippingTo(readOf(["p"], 1)));
    const zonesOf = (c: string) => memory.recall(c, line("p"))!.placement.charges!.zones;
    expect(zonesOf("b")).toEqual(zonesOf("a"));
    expect(zonesOf("b")).toBe(zonesOf("a"));
  });

  test("forgets the customer used least recently beyond its limit", () => {
    const memory = createPlacementMemory({ customers: 2 });
    for (const c of ["a", "b"]) memory.learn(c, readOf(["p"], 1));
    memory.recall("a", line("p"));
    memory.learn("c", readOf(["p"], 1));
    expect(memory.recall("b", line("p"))).toBeNull();
    expect(memory.recall("a", line("p"))).not.toBeNull();
    expect(memory.recall("c", line("p"))).not.toBeNull();
  });

  test("an order it wrote moves the customer on: revision, value held, parts held, window, count", () => {
    const memory = createPlacementMemory();
    memory.learn("a", readOf(["p"], 1));
    const before = memory.recall("a", line("p"))!.decidedOn;
    const holdExpiresAt = new Date(Date.now() + 3_600_000);
    memory.placed(
      "a",
      before,
      { lines: [{ productId: "p", qty: 1 }], totalCents: 1500, holdExpiresAt } as OrderToWrite,
      new Map([["p", 7]]),
    );
    const after = memory.recall("a", line("p"))!;
    expect(after.decidedOn).toEqual({ ...before, revision: 2, windowEnd: holdExpiresAt });
    expect(after.placement.standing).toMatchObject({ heldCents: 1500, unpaidProductIds: ["p"] });
    expect(after.placement.products.get("p")!.available).toBe(7);
    expect(after.placedThisMinute).toBe(1);
    // An order written on an older revision (another placement's) forgets the customer.
    memory.placed(
      "a",
      before,
      { lines: [], totalCents: 0, holdExpiresAt } as unknown as OrderToWrite,
      new Map(),
    );
    expect(memory.recall("a", line("p"))).toBeNull();
  });
});

describe("the placement facts' version (migration 0042)", () => {
  const version = async () =>
    Number(
      (await t.database.db.execute<{ version: string }>(sql`select version from placement_facts`))
        .rows[0]!.version,
    );

  test("moves on with a product's facts, never with its stock", async () => {
    const p = await part();
    const before = await version();
    await t.database.db.update(products).set({ availableQuantity: 7 }).where(eq(products.id, p.id));
    expect(await version()).toBe(before);
    await t.database.db.update(products).set({ minimumOrder: 2 }).where(eq(products.id, p.id));
    expect(await version()).toBe(before + 1);
  });

  test("moves on once per transaction however many rows and statements change", async () => {
    const before = await version();
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) {
        await tx.execute(sql`
          insert into products (name, part_number, category, img, price_cents, minimum_order,
                                available_quantity, short_description, warranty_months,
                                creator_email)
          select 'Bulk ' || n, 'BULK-' || ${i} || '-' || n || '-' || ${String(Date.now())}, 'Other',
                 '/images/products/oil-filter.svg', 1000, 1, 10, 'Bulk part', 12, 'admin@example.com'
            from generate_series(1, 2000) as n`);
      }
      await tx.execute(sql`update shipping_zones set name = name`);
    });
    expect(await version()).toBe(before + 1);
  });

  test("moves on with shipping, tax and trade facts", async () => {
    for (const change of [
      sql`insert into tax_rates (country, region, name, rate_millipercent) values ('ZZ', '', 'T', 1)`,
      sql`delete from tax_rates where country = 'ZZ'`,
      sql`insert into price_lists (name, currency) values ('Facts list', 'USD')`,
    ]) {
      const before = await version();
      await t.database.db.execute(change);
      expect(await version(), String(change.queryChunks[0])).toBe(before + 1);
    }
  });
});
