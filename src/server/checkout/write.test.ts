import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, test, vi } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { appForTests } from "../../../tests/support/store";
import { createDatabase, DEFAULT_DATABASE_TIMEOUTS } from "../db/database";
import { orders } from "../orders/tables";
import { products } from "../catalog/tables";
import { user } from "../users/tables";
import { createInventory, isLockWaitOver, isStockOrCheckChanged } from "../inventory/service";
import { MAIL_QUEUE } from "../mail/mailer";
import { lockCustomer } from "../users/service";
import { NOTHING_CHARGED } from "./decide";
import { placementRateKey, trustedSql } from "./read";
import { writeOrderAtOnce, type Customer, type DecidedOn, type OrderToWrite } from "./write";

/**
 * The order path's write (`writeOrderAtOnce`) is one statement without a transaction around it:
 * it writes everything or, when the customer changed since the read or a line no longer fits,
 * nothing at all (no order, no stock taken, no hold window, no placement counted, no email).
 */
const { t } = appForTests();

async function customerAndPart(stock: number) {
  const account = await signUp(t.app);
  const db = t.database.db;
  const [u] = await db.select().from(user).where(eq(user.email, account.email));
  const customer: Customer = { id: u!.id, email: u!.email, name: u!.name };
  const part = await insertProduct(db, {
    priceCents: 1000,
    minimumOrder: 1,
    availableQuantity: stock,
  });
  return { account, customer, revision: u!.revision, part };
}

const orderOf = (productId: string, qty: number): OrderToWrite => ({
  id: randomUUID(),
  lines: [
    {
      productId,
      qty,
      productName: "Part",
      partNumber: null,
      unitPriceCents: 1000,
      taxCents: 0,
      coreDepositCents: 0,
    },
  ],
  charges: NOTHING_CHARGED,
  totalCents: 1000 * qty,
  approval: null,
  delivery: { phone: "5550100", address: "1 Dock Road" },
  currency: "USD",
  holdExpiresAt: new Date(Date.now() + 3_600_000),
});

/** The hold share of the default limits: a line may hold half of what is on sale. */
const SHARE = { maxShare: 0.5, freeUnits: 2 };

/** What a read of the customer now would have decided on (their `revision` given). */
async function asRead(customer: Customer, revision: number) {
  const row = (
    await t.database.db.execute<{ trusted: boolean; version: string }>(sql`
      select ${trustedSql(sql`"user".id`)} as trusted,
             (select version from placement_facts) as version
        from "user" where id = ${customer.id}`)
  ).rows[0]!;
  const decidedOn: DecidedOn = {
    revision,
    trusted: row.trusted,
    factsVersion: Number(row.version),
    windowEnd: null,
  };
  return { decidedOn, share: SHARE };
}

/** A mail job the statement queues, found again by its marker (due tomorrow: never sent here). */
const queued = (marker: string) => sql`
  insert into pgboss.job (name, data, start_after)
  values (${MAIL_QUEUE}, ${JSON.stringify({ marker })}::jsonb, now() + interval '1 day')
  returning id`;

/** What `traces` finds when nothing was written: the stock whole, the revision as given. */
const nothing = (revision: number) => ({
  orders: 0,
  windows: 0,
  counted: 0,
  jobs: 0,
  stock: 5,
  revision,
});

/** Everything the write could have left behind for this customer. */
async function traces(customerId: string, productId: string, marker: string) {
  const db = t.database.db;
  const row = (
    await db.execute<{ orders: number; windows: number; counted: number; jobs: number }>(sql`
      select (select count(*)::int from orders where user_id = ${customerId}) as orders,
             (select count(*)::int from hold_windows where user_id = ${customerId}) as windows,
             (select count(*)::int from rate_limit where key = ${placementRateKey(customerId)})
               as counted,
             (select count(*)::int from pgboss.job where data->>'marker' = ${marker}) as jobs`)
  ).rows[0]!;
  const [p] = await db.select().from(products).where(eq(products.id, productId));
  const [u] = await db.select().from(user).where(eq(user.id, customerId));
  return { ...row, stock: p!.availableQuantity, revision: u!.revision };
}

