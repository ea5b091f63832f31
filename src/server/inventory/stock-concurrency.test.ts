import { sql } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUpTrusted, type TestAccount } from "../../../tests/support/accounts";
import { backorderHelpers } from "../../../tests/support/backorders";
import { insertProduct } from "../../../tests/support/factories";
import { payWithTestCard } from "../../../tests/support/payments";
import { openTransaction, sessionsWaitingOnLocks } from "../../../tests/support/row-lock";
import { storeForTests } from "../../../tests/support/store";
import type { Order } from "../../contract/orders";
import { sqlUuids } from "../db/sql-arrays";

// Issue 53's rule (docs/inventory.md "Allocation"): never oversold at any location under
// concurrency; for every product and location, stock on sale + units held or allocated to orders =
// units received there (what it started with, receipts, transfers in less transfers out; nothing
// ships here). Checked after checkouts of a part that takes backorders and one that does not, at
// three locations, racing supply receipts, transfers, payments, buyers deleting their unpaid
// orders and the admin cancelling paid ones. No backorder is filled twice: every live order's
// units allocated equal its lines' units less those still waiting or cancelled.

const { t, admin } = storeForTests({
  admin: "race-admin@example.com",
  shipsToTestAddress: true,
  env: {
    AUTH_RATE_LIMIT_PER_IP: "100000",
    // An unpaid line may take the whole shelf: the checkouts race for the same units.
    HOLD_MAX_SHARE: "1",
    // On a busy machine requests queue on the same rows for longer than the store's defaults
    // let them (503 "busy" is shed load, with its own tests): here they wait their turn.
    DB_LOCK_TIMEOUT_SECONDS: "120",
    DB_CONNECT_TIMEOUT_SECONDS: "120",
  },
});
const h = backorderHelpers(t, () => admin);
const loc: Record<"HOME" | "CHI" | "DEN", string> = { HOME: "", CHI: "", DEN: "" };

beforeAll(async () => {
  loc.HOME = await h.homeLocation();
  // Both serve the test address (Oregon): the checkouts take from Chicago, then Denver, then home.
  for (const [code, priority, regions] of [
    ["CHI", 10, ["OR"]],
    ["DEN", 20, []],
  ] as const) {
    const res = await h.as(admin, "POST", "/api/locations", {
      code,
      name: `${code} warehouse`,
      country: "US",
      servesCountries: ["US"],
      servesRegions: regions,
      priority,
    });
    expect(res.statusCode, res.body).toBe(201);
    loc[code] = res.json<{ id: string }>().id;
  }
});

/**
 * A request sent again while the store answers 503 "busy", as a client does on Retry-After: a
 * deadlock between an order's row and a product's (see the test below) refuses one side, which
 * wrote nothing.
 */
async function untilNotBusy(send: () => Promise<{ statusCode: number }>) {
  for (let tries = 1; ; tries++) {
    const res = await send();
    if (res.statusCode !== 503 || tries === 5) return res as Awaited<ReturnType<typeof h.as>>;
  }
}

type Code = keyof typeof loc;
const CODES: Code[] = ["HOME", "CHI", "DEN"];

/** A small deterministic sequence (the same race every run, as far as the scheduler allows). */
function numbers(seed: number) {
  let x = seed;
  return (lo: number, hi: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return lo + (x % (hi - lo + 1));
  };
}

/**
 * One race on two fresh parts (`round` names its supply) by these buyers, whose carts may still
 * hold an earlier round's parts (a refused checkout leaves its cart): they are taken out first.
 */
