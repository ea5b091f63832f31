import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { signIn, signUp, signUpAdmin, type TestAccount } from "../../../tests/support/accounts";
import { availableQuantityOf, insertProduct, insertReview } from "../../../tests/support/factories";
import { placeTestOrder } from "../../../tests/support/destination";
import { appForTests, storeForTests } from "../../../tests/support/store";
import { sessionHeaders } from "../../../tests/support/requests";
import type { TestApp } from "../../../tests/support/test-app";
import { payWithTestCard } from "../../../tests/support/payments";
import { RETAIL_GROUP_ID } from "../../contract/customer-groups";
import { account, session } from "../auth/tables";
import { orderItems, orders } from "../orders/tables";
import { products } from "../catalog/tables";
import { reviews } from "../reviews/tables";
import { user } from "./tables";
import { HttpError } from "../errors";
import { createInventory } from "../inventory/service";
import { createRemoveUser } from "../workflows/remove-user";

function client(t: TestApp) {
  const call = (method: "GET" | "PUT" | "DELETE", url: string, who?: TestAccount) =>
    t.app.inject({ method, url, headers: sessionHeaders(who) });
  return {
    list: (query: string, who?: TestAccount) => call("GET", `/api/users${query}`, who),
    makeAdmin: (email: string, who?: TestAccount) =>
      call("PUT", `/api/user/admin/${encodeURIComponent(email)}`, who),
    demote: (email: string, who?: TestAccount) =>
      call("DELETE", `/api/user/admin/${encodeURIComponent(email)}`, who),
    audit: (query: string, who?: TestAccount) => call("GET", `/api/audit${query}`, who),
    remove: (id: string, who?: TestAccount) =>
      call("DELETE", `/api/users/${encodeURIComponent(id)}`, who),
    me: (who: TestAccount) => call("GET", "/api/user", who),
  };
}

async function idOf(t: TestApp, email: string): Promise<string> {
  const [row] = await t.database.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, email.toLowerCase()));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

async function roleOf(t: TestApp, email: string) {
  const [row] = await t.database.db
    .select({ role: user.role })
    .from(user)
    .where(eq(user.email, email.toLowerCase()));
  return row?.role;
}

