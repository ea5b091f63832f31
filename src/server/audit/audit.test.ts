import { randomUUID } from "node:crypto";
import { expect, test } from "vitest";
import { placeTestOrder } from "../../../tests/support/destination";
import { caliperProductBody, insertProduct } from "../../../tests/support/factories";
import { storeForTests } from "../../../tests/support/store";
import { sessionHeaders } from "../../../tests/support/requests";
import type { AuditEntry } from "../../contract/audit";
import { adminAuditLog } from "./tables";

const call = (method: "POST" | "PATCH" | "DELETE" | "GET", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: sessionHeaders(admin), ...(payload && { payload }) });
const rowCount = async () => (await t.database.db.select().from(adminAuditLog)).length;
const newest = async (n: number): Promise<AuditEntry[]> =>
  (await call("GET", `/api/audit?limit=${n}`)).json();

const { t, admin, customer } = storeForTests({
  admin: { email: "audit-admin@example.com", name: "Audra Admin" },
  shipsToTestAddress: true,
  customers: { customer: { name: "Casey" } },
});

test("product create, edit and delete are logged with who, what and the product", async () => {
  const partNumber = `PW-A-${randomUUID().slice(0, 8)}`.toUpperCase();
  const created = await call("POST", "/api/products", {
    ...caliperProductBody(),
    name: "Audited caliper",
    partNumber,
  });
  expect(created.statusCode).toBe(201);
  const id = created.json().product._id as string;
  expect((await call("PATCH", `/api/products/${id}`, { price: 99.5 })).statusCode).toBe(200);
  expect((await call("DELETE", `/api/products/${id}`)).statusCode).toBe(200);

  const rows = await newest(3);
  expect(rows.map((r) => [r.action, r.targetType, r.targetId])).toEqual([
    ["product.delete", "product", id],
    ["product.edit", "product", id],
    ["product.create", "product", id],
  ]);
  for (const r of rows) {
    expect(r.actorEmail).toBe("audit-admin@example.com");
    expect(r.summary).toContain(partNumber);
  }
  expect(rows[1]!.summary).toContain("price");
});

test("a refused admin action writes nothing (the row is in the action's transaction)", async () => {
  const before = await rowCount();
  const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 5 });
  // Stock below the minimum: refused, so no audit row either.
  const refused = await call("PATCH", `/api/products/${p.id}`, { minimumOrder: 10 });
  expect(refused.statusCode).toBeGreaterThanOrEqual(400);
  expect(refused.statusCode).toBeLessThan(500);
  expect((await call("DELETE", `/api/products/${randomUUID()}`)).statusCode).toBe(404);
  expect(await rowCount()).toBe(before);
});

test("cancelling an order and cancelling an account's holds are logged", async () => {
  const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 50 });
  const place = () => placeTestOrder(t.app, customer, p.id, 1);
  const order = (await place()).json().order as { _id: string };
  const cancel = await call("PATCH", `/api/orders/${order._id}/status`, { status: "cancelled" });
  expect(cancel.statusCode).toBe(200);
  await place();
  const [me] = (
    await t.app.inject({ method: "GET", url: "/api/user", headers: sessionHeaders(customer) })
  )
    .json()
    ._id.split(" ");
  const holds = await call("DELETE", `/api/holds/${me}`);
  expect(holds.statusCode).toBe(200);

  const rows = await newest(2);
  expect(rows.map((r) => r.action)).toEqual(["order.cancel-holds", "order.cancel"]);
  expect(rows[1]!.targetId).toBe(order._id);
  expect(rows[1]!.summary).toContain(customer.email);
  expect(rows[0]!.summary).toBe(`Cancelled 1 unpaid orders of ${customer.email}`);
});