test("written whole while the customer is as read: the order, its stock, its window, the count and the email", async () => {
  const { customer, revision, part } = await customerAndPart(5);
  const marker = randomUUID();
  const order = orderOf(part.id, 2);
  const { row } = await writeOrderAtOnce(createInventory(t.database.db), customer, order, {
    ...(await asRead(customer, revision)),
    queued: queued(marker),
    lockWaitMs: 100,
  });
  expect(row.id).toBe(order.id);
  const [written] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
  expect(written!.holdExpiresAt.getTime()).toBe(order.holdExpiresAt.getTime());
  expect(await traces(customer.id, part.id, marker)).toEqual({
    orders: 1,
    windows: 1,
    counted: 1,
    jobs: 1,
    stock: 3,
    revision: revision + 1,
  });
});

test("a customer changed since the read (a cart change took their lock) writes nothing", async () => {
  const { customer, revision, part } = await customerAndPart(5);
  await t.database.db.transaction((tx) => lockCustomer(tx, customer.id));
  const marker = randomUUID();
  const write = writeOrderAtOnce(createInventory(t.database.db), customer, orderOf(part.id, 2), {
    ...(await asRead(customer, revision)),
    queued: queued(marker),
    lockWaitMs: 100,
  });
  const err = await write.catch((e: unknown) => e);
  expect(isStockOrCheckChanged(err), String(err)).toBe(true);
  expect(await traces(customer.id, part.id, marker)).toEqual(nothing(revision + 1));
});

test("a cart line removed since the read moves the customer on: the write makes nothing", async () => {
  const { account, customer, revision, part } = await customerAndPart(5);
  const headers = { cookie: account.cookie };
  const put = { method: "PUT" as const, url: `/api/cart/items/${part.id}`, headers };
  expect((await t.app.inject({ ...put, payload: { qty: 2 } })).statusCode).toBe(200);
  const read = revision + 1; // what a checkout reading the cart now would see
  const removed = await t.app.inject({ method: "DELETE", url: put.url, headers });
  expect(removed.statusCode, removed.body).toBe(200);
  const marker = randomUUID();
  const err = await writeOrderAtOnce(
    createInventory(t.database.db),
    customer,
    orderOf(part.id, 2),
    { ...(await asRead(customer, read)), queued: queued(marker), lockWaitMs: 100 },
  ).catch((e: unknown) => e);
  expect(isStockOrCheckChanged(err), String(err)).toBe(true);
  expect(await traces(customer.id, part.id, marker)).toEqual(nothing(revision + 2));
});

test("a line that no longer fits the stock writes nothing, the other lines' stock included", async () => {
  const { customer, revision, part } = await customerAndPart(5);
  const short = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 1 });
  const marker = randomUUID();
  const order = orderOf(part.id, 2);
  order.lines.push({ ...order.lines[0]!, productId: short.id, qty: 2 });
  const err = await writeOrderAtOnce(createInventory(t.database.db), customer, order, {
    ...(await asRead(customer, revision)),
    queued: queued(marker),
    lockWaitMs: 100,
  }).catch((e: unknown) => e);
  expect(isStockOrCheckChanged(err), String(err)).toBe(true);
  expect(await traces(customer.id, part.id, marker)).toEqual(nothing(revision));
  const [s] = await t.database.db.select().from(products).where(eq(products.id, short.id));
  expect(s!.availableQuantity).toBe(1);
});

test("a product row held longer than lockWaitMs writes nothing: the locked transaction places it", async () => {
  const { customer, revision, part } = await customerAndPart(5);
  const marker = randomUUID();
  // A pool that would wait a minute for the row (as a long DB_LOCK_TIMEOUT_SECONDS makes it):
  // only the write's own wait ends it sooner. Straight to PostgreSQL (a pooler refuses startup
  // settings), in the PgBouncer pass too.
  const patient = createDatabase(t.database.directUrl, undefined, {
    ...DEFAULT_DATABASE_TIMEOUTS,
    lockMs: 60_000,
  });
  const holder = await t.database.pool.connect();
  try {
    await holder.query("begin");
    await holder.query("select id from products where id = $1 for update", [part.id]);
    const err = await writeOrderAtOnce(createInventory(patient.db), customer, orderOf(part.id, 2), {
      ...(await asRead(customer, revision)),
      queued: queued(marker),
      lockWaitMs: 100,
    }).catch((e: unknown) => e);
    expect(isLockWaitOver(err), String(err)).toBe(true);
  } finally {
    await holder.query("rollback");
    holder.release();
    await patient.close();
  }
  expect(await traces(customer.id, part.id, marker)).toEqual(nothing(revision));
});