describe("admin user management", () => {
  const { t, admin, customer, other } = storeForTests({
    admin: { email: "users-admin@example.com", name: "Uma Admin" },
    shipsToTestAddress: true,
    customers: { customer: { name: "Casey Customer" }, other: { name: "Olive Other" } },
  });
  const api = client(t);

  test("GET /api/users: anonymous 401, customers 403, admin 200", async () => {
    const anonymous = await api.list("");
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: "unauthorized", message: "Please sign in" });
    for (const who of [customer, other]) {
      const res = await api.list("", who);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: "forbidden", message: "Only admins can do this" });
    }
    const res = await api.list("", admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((u: { email: string }) => u.email)).toEqual(
      expect.arrayContaining([admin.email, customer.email, other.email]),
    );
  });

  test("PUT /api/user/admin/{email}: anonymous 401, customers 403 (even for themselves), admin 200", async () => {
    const target = await signUp(t.app);
    expect((await api.makeAdmin(target.email)).statusCode).toBe(401);
    expect((await api.makeAdmin(target.email, customer)).statusCode).toBe(403);
    expect((await api.makeAdmin(other.email, other)).statusCode).toBe(403);
    expect(await roleOf(t, target.email)).toBe("user");
    expect(await roleOf(t, other.email)).toBe("user");
    expect((await api.makeAdmin(target.email, admin)).statusCode).toBe(200);
    expect(await roleOf(t, target.email)).toBe("admin");
  });

  test("DELETE /api/users/{id}: anonymous 401, customers 403, admin 200", async () => {
    const target = await signUp(t.app);
    const id = await idOf(t, target.email);
    expect((await api.remove(id)).statusCode).toBe(401);
    expect((await api.remove(id, customer)).statusCode).toBe(403);
    expect((await api.remove(id, other)).statusCode).toBe(403);
    expect((await api.me(target)).statusCode).toBe(200);
    const res = await api.remove(id, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, cancelledOrders: 0 });
    expect((await api.remove(id, admin)).json()).toEqual({
      error: "not_found",
      message: "User not found",
    });
  });

  test("the list shows only id, email, name, role, customer group, createdAt and the bounce mark, newest first", async () => {
    const res = await api.list(`?q=${encodeURIComponent(customer.email)}`, admin);
    expect(res.json()).toEqual([
      {
        _id: await idOf(t, customer.email),
        email: customer.email,
        name: "Casey Customer",
        role: "user",
        // Their own customer group: retail unless an admin chose another (docs/pricing.md).
        customerGroupId: RETAIL_GROUP_ID,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        // Their address never bounced (email-bounces has its own tests).
        emailBouncedAt: null,
        emailBounce: null,
      },
    ]);
    const all = (await api.list("", admin)).json() as { createdAt: string }[];
    const times = all.map((u) => Date.parse(u.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  test("paging: 20 a page by default, the total in X-Total-Count, limits checked", async () => {
    const start = Date.parse("2030-01-01T00:00:00Z");
    await t.database.db.insert(user).values(
      Array.from({ length: 25 }, (_, i) => ({
        id: randomBytes(16).toString("hex"),
        email: `pager-${String(i).padStart(2, "0")}@example.com`,
        name: `Pager ${String(i).padStart(2, "0")}`,
        createdAt: new Date(start + i * 60_000),
      })),
    );
    const first = await api.list("?q=pager-", admin);
    expect(first.statusCode).toBe(200);
    expect(first.headers["x-total-count"]).toBe("25");
    const firstNames = first.json().map((u: { name: string }) => u.name);
    expect(firstNames).toHaveLength(20);
    expect(firstNames[0]).toBe("Pager 24");
    expect(firstNames[19]).toBe("Pager 05");

    const second = await api.list("?q=pager-&limit=20&offset=20", admin);
    expect(second.json().map((u: { name: string }) => u.name)).toEqual([
      "Pager 04",
      "Pager 03",
      "Pager 02",
      "Pager 01",
      "Pager 00",
    ]);
    expect(second.headers["x-total-count"]).toBe("25");

    const small = await api.list("?q=pager-&limit=2&offset=1", admin);
    expect(small.json().map((u: { name: string }) => u.name)).toEqual(["Pager 23", "Pager 22"]);

    for (const bad of ["?limit=0", "?limit=101", "?offset=-1", "?limit=ten"]) {
      const res = await api.list(bad, admin);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error).toBe("validation");
    }
  });

  test("search matches email or name, ignoring case, and LIKE wildcards are plain text", async () => {
    const brakes = await signUp(t.app, {
      name: "Rita 100% Brakes",
      email: `rita_${Date.now()}@example.com`,
    });
    const emails = async (q: string) =>
      (await api.list(`?q=${encodeURIComponent(q)}`, admin))
        .json()
        .map((u: { email: string }) => u.email);

    expect(await emails("CASEY CUSTOMER")).toEqual([customer.email]);
    expect(await emails("olive")).toEqual([other.email]);
    expect(await emails(customer.email.toUpperCase())).toEqual([customer.email]);
    expect(await emails("100%")).toEqual([brakes.email]);
    expect(await emails("%")).toEqual([brakes.email]);
    expect(await emails("_")).toEqual([brakes.email]);
    expect(await emails("nobody-matches-this")).toEqual([]);
    const res = await api.list(`?q=${encodeURIComponent("   olive  ")}`, admin);
    expect(res.headers["x-total-count"]).toBe("1");
  });

  test("Make Admin promotes the user (their role in the list changes), again is harmless", async () => {
    const target = await signUp(t.app, { name: "Pat Promoted" });
    const rowOf = async () =>
      (await api.list(`?q=${encodeURIComponent(target.email)}`, admin)).json()[0];
    expect((await rowOf()).role).toBe("user");
    expect((await api.list("", target)).statusCode).toBe(403);

    const res = await api.makeAdmin(target.email.toUpperCase(), admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      user: {
        _id: await idOf(t, target.email),
        email: target.email,
        name: "Pat Promoted",
        role: "admin",
        customerGroupId: RETAIL_GROUP_ID,
        createdAt: expect.any(String),
        emailBouncedAt: null,
        emailBounce: null,
      },
    });
    expect((await rowOf()).role).toBe("admin");
    // The promoted user's current session is an admin's from the next request on.
    expect((await api.list("", target)).statusCode).toBe(200);

    const again = await api.makeAdmin(target.email, admin);
    expect(again.statusCode).toBe(200);
    expect(again.json().user.role).toBe("admin");
  });

  test("Make Admin: 404 for an unknown email, 400 for something that is not one", async () => {
    const missing = await api.makeAdmin("no-such-person@example.com", admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: "not_found", message: "User not found" });
    const bad = await api.makeAdmin("not-an-email", admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("validation");
  });

  test("DELETE: 404 for an unknown id, 400 for a malformed one", async () => {
    const missing = await api.remove("NoSuchUserId0123456789", admin);
    expect(missing.statusCode).toBe(404);
    const bad = await api.remove("bad id'", admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("validation");
  });

  test("removing a customer ends their sessions, cancels unpaid orders, keeps paid ones", async () => {
    const victim = await signUp(t.app, { name: "Vic Removed" });
    const secondDevice = { ...victim, cookie: await signIn(t.app, victim.email, victim.password) };
    const victimId = await idOf(t, victim.email);

    const held = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 50 });
    const bought = await insertProduct(t.database.db, {
      minimumOrder: 1,
      availableQuantity: 50,
      priceCents: 2500,
    });
    const place = async (productId: string, orderQty: number) => {
      const res = await placeTestOrder(t.app, victim, productId, orderQty);
      expect(res.statusCode).toBe(201);
      return res.json().order._id as string;
    };
    const unpaidId = await place(held.id, 3);
    const paidId = await place(bought.id, 2);

    // Pay the second order through the test-card gateway, as the customer would.
    const { charged, paid } = await payWithTestCard(t.app, victim, paidId);
    expect(paid.json()).toMatchObject({ status: "paid" });

    const review = await insertReview(t.database.db, { userId: victimId, email: victim.email });
    const stock = (id: string) => availableQuantityOf(t.database.db, id);
    expect(await stock(held.id)).toBe(47);
    expect(await stock(bought.id)).toBe(48);

    const res = await api.remove(victimId, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, cancelledOrders: 1 });

    // Both of their sessions are gone: the old cookies no longer sign anyone in.
    for (const who of [victim, secondDevice]) {
      const me = await api.me(who);
      expect(me.statusCode).toBe(401);
    }
    const db = t.database.db;
    expect(await db.select().from(session).where(eq(session.userId, victimId))).toEqual([]);
    expect(await db.select().from(account).where(eq(account.userId, victimId))).toEqual([]);
    expect((await api.list(`?q=${encodeURIComponent(victim.email)}`, admin)).json()).toEqual([]);

    // The unpaid order is cancelled and its stock is back; the paid one is kept for the records.
    const [unpaid] = await db.select().from(orders).where(eq(orders.id, unpaidId));
    expect(unpaid).toMatchObject({ status: "cancelled", userId: null, orderEmail: victim.email });
    expect(unpaid?.cancelledAt).toBeInstanceOf(Date);
    expect(await stock(held.id)).toBe(50);
    const [kept] = await db.select().from(orders).where(eq(orders.id, paidId));
    expect(kept).toMatchObject({
      status: "paid",
      userId: null,
      orderEmail: victim.email,
      transactionId: charged.json().transactionId,
      totalCents: 5000,
    });
    expect(await stock(bought.id)).toBe(48);

    // Their review stays on the public list, no longer tied to an account.
    const [kept2] = await db.select().from(reviews).where(eq(reviews.id, review.id));
    expect(kept2).toMatchObject({ userId: null, email: victim.email });

    // And they cannot sign in again.
    const signInAgain = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      payload: { email: victim.email, password: victim.password },
    });
    expect(signInAgain.statusCode).toBe(401);
  });

  test("only the removed user's orders are touched", async () => {
    const victim = await signUp(t.app);
    const bystander = await signUp(t.app);
    const p = await insertProduct(t.database.db, { minimumOrder: 1, availableQuantity: 10 });
    for (const who of [victim, bystander]) {
      const res = await placeTestOrder(t.app, who, p.id, 2, "2 Dock Road");
      expect(res.statusCode).toBe(201);
    }
    const bystanderId = await idOf(t, bystander.email);
    expect((await api.remove(await idOf(t, victim.email), admin)).json().cancelledOrders).toBe(1);
    const theirs = await t.database.db
      .select({ status: orders.status })
      .from(orders)
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
      .where(and(eq(orders.userId, bystanderId), eq(orderItems.productId, p.id)));
    expect(theirs).toEqual([{ status: "unpaid" }]);
    const [row] = await t.database.db
      .select({ n: products.availableQuantity })
      .from(products)
      .where(eq(products.id, p.id));
    expect(row?.n).toBe(8);
    expect((await api.me(bystander)).statusCode).toBe(200);
  });

  test("an admin cannot remove their own account", async () => {
    const res = await api.remove(await idOf(t, admin.email), admin);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: "rule_broken",
      message: "You cannot remove your own account",
    });
    expect((await api.me(admin)).statusCode).toBe(200);
  });

  test("the OpenAPI document describes the three admin routes and their answers", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    const list = doc.paths["/api/users"].get;
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      "limit",
      "offset",
      "q",
    ]);
    expect(Object.keys(doc.paths["/api/user/admin/{email}"].put.responses)).toEqual(
      expect.arrayContaining(["200", "400", "401", "403", "404"]),
    );
    expect(Object.keys(doc.paths["/api/users/{id}"].delete.responses)).toEqual(
      expect.arrayContaining(["200", "400", "401", "403", "404", "422"]),
    );
  });

  test("an admin can remove another admin while one admin remains", async () => {
    const second = await signUp(t.app);
    await api.makeAdmin(second.email, admin);
    const res = await api.remove(await idOf(t, second.email), admin);
    expect(res.statusCode).toBe(200);
    expect((await api.me(second)).statusCode).toBe(401);
    expect(await roleOf(t, admin.email)).toBe("admin");
  });
});

