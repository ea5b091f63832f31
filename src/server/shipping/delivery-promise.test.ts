import { sql } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUpTrusted, type TestAccount } from "../../../tests/support/accounts";
import { backorderHelpers } from "../../../tests/support/backorders";
import { checkoutToTestAddress } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { waitForMail } from "../../../tests/support/mailbox";
import { watchQueries } from "../../../tests/support/query-spy";
import { storeForTests } from "../../../tests/support/store";
import type { Order } from "../../contract/orders";
import type { OrderDeliveryPromise } from "../../contract/shipping";
import { isStockOrCheckChanged } from "../inventory/service";
import { deliveryEstimate } from "./delivery";

// The window a cart's checkout promises, kept with the order (docs/shipping.md "The promise kept
// with the order"): from where the placement allocated the parts and its backorders' dates; the
// order page's words while the order stands, and the order-placed email.

let standard: string;
let pickup: string;
let portland: string;
let home: string;
const transit = { transitMinDays: 2, transitMaxDays: 4 };

const { t, admin } = storeForTests({
  admin: "dp-admin@example.com",
  env: { AUTH_RATE_LIMIT_PER_IP: "1000" },
});
const h = backorderHelpers(t, () => admin);
beforeAll(async () => {
  const zone = await h.as(admin, "POST", "/api/shipping-zones", {
    name: "Oregon",
    countries: ["US"],
    regions: ["OR"],
    methods: [
      { name: "Courier", kind: "flat", price: 5, transitMinDays: 2, transitMaxDays: 4 },
      { name: "Pickup", kind: "flat", price: 0 },
    ],
  });
  expect(zone.statusCode, zone.body).toBe(201);
  [standard, pickup] = zone.json<{ methods: { id: string }[] }>().methods.map((m) => m.id) as [
    string,
    string,
  ];
  const location = await h.as(admin, "POST", "/api/locations", {
    code: "PDX-DP",
    name: "Portland warehouse",
    city: "Portland",
    country: "US",
    servesCountries: ["US"],
    servesRegions: ["OR"],
    dispatchDays: 0,
  });
  expect(location.statusCode, location.body).toBe(201);
  portland = location.json<{ id: string }>().id;
  home = await h.homeLocation();
});

/** The cart checked out by `methodId` to the test address (Oregon), at the total it states. */
async function checkout(
  who: TestAccount,
  methodId: string,
  fulfilment?: "available",
): Promise<Order> {
  const body = (total: number) => ({
    ...checkoutToTestAddress(total),
    shippingMethodId: methodId,
    ...(fulfilment ? { fulfilment } : {}),
  });
  let res = await h.as(who, "POST", "/api/checkout", body(0));
  if (res.statusCode === 409) {
    const total = Number(res.json<{ fields: { total: string } }>().fields.total);
    res = await h.as(who, "POST", "/api/checkout", body(total));
  }
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ order: Order }>().order;
}

const promiseOf = async (who: TestAccount, orderId: string) => {
  const res = await h.as(who, "GET", `/api/orders/${orderId}/delivery-promise`);
  return { status: res.statusCode, body: res.json<OrderDeliveryPromise>() };
};

/** A part with `onHand` at the home location, `atPortland` of it moved to Portland. */
async function part(onHand: number, atPortland: number): Promise<string> {
  const p = await insertProduct(t.database.db, { availableQuantity: onHand, minimumOrder: 1 });
  if (atPortland > 0) {
    const moved = await h.as(admin, "POST", "/api/locations/transfers", {
      productId: p.id,
      fromLocationId: home,
      toLocationId: portland,
      qty: atPortland,
    });
    expect(moved.statusCode, moved.body).toBe(201);
  }
  return p.id;
}

test("an order split between two locations is promised each one's window; the page and the email say it", async () => {
  const buyer = await signUpTrusted(t);
  const productId = await part(10, 3);
  await h.inCart(buyer, productId, 5);
  // Placed as any checkout is, without the locked transaction: the window is worked out from the
  // allocation preview and written in the order's own statement.
  const statements: string[] = [];
  let order!: Order;
  await watchQueries(
    t.database.pool,
    (query) => statements.push(query.text.trim()),
    async () => (order = await checkout(buyer, standard)),
  );
  expect(statements.filter((q) => /^begin$/i.test(q))).toEqual([]);
  expect(statements.filter((q) => q.includes("insert into delivery_promises"))).toHaveLength(1);
  // Where the placement allocated them: 3 at Portland (it serves Oregon), 2 at home.
  const allocated = await t.database.db.execute<{ location_id: string; qty: number }>(
    sql`select location_id, qty from stock_allocations where order_id = ${order._id}
         order by qty desc`,
  );
  expect(allocated.rows).toEqual([
    { location_id: portland, qty: 3 },
    { location_id: home, qty: 2 },
  ]);
  const expected = deliveryEstimate(
    new Date(order.createdAt),
    [
      { name: "Portland warehouse", units: 3, dispatchDays: 0, cutoffHour: null },
      { name: "Main warehouse", units: 2, dispatchDays: 1, cutoffHour: null },
    ],
    [],
    transit,
  )!;
  expect(expected.words).toMatch(/^Arrives in 2 parcels: .+ from Portland warehouse \(3 units\)/);

  const mine = await promiseOf(buyer, order._id);
  expect(mine.status).toBe(200);
  expect(mine.body.promise).toMatchObject({ ...expected, method: "Courier" });
  expect(mine.body.words).toBe(`Promised at checkout: a${expected.words.slice(1)}`);
  const mail = await waitForMail(t.app, buyer.email, /is placed/);
  expect(mail.text.replace(/\s+/g, " ")).toContain(`Delivery: ${expected.words}.`);

  // The admin reads it too; another customer is told there is no such order.
  expect((await promiseOf(admin, order._id)).body.words).toBe(mine.body.words);
  const stranger = await signUpTrusted(t);
  expect((await promiseOf(stranger, order._id)).status).toBe(404);

  // Once something of it has shipped, the page says nothing of the promise.
  await t.database.db.execute(
    sql`update orders set status = 'paid', paid_at = now(), transaction_id = ${`pi_dp_${order._id}`},
               partly_shipped_at = now() where id = ${order._id}`,
  );
  const shipped = await promiseOf(buyer, order._id);
  expect(shipped.body.words).toBeNull();
  expect(shipped.body.promise?.words).toBe(expected.words);
});