test("the order's own rows are written before the product's row is locked: a hot product's row is held for the take, the allocation and the commit only", async () => {
  const { customer, revision, part } = await customerAndPart(5);
  const marker = randomUUID();
  // The last order number taken (a sequence not yet called has not taken its first).
  const numberNow = async () =>
    Number(
      (
        await t.database.pool.query<{ n: string }>(
          "select last_value - (not is_called)::int as n from orders_number_seq",
        )
      ).rows[0]!.n,
    );
  const before = await numberNow();
  const holder = await t.database.pool.connect();
  let writing: Promise<unknown> | undefined;
  try {
    await holder.query("begin");
    await holder.query("select id from products where id = $1 for no key update", [part.id]);
    const decided = await asRead(customer, revision);
    writing = writeOrderAtOnce(createInventory(t.database.db), customer, orderOf(part.id, 2), {
      ...decided,
      queued: queued(marker),
      lockWaitMs: 30_000,
    });
    // The write waits for the product's row; by then its order has taken its number (a
    // sequence, seen outside the write's transaction): the order was inserted before the wait.
    await vi.waitFor(
      async () => {
        const waiting = await t.database.pool.query(
          `select 1 from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        );
        expect(waiting.rowCount).toBe(1);
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(await numberNow()).toBe(before + 1);
  } finally {
    await holder.query("rollback");
    holder.release();
  }
  const { row } = (await writing) as Awaited<ReturnType<typeof writeOrderAtOnce>>;
  expect(row.number).toBe(before + 1);
  expect(await traces(customer.id, part.id, marker)).toMatchObject({ orders: 1, stock: 3 });
});

describe("what an order decided without the lock was decided on, checked by the write", () => {
  /** The write of 2 units with `change` applied to what it was decided on: must write nothing. */
  async function refusedWhen(
    change: (decided: Awaited<ReturnType<typeof asRead>>) => void,
    opts: { stock?: number; qty?: number; customer?: Partial<Customer> } = {},
  ) {
    const { customer, revision, part } = await customerAndPart(opts.stock ?? 5);
    const decided = await asRead(customer, revision);
    change(decided);
    const marker = randomUUID();
    const err = await writeOrderAtOnce(
      createInventory(t.database.db),
      { ...customer, ...opts.customer },
      orderOf(part.id, opts.qty ?? 2),
      { ...decided, queued: queued(marker), lockWaitMs: 100 },
    ).catch((e: unknown) => e);
    expect(isStockOrCheckChanged(err), String(err)).toBe(true);
    const left = await traces(customer.id, part.id, marker);
    expect(left).toEqual({ ...nothing(revision), stock: opts.stock ?? 5 });
  }

  test("the facts' version moved on (a price, a shipping rate, a tax rate changed)", () =>
    refusedWhen((d) => (d.decidedOn.factsVersion -= 1)));

  test("whether the customer is trusted is not what it was (a first order paid since)", () =>
    refusedWhen((d) => (d.decidedOn.trusted = !d.decidedOn.trusted)));

  test("a hold window the decision counted on is gone (paid, say)", () =>
    refusedWhen((d) => (d.decidedOn.windowEnd = new Date(Date.now() + 3_600_000))));

  test("a caller answered from memory whose session ended", () =>
    refusedWhen(() => {}, { customer: { stillSignedIn: sql`false` } }));

  test("a line above the hold share of the stock as the write finds it", () =>
    // 3 of 5 on sale: more than the larger of 2 free units and half the stock.
    refusedWhen(() => {}, { stock: 5, qty: 3 }));

  test("and tells the stock on sale after the take when it writes", async () => {
    const { customer, revision, part } = await customerAndPart(5);
    const { stock } = await writeOrderAtOnce(
      createInventory(t.database.db),
      customer,
      orderOf(part.id, 2),
      { ...(await asRead(customer, revision)), lockWaitMs: 100 },
    );
    expect(stock).toEqual(new Map([[part.id, 3]]));
  });
});