describe("the last admin", () => {
  const { t } = appForTests({
    env: { ADMIN_EMAILS: "ann-admin@example.com,ben-admin@example.com" },
  });
  const api = client(t);
  let ann: TestAccount;
  let ben: TestAccount;

  beforeAll(async () => {
    ann = await signUpAdmin(t, { email: "ann-admin@example.com", name: "Ann Admin" });
    ben = await signUpAdmin(t, { email: "ben-admin@example.com", name: "Ben Admin" });
  });

  const adminCount = async () =>
    (await t.database.db.select().from(user).where(eq(user.role, "admin"))).length;

  test("two admins removing each other at once: one goes, the other stays", async () => {
    const [annId, benId] = [await idOf(t, ann.email), await idOf(t, ben.email)];
    const results = await Promise.all([api.remove(benId, ann), api.remove(annId, ben)]);
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(200);
    // The loser either is refused as the last admin, or (if the winner finished before the loser's
    // session was read) is no longer signed in at all.
    expect([401, 422]).toContain(statuses[1]);
    const refused = results.find((r) => r.statusCode === 422);
    if (refused) expect(refused.json().message).toBe("The last admin cannot be removed");
    expect(await adminCount()).toBe(1);
  });

  test("the only admin left cannot be removed, by themself or anyone", async () => {
    const [survivor] = await t.database.db
      .select({ id: user.id, email: user.email })
      .from(user)
      .where(eq(user.role, "admin"));
    if (!survivor) throw new Error("no admin left");
    const who = survivor.email === ann.email ? ann : ben;

    const self = await api.remove(survivor.id, who);
    expect(self.statusCode).toBe(422);
    expect(self.json().message).toBe("You cannot remove your own account");

    // Over HTTP only an admin can call, and an admin removing another leaves one behind; so ask
    // the service directly, on behalf of someone who is not an admin row.
    const removeUser = createRemoveUser(createInventory(t.database.db), {
      cancelIntentsOf: async () => {},
    });
    const customer = await signUp(t.app);
    const attempt = removeUser(
      { id: await idOf(t, customer.email), email: customer.email },
      survivor.id,
    );
    await expect(attempt).rejects.toBeInstanceOf(HttpError);
    await expect(attempt).rejects.toMatchObject({
      statusCode: 422,
      message: "The last admin cannot be removed",
    });
    expect(await roleOf(t, survivor.email)).toBe("admin");
    expect((await api.me(who)).statusCode).toBe(200);

    // With a second admin made, the first one can be removed by them; then the rule holds again.
    await api.makeAdmin(customer.email, who);
    const byNew = await api.remove(survivor.id, customer);
    expect(byNew.statusCode).toBe(200);
    expect(await adminCount()).toBe(1);
    await expect(
      removeUser({ id: "someone-else", email: "x@example.com" }, await idOf(t, customer.email)),
    ).rejects.toMatchObject({ statusCode: 422, message: "The last admin cannot be removed" });
  });
});