async function race(round: number, buyers: TestAccount[], earlier: string[]): Promise<string[]> {
  const rnd = numbers(53 + round);
  // The part that takes backorders (up to its open supply) and the one that does not.
  const bo = await insertProduct(t.database.db, { availableQuantity: 6, minimumOrder: 1 });
  const plain = await insertProduct(t.database.db, { availableQuantity: 10, minimumOrder: 1 });
  await h.takesBackorders(bo.id);

  // What each location received, by product: its start, receipts, transfers in and out.
  const received = new Map<string, number>();
  const key = (productId: string, code: Code) => `${productId}@${code}`;
  const add = (productId: string, code: Code, qty: number) =>
    received.set(key(productId, code), (received.get(key(productId, code)) ?? 0) + qty);
  add(bo.id, "HOME", 6);
  add(plain.id, "HOME", 10);
  for (const [product, code, onHand] of [
    [bo, "CHI", 4],
    [bo, "DEN", 3],
    [plain, "CHI", 8],
    [plain, "DEN", 6],
  ] as const) {
    const res = await h.as(admin, "PUT", `/api/locations/${loc[code]}/stock/${product.id}`, {
      onHand,
      reorderLevel: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    add(product.id, code, onHand);
  }

  // Supply coming to each location: received in parts while the orders race.
  const runs = {
    CHI: { id: await h.supply(bo.id, loc.CHI, 12, "2027-01-10", `CHI-${round}`), parts: [4, 4, 4] },
    HOME: { id: await h.supply(bo.id, loc.HOME, 10, "2027-01-20", `HOME-${round}`), parts: [5, 5] },
    DEN: { id: await h.supply(bo.id, loc.DEN, 8, "2027-02-01", `DEN-${round}`), parts: [3, 5] },
  };
  const receive = async (code: Code, qty: number) => {
    const res = await untilNotBusy(() =>
      h.as(admin, "POST", `/api/incoming-supply/${runs[code].id}/receive`, { qty }),
    );
    expect(res.statusCode, res.body).toBe(200);
    add(bo.id, code, qty);
  };

  const transfer = async (productId: string, from: Code, to: Code, qty: number) => {
    const res = await untilNotBusy(() =>
      h.as(admin, "POST", "/api/locations/transfers", {
        productId,
        fromLocationId: loc[from],
        toLocationId: loc[to],
        qty,
      }),
    );
    // Refused when the source has fewer on sale at that moment: nothing moved.
    expect([201, 422], res.body).toContain(res.statusCode);
    if (res.statusCode === 201) {
      add(productId, from, -qty);
      add(productId, to, qty);
    }
  };
  const someTransfers = (n: number) =>
    Array.from({ length: n }, () => {
      const from = CODES[rnd(0, 2)]!;
      const to = CODES.filter((c) => c !== from)[rnd(0, 1)]!;
      return transfer(rnd(0, 1) === 0 ? bo.id : plain.id, from, to, rnd(1, 3));
    });

  await Promise.all(
    buyers.flatMap((b) => earlier.map((id) => h.as(b, "DELETE", `/api/cart/items/${id}`))),
  );
  const placed: { order: Order; buyer: TestAccount }[] = [];
  const order = async (buyer: TestAccount) => {
    const which = rnd(0, 2); // the backordered part, the plain part, or both
    if (which !== 1) await h.inCart(buyer, bo.id, rnd(2, 9));
    if (which !== 0) await h.inCart(buyer, plain.id, rnd(1, 4));
    const how = rnd(0, 3) === 0 ? "complete" : "available";
    const res = await untilNotBusy(() => h.checkout(buyer, how));
    // Refused: beyond the shelf of the plain part, beyond what the supply brings, or the stock
    // changed between the quote and the take (asked once more, then given up).
    expect([201, 409, 422], res.body).toContain(res.statusCode);
    if (res.statusCode === 201) placed.push({ order: res.json<{ order: Order }>().order, buyer });
  };

  // Wave 1: half the buyers order while the first parts of the supply arrive and stock moves.
  await Promise.all([
    ...buyers.slice(0, 20).map(order),
    receive("CHI", runs.CHI.parts[0]!),
    receive("DEN", runs.DEN.parts[0]!),
    ...someTransfers(6),
  ]);
  expect(placed.length).toBeGreaterThan(5);

  // Wave 2: some orders paid, some deleted by their buyers, while the rest order, more supply
  // arrives and stock moves again.
  const first = [...placed];
  const paid: typeof placed = [];
  const gone = new Set<string>();
  await Promise.all([
    ...first.map(async (p, i) => {
      if (i % 3 === 0) {
        const res = await untilNotBusy(() => h.as(p.buyer, "DELETE", `/api/orders/${p.order._id}`));
        expect(res.statusCode, res.body).toBe(200);
        gone.add(p.order._id);
      } else if (i % 3 === 1) {
        const { paid: res } = await payWithTestCard(t.app, p.buyer, p.order._id);
        expect(res.statusCode, res.body).toBe(200);
        paid.push(p);
      }
    }),
    ...buyers.slice(20).map(order),
    receive("CHI", runs.CHI.parts[1]!),
    receive("HOME", runs.HOME.parts[0]!),
    ...someTransfers(6),
  ]);

  // Wave 3: the admin cancels paid orders (refunded, their units back where they were
  // allocated) as the rest of the supply arrives and stock moves once more.
  await Promise.all([
    ...paid
      .filter((_, i) => i % 2 === 0)
      .map(async (p) => {
        const res = await untilNotBusy(() =>
          h.as(admin, "PATCH", `/api/orders/${p.order._id}/status`, { status: "cancelled" }),
        );
        expect(res.statusCode, res.body).toBe(200);
        gone.add(p.order._id);
      }),
    receive("CHI", runs.CHI.parts[2]!),
    receive("HOME", runs.HOME.parts[1]!),
    // The second round leaves Denver's last 5 to come: some lines still wait at the end.
    ...(round === 1 ? [receive("DEN", runs.DEN.parts[1]!)] : []),
    ...someTransfers(6),
  ]);

  // For every product and location: on sale + held or allocated = received; nothing below zero.
  const stock = await t.database.db.execute<{
    product_id: string;
    location_id: string;
    on_sale: number;
    allocated: number;
  }>(sql`
    select p.id as product_id, l.id as location_id,
           (case when l.is_home
                 then p.available_quantity
                      - coalesce((select sum(s.available) from location_stock s
                                   where s.product_id = p.id), 0)
                 else coalesce((select s.available from location_stock s
                                 where s.product_id = p.id and s.location_id = l.id), 0)
            end)::int as on_sale,
           coalesce((select sum(a.qty) from stock_allocations a
                      where a.product_id = p.id and a.location_id = l.id), 0)::int as allocated
      from products p cross join stock_locations l
     where p.id in (${bo.id}, ${plain.id})`);
  const codeOf = (locationId: string) => CODES.find((c) => loc[c] === locationId)!;
  const found = stock.rows.map((r) => ({
    at: key(r.product_id, codeOf(r.location_id)),
    onSale: r.on_sale,
    allocated: r.allocated,
    received: received.get(key(r.product_id, codeOf(r.location_id))) ?? 0,
  }));
  expect(found).toHaveLength(6);
  for (const f of found) {
    expect(f.onSale, `${f.at} on sale`).toBeGreaterThanOrEqual(0);
    expect({ at: f.at, onHand: f.onSale + f.allocated }).toEqual({ at: f.at, onHand: f.received });
  }

  // What the test recorded is what the store kept: every receipt, every transfer.
  const supplied = await t.database.db.execute<{ received: number }>(
    sql`select coalesce(sum(received), 0)::int as received from incoming_supply
         where product_id = ${bo.id}`,
  );
  expect(supplied.rows[0]!.received).toBe(round === 1 ? 30 : 25);

  // No backorder filled twice, none left behind: a live order's units allocated are its lines'
  // units less those still waiting or cancelled; a cancelled or deleted order holds nothing.
  const lines = await t.database.db.execute<{
    order_id: string;
    status: string;
    product_id: string;
    qty: number;
    waiting: number;
    cancelled: number;
    allocated: number;
  }>(sql`
    select o.id as order_id, o.status, i.product_id, i.qty,
           coalesce(b.waiting, 0) as waiting, coalesce(b.cancelled, 0) as cancelled,
           coalesce((select sum(a.qty) from stock_allocations a
                      where a.order_id = o.id and a.product_id = i.product_id), 0)::int
             as allocated
      from orders o join order_items i on i.order_id = o.id
      left join backorders b on b.order_id = o.id and b.line = i.line
     where o.id = any(${sqlUuids(placed.map((p) => p.order._id))})`);
  const alive = lines.rows.filter((l) => !gone.has(l.order_id));
  expect(alive.length).toBeGreaterThan(0);
  for (const l of alive) {
    expect(l.status).not.toBe("cancelled");
    expect({ line: l, allocated: l.allocated }).toEqual({
      line: l,
      allocated: l.qty - l.waiting - l.cancelled,
    });
  }
  for (const l of lines.rows.filter((r) => gone.has(r.order_id))) {
    expect({ line: l, allocated: l.allocated, waiting: l.waiting }).toEqual({
      line: l,
      allocated: 0,
      waiting: 0,
    });
  }
  // Deleted orders are gone with their lines; every order the test still has is listed.
  const listed = new Set(lines.rows.map((l) => l.order_id));
  for (const p of placed) expect(listed.has(p.order._id) || gone.has(p.order._id)).toBe(true);

  // Every line waiting was dated from the supply still to come, or has none.
  const stillToCome = round === 1 ? 0 : 5;
  const waiting = alive.filter((l) => l.product_id === bo.id).reduce((n, l) => n + l.waiting, 0);
  expect(waiting).toBeLessThanOrEqual(stillToCome);
  return [bo.id, plain.id];
}

test("orders, cancellations, transfers and receipts racing at three locations: nothing oversold, on sale + held + allocated = received everywhere, no backorder filled twice", async () => {
  const buyers = await Promise.all(Array.from({ length: 40 }, () => signUpTrusted(t)));
  const parts = await race(1, buyers, []);
  await race(2, buyers, parts);
  // Two rounds of about 60 requests each racing: on a busy shared machine, more than the default.
}, 180_000);

/** Resolves once `n` sessions of the test database wait for a lock (a condition, not a sleep). */
const waitingOnLocks = (n: number) => sessionsWaitingOnLocks(t.database.db, n);

// A receipt holds the part's row and fills an order's backorder, inserting a stock allocation
// whose key to the order is checked at commit (KEY SHARE on the order's row); the buyer deleting
// that order locks its row and then waits for the part's row (`releaseOrders`). Locked FOR UPDATE,
// the two deadlocked and one was refused with 503 "busy"; locked FOR NO KEY UPDATE (orders/state.ts
// `lockOrder`), both succeed.
test("a receipt filling an order's backorder and its buyer deleting the order both succeed", async () => {
  const p = await insertProduct(t.database.db, { availableQuantity: 0, minimumOrder: 1 });
  await h.takesBackorders(p.id);
  const run = await h.supply(p.id, loc.HOME, 5, "2027-01-10", "DEADLOCK");
  const buyer = await signUpTrusted(t);
  await h.inCart(buyer, p.id, 3);
  const placed = await h.checkout(buyer, "available");
  expect(placed.statusCode, placed.body).toBe(201);
  const orderId = placed.json<{ order: Order }>().order._id;

  // The part's row is held while the receipt, then the deletion, queue for it.
  const holder = await openTransaction(t.database.db, (tx) =>
    tx.execute(sql`select id from products where id = ${p.id} for no key update`),
  );
  const receipt = h.as(admin, "POST", `/api/incoming-supply/${run}/receive`, { qty: 5 });
  await waitingOnLocks(1);
  const deletion = h.as(buyer, "DELETE", `/api/orders/${orderId}`);
  await waitingOnLocks(2);
  await holder.commit();
  const [received, deleted] = await Promise.all([receipt, deletion]);
  // Whichever was refused wrote nothing: the 5 units are on sale or allocated, none lost.
  const units = await t.database.db.execute<{ n: number }>(sql`
    select (select available_quantity from products where id = ${p.id})
           + coalesce((select sum(qty) from stock_allocations where product_id = ${p.id}), 0)::int
           as n`);
  expect(units.rows[0]!.n).toBe(received.statusCode === 200 ? 5 : 0);
  expect([received.statusCode, deleted.statusCode]).toEqual([200, 200]);
});

test("a stock location is never deleted (migration 0085): allocations name their location without a foreign key, so the database refuses a delete", async () => {
  const deleting = t.database.db.execute(sql`delete from stock_locations where id = ${loc.DEN}`);
  await expect(deleting).rejects.toMatchObject({
    cause: { code: "23001", message: "a stock location is never deleted: deactivate it" },
  });
  const kept = await t.database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from stock_locations where id = ${loc.DEN}`,
  );
  expect(kept.rows[0]!.n).toBe(1);
});
