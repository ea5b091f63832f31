import { beforeAll, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { makeBuyer, signUpBuyer } from "../../../tests/support/buyers";
import { insertProduct, insertReview } from "../../../tests/support/factories";
import { placeTestOrder } from "../../../tests/support/destination";
import { storeForTests } from "../../../tests/support/store";
import { REVIEW_NOT_PENDING_MESSAGE } from "../../contract/reviews";
import { adminAuditLog } from "../audit/tables";
import { orders } from "../orders/tables";
import { REVIEW_PERIOD_MESSAGE } from "./service";

// Many fresh accounts from the one test address: sign-up's own limit is not under test here.
const { t, call, admin } = storeForTests({
  admin: { email: "moderator@example.com", name: "Mo Derator" },
  shipsToTestAddress: true,
  env: { AUTH_RATE_LIMIT_PER_IP: "1000" },
});
beforeAll(async () => {
  // Published reviews to start from (as the demo's), so hiding or approving moves the average.
  for (const ratings of [4, 5]) await insertReview(t.database.db, { ratings });
});

const post = (who: TestAccount, ratings = 1, ip = "203.0.113.9") =>
  t.app.inject({
    method: "POST",
    url: "/api/reviews",
    headers: { cookie: who.cookie },
    payload: { ratings, descreption: "Terrible" },
    remoteAddress: ip,
  });
const summary = async () =>
  (await call(null, "GET", "/api/reviews/summary")).json() as {
    average: number;
    count: number;
  };
const listIds = async () =>
  (
    (await call(null, "GET", "/api/reviews?limit=100")).json() as {
      _id: string;
    }[]
  ).map((r) => r._id);

/** An admin's list (GET /api/reviews/hidden or /pending): the ids, and X-Total-Count. */
const adminList = async (which: "hidden" | "pending") => {
  const res = await call(admin, "GET", `/api/reviews/${which}?limit=100`);
  expect(res.statusCode).toBe(200);
  const ids = (res.json() as { _id: string }[]).map((r) => r._id);
  return { ids, total: Number(res.headers["x-total-count"]) };
};
const hiddenIds = async () => (await adminList("hidden")).ids;
const pendingIds = async () => (await adminList("pending")).ids;
/** Approve as the admin, as someone else, or (null) anonymously. */
const approve = (id: string, who: TestAccount | null = admin) =>
  call(who, "POST", `/api/reviews/${id}/approve`);

test("200 reviews in a second from one customer: exactly one is stored", async () => {
  const spammer = await signUp(t.app);
  const before = await summary();
  const pendingBefore = (await adminList("pending")).total;
  const answers = await Promise.all(Array.from({ length: 200 }, () => post(spammer)));
  const codes = answers.map((a) => a.statusCode);
  expect(codes.filter((c) => c === 201)).toHaveLength(1);
  expect(codes.every((c) => c === 201 || c === 429)).toBe(true);
  expect(answers.some((a) => a.json().message === REVIEW_PERIOD_MESSAGE)).toBe(true);
  // A fresh account's one review waits for approval: queued, not counted.
  expect((await adminList("pending")).total).toBe(pendingBefore + 1);
  expect(await summary()).toEqual(before);
});

test("a second review within the week is refused with the rule's message", async () => {
  const a = await signUp(t.app);
  expect((await post(a, 5, "203.0.113.20")).statusCode).toBe(201);
  const again = await post(a, 5, "203.0.113.20");
  expect(again.statusCode).toBe(429);
  expect(again.json()).toMatchObject({ error: "review_limit", message: REVIEW_PERIOD_MESSAGE });
});

test("posting is rate-limited per client IP (many new accounts from one address)", async () => {
  const ip = "198.51.100.77";
  const codes: number[] = [];
  for (let i = 0; i < 21; i++) codes.push((await post(await signUp(t.app), 3, ip)).statusCode);
  expect(codes.slice(0, 20).every((c) => c === 201)).toBe(true);
  expect(codes[20]).toBe(429);
  const blocked = await post(await signUp(t.app), 3, ip);
  expect(blocked.headers["retry-after"]).toMatch(/^\d+$/);
});

test("an admin hides a review (out of the list, the average and the count), shows it again, and deletes it", async () => {
  const customer = await signUpBuyer(t);
  const created = await post(customer, 1, "192.0.2.44");
  expect(created.statusCode).toBe(201);
  const id = created.json().review._id as string;
  const withIt = await summary();

  const moderate = (method: "PATCH" | "DELETE", payload?: object, who = admin) =>
    t.app.inject({
      method,
      url: `/api/reviews/${id}`,
      headers: { cookie: who.cookie },
      ...(payload ? { payload } : {}),
    });

  expect((await moderate("PATCH", { hidden: true }, customer)).statusCode).toBe(403);
  expect((await moderate("PATCH", { hidden: true })).statusCode).toBe(204);
  expect(await listIds()).not.toContain(id);
  expect(await hiddenIds()).toContain(id);
  const hidden = await summary();
  expect(hidden.count).toBe(withIt.count - 1);
  expect(hidden.average).toBeGreaterThan(withIt.average);

  expect((await moderate("PATCH", { hidden: false })).statusCode).toBe(204);
  expect(await listIds()).toContain(id);
  expect(await hiddenIds()).not.toContain(id);
  expect(await summary()).toEqual(withIt);

  expect((await moderate("DELETE")).statusCode).toBe(204);
  expect(await listIds()).not.toContain(id);
  expect((await summary()).count).toBe(withIt.count - 1);
  expect((await moderate("DELETE")).statusCode).toBe(404);
  // Each change is in the audit log under the admin, oldest first here.
  const audit = await t.database.db
    .select({ action: adminAuditLog.action, actor: adminAuditLog.actorEmail })
    .from(adminAuditLog)
    .where(eq(adminAuditLog.targetId, id))
    .orderBy(adminAuditLog.at, adminAuditLog.id);
  expect(audit.map((a) => a.action)).toEqual(["review.hide", "review.show", "review.delete"]);
  expect(new Set(audit.map((a) => a.actor))).toEqual(new Set(["moderator@example.com"]));
  expect((await moderate("PATCH", { hidden: "yes" })).statusCode).toBe(400);
  const badId = await call(admin, "DELETE", "/api/reviews/not-a-uuid");
  expect(badId.statusCode).toBe(400);
});

describe("verified buyers and the approval queue", () => {
  test("a customer without a paid order: the review waits, out of the list, the average and the count", async () => {
    const before = await summary();
    const fresh = await signUp(t.app);
    const res = await post(fresh, 1, "192.0.2.60");
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ success: true, pending: true });
    expect(res.json().review).toMatchObject({ verifiedBuyer: false, ratings: 1 });
    const id = res.json().review._id as string;
    expect(await listIds()).not.toContain(id);
    expect(await summary()).toEqual(before);
    const queue = await adminList("pending");
    expect(queue.ids).toContain(id);
    expect(queue.total).toBeGreaterThanOrEqual(1);
    expect(await hiddenIds()).not.toContain(id);
  });

  test("an order placed but not paid (or cancelled) does not make a verified buyer", async () => {
    const placer = await signUp(t.app);
    const product = await insertProduct(t.database.db, { minimumOrder: 1 });
    const placed = await placeTestOrder(t.app, placer, product.id, 1);
    expect(placed.statusCode).toBe(201);
    const res = await post(placer, 5, "192.0.2.61");
    expect(res.json()).toMatchObject({ pending: true, review: { verifiedBuyer: false } });
    const [order] = await t.database.db
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, placed.json().order._id as string));
    expect(order?.status).toBe("unpaid");
  });

  test("a customer with a paid order: published at once, marked as a verified buyer, and counted", async () => {
    const buyer = await signUpBuyer(t);
    const before = await summary();
    const res = await post(buyer, 5, "192.0.2.62");
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ pending: false, review: { verifiedBuyer: true } });
    const id = res.json().review._id as string;
    expect(await listIds()).toContain(id);
    expect(await pendingIds()).not.toContain(id);
    expect((await summary()).count).toBe(before.count + 1);
    const [listed] = (
      (await call(null, "GET", "/api/reviews?limit=100")).json() as {
        _id: string;
        verifiedBuyer: boolean;
      }[]
    ).filter((r) => r._id === id);
    expect(listed?.verifiedBuyer).toBe(true);
  });

  test("a shipped order counts too", async () => {
    const shipper = await signUpBuyer(t);
    await t.database.db
      .update(orders)
      .set({ status: "shipped", shippedAt: new Date() })
      .where(eq(orders.orderEmail, shipper.email));
    const res = await post(shipper, 4, "192.0.2.63");
    expect(res.json()).toMatchObject({ pending: false, review: { verifiedBuyer: true } });
  });

  test("an admin approves a waiting review: listed and counted, in the audit log; twice is 409, unknown is 404", async () => {
    const fresh = await signUp(t.app);
    const created = await post(fresh, 2, "192.0.2.64");
    const id = created.json().review._id as string;
    const before = await summary();

    expect((await approve(id, null)).statusCode).toBe(401);
    expect((await approve(id, fresh)).statusCode).toBe(403);
    expect(await pendingIds()).toContain(id);

    expect((await approve(id)).statusCode).toBe(204);
    expect(await listIds()).toContain(id);
    expect(await pendingIds()).not.toContain(id);
    const after = await summary();
    expect(after.count).toBe(before.count + 1);
    expect(after.average).toBeLessThan(before.average);

    const again = await approve(id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: REVIEW_NOT_PENDING_MESSAGE });
    const unknown = await approve("00000000-0000-4000-8000-000000000000");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: "No such review" });
    expect((await approve("not-a-uuid")).statusCode).toBe(400);
    expect(await summary()).toEqual(after);

    const audit = await t.database.db
      .select({ action: adminAuditLog.action, actor: adminAuditLog.actorEmail })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, id));
    expect(audit).toEqual([{ action: "review.approve", actor: "moderator@example.com" }]);
  });

  test("a waiting review can be deleted from the queue", async () => {
    const created = await post(await signUp(t.app), 1, "192.0.2.65");
    const id = created.json().review._id as string;
    const res = await call(admin, "DELETE", `/api/reviews/${id}`);
    expect(res.statusCode).toBe(204);
    expect(await pendingIds()).not.toContain(id);
    expect((await approve(id)).statusCode).toBe(404);
  });

  test("the queue is for admins only", async () => {
    const customer = await signUp(t.app);
    const anonymous = await call(null, "GET", "/api/reviews/pending");
    expect(anonymous.statusCode).toBe(401);
    const asCustomer = await call(customer, "GET", "/api/reviews/pending");
    expect(asCustomer.statusCode).toBe(403);
  });

  test("the pentest: ten fresh accounts posting 1-star reviews leave the shown average and count unchanged", async () => {
    // Some published reviews from buyers first, so there is an average to drag down.
    for (let i = 0; i < 2; i++) {
      expect((await post(await signUpBuyer(t), 5, "192.0.2.66")).statusCode).toBe(201);
    }
    const before = await summary();
    expect(before.count).toBeGreaterThan(0);
    for (let i = 0; i < 10; i++) {
      expect((await post(await signUp(t.app), 1, "198.51.100.90")).statusCode).toBe(201);
    }
    expect(await summary()).toEqual(before);
  });

  test("a customer who buys after posting: the earlier review stays pending until approved", async () => {
    const later = await signUp(t.app);
    const created = await post(later, 3, "192.0.2.67");
    expect(created.json().pending).toBe(true);
    await makeBuyer(t, later);
    expect(await pendingIds()).toContain(created.json().review._id);
  });
});
