import { and, eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { checkoutTestCart, placeTestOrder } from "../../../tests/support/destination";
import { storeForTests } from "../../../tests/support/store";
import { joinCompany } from "../../../tests/support/trade";
import { customerGroupMessages } from "../../contract/customer-groups";
import { adminAuditLog } from "../audit/tables";
import { GARAGE_GROUP_ID, RETAIL_GROUP_ID } from "./tables";

// A customer's own group (docs/pricing.md "A customer's own group"): set on Manage users, what a
// customer in no company pays.
const FLEET_GROUP_ID = "00000000-0000-4000-8000-000000000003";

const { t, call, admin } = storeForTests({
  admin: "own-group-admin@example.com",
  shipsToTestAddress: true,
});
let n = 0;

async function brandWithRule(groupId: string, percent: number) {
  const brand = `Own${process.pid}x${++n}`;
  const res = await call(admin, "POST", `/api/customer-groups/${groupId}/rules`, {
    percent,
    scope: "brand",
    brand,
  });
  expect(res.statusCode, res.body).toBe(201);
  return brand;
}
/** A new customer, with their id. */
async function customer(): Promise<TestAccount & { id: string }> {
  const who = await signUp(t.app);
  return { ...who, id: (await call(who, "GET", "/api/user")).json()._id };
}
const putInGroup = (who: { id: string }, customerGroupId: string) =>
  call(admin, "PUT", `/api/users/${who.id}/customer-group`, { customerGroupId });

test("a customer without a company placed in Garage sees Garage's price in the cart and pays it at checkout and on later orders; retail again pays list", async () => {
  const brand = await brandWithRule(GARAGE_GROUP_ID, 20);
  // Each order of its own parts: a part in an unpaid order is not ordered again.
  const [a, b, c, d] = await Promise.all(
    [0, 1, 2, 3].map(() =>
      insertProduct(t.database.db, {
        priceCents: 5000,
        minimumOrder: 1,
        availableQuantity: 1000,
        brand,
      }),
    ),
  );
  const buyer = await customer();
  // Retail first: the list price, and the placement may remember them.
  expect((await placeTestOrder(t.app, buyer, a!.id, 1)).json().order.productPrice).toBe(50);

  const moved = await putInGroup(buyer, GARAGE_GROUP_ID);
  expect(moved.statusCode).toBe(200);
  expect(moved.json().user).toMatchObject({ _id: buyer.id, customerGroupId: GARAGE_GROUP_ID });
  const listed = (await call(admin, "GET", `/api/users?q=${encodeURIComponent(buyer.email)}`))
    .json()
    .find((u: { _id: string }) => u._id === buyer.id);
  expect(listed.customerGroupId).toBe(GARAGE_GROUP_ID);

  const note = `Garage price: 20 % off ${brand}`;
  expect((await call(buyer, "GET", `/api/products/${b!.id}/price`)).json()).toMatchObject({
    yourPrice: 40,
    priceNote: note,
  });
  const cart = await call(buyer, "PUT", `/api/cart/items/${b!.id}`, { qty: 2 });
  expect(cart.json().lines[0]).toMatchObject({ unitPrice: 40, lineTotal: 80, priceNote: note });
  const checkout = await checkoutTestCart(t.app, buyer, 80);
  expect(checkout.statusCode).toBe(201);
  expect(checkout.json().order.items[0]).toMatchObject({ unitPrice: 40, lineTotal: 80 });
  // Single-part orders too (the placement memory's side: checkout/memory.test.ts).
  for (const p of [c!, d!]) {
    const single = await placeTestOrder(t.app, buyer, p.id, 1);
    expect(single.statusCode).toBe(201);
    expect(single.json().order.productPrice).toBe(40);
  }

  expect((await putInGroup(buyer, RETAIL_GROUP_ID)).statusCode).toBe(200);
  expect((await call(buyer, "GET", `/api/products/${b!.id}/price`)).json()).toMatchObject({
    yourPrice: 50,
    priceNote: null,
  });
});

test("a customer in a group keeps its trade minimums; a company's members pay as their company's group, not their own", async () => {
  const brand = await brandWithRule(GARAGE_GROUP_ID, 10);
  const p = await insertProduct(t.database.db, {
    priceCents: 1000,
    minimumOrder: 5,
    availableQuantity: 1000,
    brand,
  });
  const buyer = await customer();
  expect(
    (await call(buyer, "PUT", `/api/cart/items/${p.id}`, { qty: 1 })).json().lines[0],
  ).toMatchObject({ problem: null });
  await putInGroup(buyer, GARAGE_GROUP_ID);
  const cart = await call(buyer, "GET", "/api/cart");
  expect(cart.json().lines[0].problem).toContain("please order at least 5");

  const company = await call(admin, "POST", "/api/companies", {
    name: `Own group co ${process.pid} ${++n}`,
    customerGroupId: FLEET_GROUP_ID,
  });
  const member = await joinCompany(t.app, admin, company.json().id, "buyer");
  await putInGroup(member, GARAGE_GROUP_ID);
  expect((await call(member, "GET", `/api/products/${p.id}/price`)).json()).toMatchObject({
    yourPrice: 10,
    priceNote: null,
  });
});

test("an admin's choice is checked and audited; a group customers are in is kept", async () => {
  const buyer = await customer();
  const group = await call(admin, "POST", "/api/customer-groups", { name: `Own ${++n}` });
  expect(group.statusCode, group.body).toBe(201);
  const unknown = await putInGroup(buyer, "00000000-0000-4000-8000-0000000000ff");
  expect([unknown.statusCode, unknown.json().fields?.customerGroupId]).toEqual([
    400,
    customerGroupMessages.notFound,
  ]);
  const malformed = await putInGroup(buyer, "garage");
  expect(malformed.statusCode).toBe(400);
  const nobody = await call(admin, "PUT", "/api/users/no-such-user/customer-group", {
    customerGroupId: GARAGE_GROUP_ID,
  });
  expect(nobody.statusCode).toBe(404);
  expect(
    (
      await call(buyer, "PUT", `/api/users/${buyer.id}/customer-group`, {
        customerGroupId: GARAGE_GROUP_ID,
      })
    ).statusCode,
  ).toBe(403);

  expect((await putInGroup(buyer, group.json().id)).statusCode).toBe(200);
  expect((await putInGroup(buyer, group.json().id)).statusCode).toBe(200);
  const groups = (await call(admin, "GET", "/api/customer-groups")).json();
  expect(groups.find((g: { id: string }) => g.id === group.json().id)).toMatchObject({
    customerCount: 1,
    companyCount: 0,
  });
  const kept = await call(admin, "DELETE", `/api/customer-groups/${group.json().id}`);
  expect([kept.statusCode, kept.json().message]).toEqual([
    409,
    customerGroupMessages.customersInUse,
  ]);
  const audit = await t.database.db
    .select({ summary: adminAuditLog.summary })
    .from(adminAuditLog)
    .where(
      and(eq(adminAuditLog.targetId, buyer.id), eq(adminAuditLog.action, "user.customer-group")),
    );
  expect(audit.map((a) => a.summary)).toEqual([
    `Moved ${buyer.name} (${buyer.email}) from customer group Retail to Own ${n}`,
  ]);
});