describe("taking the admin role away, and the audit log", () => {
  const {
    t,
    admin: first,
    customer,
  } = storeForTests({
    admin: { email: "demote-admin@example.com", name: "Dana Admin" },
    customers: { customer: { name: "Casey Customer" } },
  });
  const api = client(t);

  test("DELETE /api/user/admin/{email}: anonymous 401, customers 403, unknown 404, bad email 400", async () => {
    expect((await api.demote(first.email)).statusCode).toBe(401);
    expect((await api.demote(first.email, customer)).statusCode).toBe(403);
    expect((await api.demote(customer.email, customer)).statusCode).toBe(403);
    const missing = await api.demote("nobody-here@example.com", first);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe("User not found");
    expect((await api.demote("not-an-email", first)).statusCode).toBe(400);
    // A customer stays a customer: harmless.
    const plain = await api.demote(customer.email, first);
    expect(plain.statusCode).toBe(200);
    expect(plain.json().user.role).toBe("user");
  });

  test("the last admin cannot stop being one, not even by themself; with two, either may go", async () => {
    const alone = await api.demote(first.email, first);
    expect(alone.statusCode).toBe(422);
    expect(alone.json()).toEqual({
      error: "rule_broken",
      message: "The last admin cannot stop being an admin",
    });
    expect(await roleOf(t, first.email)).toBe("admin");

    const second = await signUp(t.app, { name: "Sam Second" });
    expect((await api.makeAdmin(second.email.toUpperCase(), first)).statusCode).toBe(200);
    const demoted = await api.demote(second.email, first);
    expect(demoted.statusCode).toBe(200);
    expect(demoted.json()).toMatchObject({ success: true, user: { role: "user" } });
    expect(await roleOf(t, second.email)).toBe("user");
    // Their admin pages close at once (the role is read on every request).
    expect((await api.list("", second)).statusCode).toBe(403);

    // Made admin again, they demote the first admin, and then cannot demote themself.
    await api.makeAdmin(second.email, first);
    expect((await api.demote(first.email, second)).statusCode).toBe(200);
    expect((await api.demote(second.email, second)).statusCode).toBe(422);
    expect(await roleOf(t, second.email)).toBe("admin");
    expect((await api.demote(first.email, first)).statusCode).toBe(403);
    // Hand back for the next test.
    await api.makeAdmin(first.email, second);
  });

  test("two admins demoting each other at once: one admin is always left", async () => {
    const a = await signUp(t.app);
    const b = await signUp(t.app);
    await api.makeAdmin(a.email, first);
    await api.makeAdmin(b.email, first);
    // Leave only a and b as admins: b demotes every other one.
    const others = await t.database.db
      .select({ email: user.email })
      .from(user)
      .where(eq(user.role, "admin"));
    for (const o of others.filter((o) => o.email !== a.email && o.email !== b.email)) {
      expect((await api.demote(o.email, b)).statusCode).toBe(200);
    }
    const results = await Promise.all([api.demote(b.email, a), api.demote(a.email, b)]);
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 422]).toContain(statuses[1]);
    const admins = await t.database.db.select().from(user).where(eq(user.role, "admin"));
    expect(admins).toHaveLength(1);
    const left = admins[0]!.email === a.email ? a : b;
    await api.makeAdmin(first.email, left);
  });

  test("role changes and removals are in the audit log, newest first, with who and when", async () => {
    const target = await signUp(t.app, { name: "Audrey Audited" });
    const before = Date.now();
    await api.makeAdmin(target.email, first);
    await api.makeAdmin(target.email, first); // again: harmless, not logged
    await api.demote(target.email, first);
    await api.remove(await idOf(t, target.email), first);
    // A refused action leaves no row.
    expect((await api.demote(first.email, customer)).statusCode).toBe(403);

    expect((await api.audit("")).statusCode).toBe(401);
    expect((await api.audit("", customer)).statusCode).toBe(403);
    const res = await api.audit("?limit=3", first);
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers["x-total-count"])).toBeGreaterThanOrEqual(3);
    const rows = res.json() as {
      action: string;
      actorEmail: string;
      targetId: string;
      summary: string;
      at: string;
    }[];
    expect(rows.map((r) => r.action)).toEqual([
      "user.remove",
      "user.remove-admin",
      "user.make-admin",
    ]);
    for (const r of rows) {
      expect(r.actorEmail).toBe(first.email);
      expect(r.summary).toContain(target.email);
      expect(Date.parse(r.at)).toBeGreaterThanOrEqual(before - 5_000);
    }
    const page2 = await api.audit("?limit=3&offset=3", first);
    expect(page2.json()).not.toContainEqual(rows[0]);
    expect((await api.audit("?limit=0", first)).statusCode).toBe(400);
  });
});
