import { expect, test } from "vitest";
import { AUSTIN_DOCK } from "../../../tests/support/destination";
import { testAppWithAdmin } from "../../../tests/support/store";
import { runRoleTable, tradeRoleStore, type RoleRow } from "../../../tests/support/roles";
import { companyAddresses } from "./tables";

/**
 * Company A's ship-to addresses for each trade role beside the authorisation matrix's four:
 * its owner, buyer and viewer, a buyer of company B, a customer with no company, an admin and a
 * visitor. Owners and admins manage them, members list them, nobody else learns they exist; at
 * checkout only A's members may deliver to them.
 */
const store = tradeRoleStore({
  other: "otherBuyer",
  otherRole: "buyer",
  start: () => testAppWithAdmin("shipto-roles-admin@example.com"),
});
const { roles, call } = store;
type Role = (typeof roles)[number];

const dock = { name: "Dock", ...AUSTIN_DOCK };

/** A fresh address of company A, put in directly. */
async function freshAddress(): Promise<string> {
  const [row] = await store.t.database.db
    .insert(companyAddresses)
    .values({ companyId: store.who.companyA.id, ...dock })
    .returning({ id: companyAddresses.id });
  return row!.id;
}

const membersAndAdmins = (ok: number) => ({
  anonymous: 401,
  noCompany: 404,
  owner: ok,
  buyer: ok,
  viewer: ok,
  otherBuyer: 404,
  admin: ok,
});
const ownersAndAdmins = (ok: number) => ({
  ...membersAndAdmins(ok),
  buyer: 403,
  viewer: 403,
});

test("each trade role gets what the table says on company A's ship-to addresses", async () => {
  const at = () => `/api/companies/${store.who.companyA.id}/addresses`;
  const rows: RoleRow<Role>[] = [
    {
      what: "GET /api/companies/:id/addresses",
      run: async (r) => (await call(r, "GET", at())).statusCode,
      expect: membersAndAdmins(200),
    },
    {
      what: "POST /api/companies/:id/addresses",
      run: async (r) => (await call(r, "POST", at(), dock)).statusCode,
      expect: ownersAndAdmins(201),
    },
    {
      what: "PATCH /api/companies/:id/addresses/:addressId",
      run: async (r) =>
        (await call(r, "PATCH", `${at()}/${await freshAddress()}`, { line2: "Door 1" })).statusCode,
      expect: ownersAndAdmins(200),
    },
    {
      what: "DELETE /api/companies/:id/addresses/:addressId",
      run: async (r) => (await call(r, "DELETE", `${at()}/${await freshAddress()}`)).statusCode,
      expect: ownersAndAdmins(204),
    },
    {
      // The cart's quote to one of A's addresses: A's members only (a viewer may see the
      // figures; placing the order is refused to viewers as before). An admin belongs to no
      // company, so is refused as any non-member is.
      what: "POST /api/cart/quote to company A's address",
      run: async (r) =>
        (await call(r, "POST", "/api/cart/quote", { addressId: await freshAddress() })).statusCode,
      expect: {
        anonymous: 401,
        noCompany: 400,
        owner: 200,
        buyer: 200,
        viewer: 200,
        otherBuyer: 400,
        admin: 400,
      },
    },
  ];
  const { got, want } = await runRoleTable(rows, roles);
  expect(got).toEqual(want);
});

test("nobody outside company A reads its addresses' text, even by guessing an id", async () => {
  const id = await freshAddress();
  for (const r of ["noCompany", "otherBuyer"] as const) {
    const res = await call(r, "PATCH", `/api/companies/${store.who.companyA.id}/addresses/${id}`, {
      city: "Dallas",
    });
    expect(res.statusCode, r).toBe(404);
    expect(res.body, r).not.toContain("Main St");
  }
  const listed = await call("viewer", "GET", `/api/companies/${store.who.companyA.id}/addresses`);
  expect(listed.json().find((a: { id: string }) => a.id === id)).toMatchObject({
    city: "Austin",
  });
});