test("units on backorder: the promise dates them from their promised date; the page leaves them to their lines", async () => {
  const buyer = await signUpTrusted(t);
  const productId = await part(1, 0);
  await h.takesBackorders(productId);
  // Wednesday 10 March 2027; 2 to 4 working days in transit: 12–16 Mar 2027.
  await h.supply(productId, home, 50, "2027-03-10", "RUN-DP-1");
  await h.inCart(buyer, productId, 4);
  const order = await checkout(buyer, standard, "available");
  const { body } = await promiseOf(buyer, order._id);
  const expected = deliveryEstimate(
    new Date(order.createdAt),
    [{ name: "Main warehouse", units: 1, dispatchDays: 1, cutoffHour: null }],
    [{ units: 3, promisedOn: "2027-03-10" }],
    transit,
  )!;
  expect(body.promise?.words).toBe(expected.words);
  expect(expected.words).toMatch(
    / · ships from Main warehouse; 3 units on backorder arrive 12–16 Mar 2027$/,
  );
  expect(body.words).toBe(`Promised at checkout: a${expected.words.split("; ")[0]!.slice(1)}`);
  const mail = await waitForMail(t.app, buyer.email, /is placed/);
  expect(mail.text.replace(/\s+/g, " ")).toContain(`Delivery: ${expected.words}.`);

  // Cancelled: nothing is promised any more.
  await t.database.db.execute(
    sql`update orders set status = 'cancelled', cancelled_at = now() where id = ${order._id}`,
  );
  expect((await promiseOf(buyer, order._id)).body.words).toBeNull();
  // Paid after its hold ran out: its parts were taken again, from wherever they were then.
  await t.database.db.execute(
    sql`update orders set status = 'paid', paid_at = now(), transaction_id = ${`pi_dp_${order._id}`}
         where id = ${order._id}`,
  );
  expect((await promiseOf(buyer, order._id)).body.words).toBeNull();
});

test("a method without transit days promises nothing", async () => {
  const buyer = await signUpTrusted(t);
  const productId = await part(5, 0);
  await h.inCart(buyer, productId, 2);
  const order = await checkout(buyer, pickup);
  expect((await promiseOf(buyer, order._id)).body).toEqual({ words: null, promise: null });
  const mail = await waitForMail(t.app, buyer.email, /is placed/);
  expect(mail.text).not.toContain("Delivery:");
});

test("the order's statement allocates only where its promise was worked out: another allocation writes nothing", async () => {
  const productId = await part(4, 0);
  const [order] = await t.database.db
    .execute<{ id: string }>(sql`select id from orders order by created_at limit 1`)
    .then((r) => r.rows);
  // Two of the four units, to Oregon: all from home (Portland has none). Told to expect Portland,
  // the function refuses as a placement whose stock changed does (SQLSTATE 40001).
  const allocate = (expected: string) =>
    t.database.db.execute(
      sql`select allocate_stock(${order!.id}::uuid, array[${productId}::uuid], array[2], array[2],
                                'US', 'OR', ${expected})`,
    );
  const refused = await allocate(`${productId}:${portland}:2`).catch((err: unknown) => err);
  expect(isStockOrCheckChanged(refused)).toBe(true);
  const left = await t.database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from stock_allocations where product_id = ${productId}`,
  );
  expect(left.rows[0]!.n).toBe(0);
  // As expected: allocated (the rows then removed; nothing else reads this part).
  await allocate(`${productId}:${home}:2`);
  const kept = await t.database.db.execute<{ location_id: string; qty: number }>(
    sql`delete from stock_allocations where product_id = ${productId}
        returning location_id, qty`,
  );
  expect(kept.rows).toEqual([{ location_id: home, qty: 2 }]);
});
