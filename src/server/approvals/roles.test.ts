import { beforeAll, expect, test } from "vitest";
import { insertProduct } from "../../../tests/support/factories";
import { TEST_SHIP_TO } from "../../../tests/support/destination";
import { shippingAppWithAdmin } from "../../../tests/support/store";
import { runRoleTable, tradeRoleStore, type RoleRow } from "../../../tests/support/roles";
import { setOrderLimit } from "../../../tests/support/trade";

/**
 * The approvals routes for every trade role beside the authorisation matrix's four: company A's
 * owner, buyer and viewer, an owner of company B, a customer without a company, an admin and a
 * visitor. Only A's owner decides A's orders; admins see the list, read only.
 */
const store = tradeRoleStore({
  other: "otherOwner",
  otherRole: "owner",
  start: () => shippingAppWithAdmin("approval-roles-admin@example.com"),
});
const { roles, call } = store;
type Role = (typeof roles)[number];

beforeAll(async () => {
  const { owner, buyer, companyA } = store.who;
  const limit = await setOrderLimit(store.t.app, owner, companyA.id, buyer.id, 1);
  expect(limit.statusCode).toBe(200);
});

/** A new order of company A's buyer, over their $1.00 limit: awaiting approval. */
async function awaitingOrder(): Promise<string> {
  const p = await insertProduct(store.t.database.db, { priceCents: 500, minimumOrder: 1 });
  const res = await call("buyer", "POST", "/api/orders", {
    productId: p.id,
    orderQty: 1,
    phonrNo: "5550100",
    Address: "1 Fleet Yard",
    shipTo: TEST_SHIP_TO,
  });
  expect(res.json().order.status).toBe("awaiting_approval");
  return res.json().order._id;
}

const decider = (ok: number) => ({
  anonymous: 401,
  noCompany: 403,
  owner: ok,
  buyer: 403,
  viewer: 403,
  // Another company's order is not said to exist.
  otherOwner: 404,
  admin: 403,
});

test("each trade role gets what the table says on the approvals routes", async () => {
  const rows: RoleRow<Role>[] = [
    {
      what: "GET /api/approvals",
      run: async (r) => (await call(r, "GET", "/api/approvals")).statusCode,
      expect: { ...decider(200), otherOwner: 200, admin: 200 },
    },
    {
      what: "POST /api/approvals/:orderId/approve",
      run: async (r) =>
        (await call(r, "POST", `/api/approvals/${await awaitingOrder()}/approve`, {})).statusCode,
      expect: decider(200),
    },
    {
      what: "POST /api/approvals/:orderId/decline",
      run: async (r) =>
        (
          await call(r, "POST", `/api/approvals/${await awaitingOrder()}/decline`, {
            note: "Not this month",
          })
        ).statusCode,
      expect: decider(200),
    },
  ];
  const { got, want } = await runRoleTable(rows, roles);
  expect(got).toEqual(want);
});

test("nobody sees another company's orders awaiting approval; an admin sees every company's", async () => {
  const orderId = await awaitingOrder();
  const ids = async (r: Role) =>
    ((await call(r, "GET", "/api/approvals")).json() as { orderId: string }[]).map(
      (a) => a.orderId,
    );
  expect(await ids("owner")).toContain(orderId);
  expect(await ids("admin")).toContain(orderId);
  expect(await ids("otherOwner")).not.toContain(orderId);
  // An admin's list is read only.
  const admin = await call("admin", "POST", `/api/approvals/${orderId}/approve`, {});
  expect(admin.json().message).toBe(
    "Admins see the orders awaiting approval; only the company's owners decide them",
  );
});
