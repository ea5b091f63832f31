import { expect, test } from "vitest";
import { insertProduct } from "../../../tests/support/factories";
import { testAppWithAdmin } from "../../../tests/support/store";
import { runRoleTable, tradeRoleStore, type RoleRow } from "../../../tests/support/roles";
import { createPriceList } from "../../../tests/support/trade";

/**
 * The trade roles beside the authorisation matrix's four (anonymous, customer, other, admin):
 * on company A's routes, its owner, buyer and viewer, a buyer of company B, and a customer with
 * no company. A buyer never sees another company's prices, members or price lists.
 */
let productId: string;
let listA: { id: string };
const store = tradeRoleStore({
  other: "otherBuyer",
  otherRole: "buyer",
  start: () => testAppWithAdmin("roles-admin@example.com"),
  companies: async (t, admin) => {
    const p = await insertProduct(t.database.db, { priceCents: 5000, minimumOrder: 1 });
    productId = p.id;
    listA = await createPriceList(t.app, admin, [
      { productId, unitPrice: 40, breaks: [{ minQty: 5, unitPrice: 35 }] },
    ]);
    const listB = await createPriceList(t.app, admin, [{ productId, unitPrice: 45 }]);
    return { a: { priceListId: listA.id }, b: { priceListId: listB.id } };
  },
});
const { roles, call } = store;
type Role = (typeof roles)[number];

const ownersAndAdmins = (ok: number) => ({
  anonymous: 401,
  noCompany: 404,
  owner: ok,
  buyer: 404,
  viewer: 404,
  otherBuyer: 404,
  admin: ok,
});
const adminOnly = (ok: number) => ({
  anonymous: 401,
  noCompany: 403,
  owner: 403,
  buyer: 403,
  viewer: 403,
  otherBuyer: 403,
  admin: ok,
});

test("each trade role gets what the table says on company A's routes", async () => {
  const rows: RoleRow<Role>[] = [
    {
      what: "GET /api/companies",
      run: async (r) => (await call(r, "GET", "/api/companies")).statusCode,
      expect: adminOnly(200),
    },
    {
      what: "GET /api/companies/:id",
      run: async (r) =>
        (await call(r, "GET", `/api/companies/${store.who.companyA.id}`)).statusCode,
      expect: adminOnly(200),
    },
    {
      what: "PATCH /api/companies/:id",
      run: async (r) =>
        (
          await call(r, "PATCH", `/api/companies/${store.who.companyA.id}`, {
            paymentTerms: "net30",
          })
        ).statusCode,
      expect: adminOnly(200),
    },
    {
      what: "GET /api/companies/:id/members",
      run: async (r) =>
        (await call(r, "GET", `/api/companies/${store.who.companyA.id}/members`)).statusCode,
      expect: ownersAndAdmins(200),
    },
    {
      what: "GET /api/companies/:id/invitations",
      run: async (r) =>
        (await call(r, "GET", `/api/companies/${store.who.companyA.id}/invitations`)).statusCode,
      expect: ownersAndAdmins(200),
    },
    {
      what: "POST /api/companies/:id/invitations",
      run: async (r) =>
        (
          await call(r, "POST", `/api/companies/${store.who.companyA.id}/invitations`, {
            email: `roles-${r}-${Math.random().toString(36).slice(2)}@example.com`,
            role: "buyer",
          })
        ).statusCode,
      expect: ownersAndAdmins(201),
    },
    {
      what: "PATCH /api/companies/:id/members/:userId (the buyer's limit)",
      run: async (r) =>
        (
          await call(
            r,
            "PATCH",
            `/api/companies/${store.who.companyA.id}/members/${store.who.buyer.id}`,
            {
              orderLimit: 100,
            },
          )
        ).statusCode,
      expect: ownersAndAdmins(200),
    },
    {
      what: "GET /api/price-lists/:id (company A's list)",
      run: async (r) => (await call(r, "GET", `/api/price-lists/${listA.id}`)).statusCode,
      expect: adminOnly(200),
    },
    {
      what: "GET /api/price-lists/:id/entries",
      run: async (r) => (await call(r, "GET", `/api/price-lists/${listA.id}/entries`)).statusCode,
      expect: adminOnly(200),
    },
    {
      what: "GET /api/price-lists/:id/entries.csv",
      run: async (r) =>
        (await call(r, "GET", `/api/price-lists/${listA.id}/entries.csv`)).statusCode,
      expect: adminOnly(200),
    },
  ];
  const { got, want } = await runRoleTable(rows, roles);
  expect(got).toEqual(want);
});

test("each caller sees their own company's price only, never another's", async () => {
  const prices: Record<string, unknown> = {};
  for (const r of roles) {
    const res = await call(r, "GET", `/api/products/${productId}/price`);
    prices[r] = res.json().yourPrice;
  }
  expect(prices).toEqual({
    anonymous: 50,
    noCompany: 50,
    owner: 40,
    buyer: 40,
    viewer: 40,
    otherBuyer: 45,
    // Admins do not order; they see the list price like a visitor.
    admin: 50,
  });
});

test("/api/company shows members to owners only, and to nobody outside the company", async () => {
  const mine = async (r: Exclude<Role, "anonymous">) =>
    (await call(r, "GET", "/api/company")).json().company;
  expect((await mine("owner")).members).toHaveLength(3);
  expect((await mine("buyer")).members).toBeNull();
  expect((await mine("viewer")).members).toBeNull();
  const other = await mine("otherBuyer");
  expect(other.id).not.toBe(store.who.companyA.id);
  expect(other.members).toBeNull();
  expect(await mine("noCompany")).toBeNull();
  expect((await call("anonymous", "GET", "/api/company")).statusCode).toBe(401);
});

test("an owner of another company cannot remove company A's members; a buyer cannot remove anyone", async () => {
  for (const r of ["buyer", "viewer", "otherBuyer", "noCompany"] as const) {
    const res = await call(
      r,
      "DELETE",
      `/api/companies/${store.who.companyA.id}/members/${store.who.viewer.id}`,
    );
    expect(res.statusCode, r).toBe(404);
  }
  const members = await call("owner", "GET", `/api/companies/${store.who.companyA.id}/members`);
  expect(members.json()).toHaveLength(3);
});

test("an owner sets a buyer's limits; a buyer cannot set their own, nor another company's owner", async () => {
  const path = (id: string) => `/api/companies/${store.who.companyA.id}/members/${id}`;
  const limitsOf = async () =>
    (
      (await call("admin", "GET", `/api/companies/${store.who.companyA.id}/members`)).json() as {
        userId: string;
        orderLimit: number | null;
        monthlyLimit: number | null;
      }[]
    ).find((m) => m.userId === store.who.buyer.id);
  const set = await call("owner", "PATCH", path(store.who.buyer.id), {
    orderLimit: 250,
    monthlyLimit: 1000,
  });
  expect(set.statusCode, set.body).toBe(200);
  expect(set.json()).toMatchObject({ orderLimit: 250, monthlyLimit: 1000 });
  for (const r of ["buyer", "otherBuyer", "viewer"] as const) {
    const res = await call(r, "PATCH", path(store.who.buyer.id), { orderLimit: null });
    expect(res.statusCode, r).toBe(404);
  }
  // A bad amount is a 400 with the field's message, and changes nothing.
  const bad = await call("owner", "PATCH", path(store.who.buyer.id), { orderLimit: -5 });
  expect(bad.statusCode).toBe(400);
  expect(await limitsOf()).toMatchObject({ orderLimit: 250, monthlyLimit: 1000 });
});
