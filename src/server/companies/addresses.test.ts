import { and, asc, eq, like } from "drizzle-orm";
import { beforeAll, expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { AUSTIN_DOCK } from "../../../tests/support/destination";
import { insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { createCompany, joinCompany } from "../../../tests/support/trade";
import { addressMessages } from "../../contract/addresses";
import { companyAddressMessages, MAX_COMPANY_ADDRESSES } from "../../contract/companies";
import { adminAuditLog } from "../audit/tables";
import { companyAddresses } from "./tables";
import { orders } from "../orders/tables";

// A company's ship-to addresses (docs/companies.md): managed by admins and owners,
// listed by members, and delivered to at checkout exactly as an own address is.

let standardId: string;

const texas = {
  name: "Receiving dock",
  company: "Fleet Garage",
  line1: "100 Congress Ave",
  city: "Austin",
  region: "tx",
  postalCode: "78701",
  country: "us",
  phone: "5125550100",
};
const texasFormatted =
  "Receiving dock, Fleet Garage, 100 Congress Ave, Austin, TX 78701, United States";

const { t, call, admin } = storeForTests({ admin: "shipto-admin@example.com" });
beforeAll(async () => {
  const us = await call(admin, "POST", "/api/shipping-zones", {
    name: "United States",
    countries: ["US"],
    methods: [{ name: "Standard", estimate: "3-5 business days", kind: "flat", price: 9.95 }],
  });
  expect(us.statusCode).toBe(201);
  standardId = us.json().methods[0].id;
  for (const rate of [
    { country: "US", region: "TX", name: "Texas sales tax", rate: 6.25 },
    { country: "US", region: "CA", name: "California sales tax", rate: 7.25 },
  ]) {
    expect((await call(admin, "POST", "/api/tax-rates", rate)).statusCode).toBe(201);
  }
});

async function companyWithOwnerAndBuyer() {
  const company = await createCompany(t.app, admin);
  const owner = await joinCompany(t.app, admin, company.id, "owner");
  const buyer = await joinCompany(t.app, owner, company.id, "buyer");
  return { company, owner, buyer, at: `/api/companies/${company.id}/addresses` };
}

test("an owner adds, edits and removes ship-to addresses, checked as the address book's; each change is audited", async () => {
  const { company, owner, buyer, at } = await companyWithOwnerAndBuyer();
  const added = await call(owner, "POST", at, texas);
  expect(added.statusCode).toBe(201);
  expect(added.json()).toMatchObject({
    companyId: company.id,
    companyName: company.name,
    region: "TX",
    country: "US",
    formatted: texasFormatted,
  });
  const id = added.json().id;

  // The same per-country rules as the address book, with the field's message.
  const bad = await call(owner, "POST", at, { ...texas, postalCode: "7870", region: "" });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().fields).toMatchObject({
    postalCode: "Enter a United States postal code, like 94103 or 94103-1234",
    region: "Choose a state",
  });

  // An edit is checked whole: a Canadian country with a US state and ZIP is refused.
  const badEdit = await call(owner, "PATCH", `${at}/${id}`, { country: "CA" });
  expect(badEdit.statusCode).toBe(400);
  expect(badEdit.json().fields).toMatchObject({
    postalCode: "Enter a Canada postal code, like K1A 0B1",
    region: "Enter a Canadian province as its two-letter code, like ON",
  });
  // A company address has no default.
  expect((await call(owner, "PATCH", `${at}/${id}`, { isDefault: true })).statusCode).toBe(400);

  const edited = await call(owner, "PATCH", `${at}/${id}`, { line2: "Door 4" });
  expect(edited.statusCode).toBe(200);
  expect(edited.json().formatted).toBe(
    "Receiving dock, Fleet Garage, 100 Congress Ave, Door 4, Austin, TX 78701, United States",
  );

  // Admins manage any company's; buyers list them.
  const second = await call(admin, "POST", at, {
    ...texas,
    name: "Yard",
    city: "Sacramento",
    region: "CA",
    postalCode: "95814",
  });
  expect(second.statusCode).toBe(201);
  const listed = await call(buyer, "GET", at);
  expect(listed.statusCode).toBe(200);
  expect(listed.json().map((a: { id: string }) => a.id)).toEqual([id, second.json().id]);

  expect((await call(owner, "DELETE", `${at}/${id}`)).statusCode).toBe(204);
  expect((await call(owner, "DELETE", `${at}/${id}`)).json().message).toBe(
    companyAddressMessages.notFound,
  );
  expect((await call(buyer, "GET", at)).json()).toHaveLength(1);

  const audit = await t.database.db
    .select()
    .from(adminAuditLog)
    .where(
      and(eq(adminAuditLog.targetId, company.id), like(adminAuditLog.action, "company.address%")),
    )
    .orderBy(asc(adminAuditLog.at), asc(adminAuditLog.id));
  expect(audit.map((a) => [a.action, a.actorEmail])).toEqual([
    ["company.address.create", owner.email],
    ["company.address.update", owner.email],
    ["company.address.create", admin.email],
    ["company.address.delete", owner.email],
  ]);
  expect(audit[0]!.summary).toBe(
    `Added ship-to address ${texasFormatted} to ${company.name} (as the company's owner)`,
  );
});

test("a buyer lists but cannot change the addresses; another company's member is not told they exist", async () => {
  const { owner, buyer, at } = await companyWithOwnerAndBuyer();
  const id = (await call(owner, "POST", at, texas)).json().id;
  const refused = await call(buyer, "POST", at, texas);
  expect(refused.statusCode).toBe(403);
  expect(refused.json().message).toBe(companyAddressMessages.ownersOnly);
  expect((await call(buyer, "PATCH", `${at}/${id}`, { city: "Dallas" })).statusCode).toBe(403);
  expect((await call(buyer, "DELETE", `${at}/${id}`)).statusCode).toBe(403);
  const other = await companyWithOwnerAndBuyer();
  expect((await call(other.owner, "GET", at)).statusCode).toBe(404);
  // An address id of company A under company B's path is not found there.
  expect((await call(other.owner, "DELETE", `${other.at}/${id}`)).statusCode).toBe(404);
  expect((await call(owner, "GET", at)).json()).toHaveLength(1);
});

test("a company keeps at most the maximum number of ship-to addresses", async () => {
  const { company, owner, at } = await companyWithOwnerAndBuyer();
  await t.database.db.insert(companyAddresses).values(
    Array.from({ length: MAX_COMPANY_ADDRESSES }, (_, i) => ({
      companyId: company.id,
      name: `Dock ${i}`,
      ...AUSTIN_DOCK,
    })),
  );
  const res = await call(owner, "POST", at, texas);
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toBe(companyAddressMessages.tooMany(MAX_COMPANY_ADDRESSES));
});

test("a buyer checks out to a company address: shipping and tax as for an own address, its text on the order", async () => {
  const { owner, buyer, at } = await companyWithOwnerAndBuyer();
  const shipTo = (await call(owner, "POST", at, texas)).json();
  const part = await insertProduct(t.database.db, { priceCents: 1299, minimumOrder: 1 });
  await call(buyer, "PUT", `/api/cart/items/${part.id}`, { qty: 2 });

  // The same place saved in the buyer's own book prices the same.
  const own = (await call(buyer, "POST", "/api/user/addresses", texas)).json();
  const ownQuote = (await call(buyer, "POST", "/api/cart/quote", { addressId: own.id })).json();
  const quote = await call(buyer, "POST", "/api/cart/quote", { addressId: shipTo.id });
  expect(quote.statusCode).toBe(200);
  // 25.98 + 9.95 shipping; TX 6.25 %: 1.62 (1.62375) + 0.62 (0.621875) = 38.17
  expect(quote.json()).toMatchObject({
    subtotal: 25.98,
    shipping: 9.95,
    taxName: "Texas sales tax",
    tax: 2.24,
    total: 38.17,
  });
  expect(quote.json().total).toBe(ownQuote.total);

  const placed = await call(buyer, "POST", "/api/checkout", {
    addressId: shipTo.id,
    shippingMethodId: standardId,
    expectedTotal: quote.json().total,
  });
  expect(placed.statusCode).toBe(201);
  const order = placed.json().order;
  expect(order).toMatchObject({
    Address: texasFormatted,
    phonrNo: "5125550100",
    shipping: 9.95,
    tax: 2.24,
    total: 38.17,
  });
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
  expect(row!.shipTo).toMatchObject({ company: "Fleet Garage", city: "Austin", region: "TX" });

  // Removing the address later leaves the order's copy.
  await call(owner, "DELETE", `${at}/${shipTo.id}`);
  expect((await call(buyer, "GET", `/api/orders/${order._id}`)).json().Address).toBe(
    texasFormatted,
  );
});

test("another company's address, or one's former company's, is refused with 400 and never priced", async () => {
  const a = await companyWithOwnerAndBuyer();
  const b = await companyWithOwnerAndBuyer();
  const addressOfB = (await call(b.owner, "POST", b.at, texas)).json();
  const addressOfA = (await call(a.owner, "POST", a.at, texas)).json();
  const part = await insertProduct(t.database.db, { priceCents: 1299, minimumOrder: 1 });
  await call(a.buyer, "PUT", `/api/cart/items/${part.id}`, { qty: 1 });

  for (const res of [
    await call(a.buyer, "POST", "/api/cart/quote", { addressId: addressOfB.id }),
    await call(a.buyer, "POST", "/api/checkout", {
      addressId: addressOfB.id,
      shippingMethodId: standardId,
      expectedTotal: 24.37,
    }),
  ]) {
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(companyAddressMessages.notYourCompany);
    expect(res.json().fields).toEqual({ addressId: companyAddressMessages.notYourCompany });
  }

  // Before removal the buyer may use A's; once removed, at once no longer.
  expect(
    (await call(a.buyer, "POST", "/api/cart/quote", { addressId: addressOfA.id })).statusCode,
  ).toBe(200);
  expect(
    (await call(a.owner, "DELETE", `/api/companies/${a.company.id}/members/${a.buyer.id}`))
      .statusCode,
  ).toBe(204);
  const after = await call(a.buyer, "POST", "/api/checkout", {
    addressId: addressOfA.id,
    shippingMethodId: standardId,
    expectedTotal: 24.37,
  });
  expect(after.statusCode).toBe(400);
  expect(after.json().message).toBe(companyAddressMessages.notYourCompany);
  expect((await call(a.buyer, "GET", "/api/orders")).json()).toHaveLength(0);
  // A customer without a company is refused too; an unknown id is still "not found".
  const loner = await signUp(t.app);
  await call(loner, "PUT", `/api/cart/items/${part.id}`, { qty: 1 });
  expect(
    (await call(loner, "POST", "/api/cart/quote", { addressId: addressOfA.id })).statusCode,
  ).toBe(400);
  const unknown = await call(loner, "POST", "/api/cart/quote", {
    addressId: "00000000-0000-4000-8000-000000000000",
  });
  expect(unknown.statusCode).toBe(404);
  expect(unknown.json().message).toBe(addressMessages.notFound);
});

test("a quote accepted to a company address becomes an order delivered there", async () => {
  const { owner, buyer, at } = await companyWithOwnerAndBuyer();
  const shipTo = (await call(owner, "POST", at, texas)).json();
  const part = await insertProduct(t.database.db, { priceCents: 5000, minimumOrder: 1 });
  await call(buyer, "PUT", `/api/cart/items/${part.id}`, { qty: 1 });
  const requested = await call(buyer, "POST", "/api/quotes", { note: "For the depot" });
  expect(requested.statusCode, requested.body).toBe(201);
  const quote = requested.json();
  const sent = await call(admin, "POST", `/api/quotes/${quote.id}/send`, {
    lines: quote.lines.map((l: { productId: string }) => ({
      productId: l.productId,
      unitPrice: 40,
    })),
    expiresAt: new Date(Date.now() + 7 * 24 * 3600_000).toISOString(),
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const accepted = await call(buyer, "POST", `/api/quotes/${quote.id}/accept`, {
    addressId: shipTo.id,
    shippingMethodId: standardId,
  });
  expect(accepted.statusCode, accepted.body).toBe(201);
  const { order } = accepted.json();
  // 40.00 + 9.95 shipping; TX 6.25 %: 2.50 + 0.62 = 53.07
  expect(order).toMatchObject({ Address: texasFormatted, shipping: 9.95, tax: 3.12, total: 53.07 });
});
