import { afterAll, beforeAll, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { signUp, signUpAdmin, type TestAccount } from "../../../tests/support/accounts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app";
import { adminAuditLog } from "../db/schema";
import { REVIEW_PERIOD_MESSAGE } from "./service";

let t: TestApp;
let admin: TestAccount;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: "moderator@example.com" });
  admin = await signUpAdmin(t, { email: "moderator@example.com", name: "Mo Derator" });
});
afterAll(() => t.close());

const post = (who: TestAccount, ratings = 1, ip = "203.0.113.9") =>
  t.app.inject({
    method: "POST",
    url: "/api/reviews",
    headers: { cookie: who.cookie },
    payload: { ratings, descreption: "Terrible" },
    remoteAddress: ip,
  });
const summary = async () =>
  (await t.app.inject({ method: "GET", url: "/api/reviews/summary" })).json() as {
    average: number;
    count: number;
  };
const listIds = async () =>
  (
    (await t.app.inject({ method: "GET", url: "/api/reviews?limit=100" })).json() as {
      _id: string;
    }[]
  ).map((r) => r._id);

/** The admin's list of hidden reviews (GET /api/reviews/hidden). */
const hiddenIds = async () => {
  const res = await t.app.inject({
    method: "GET",
    url: "/api/reviews/hidden?limit=100",
    headers: { cookie: admin.cookie },
  });
  expect(res.statusCode).toBe(200);
  expect(Number(res.headers["x-total-count"])).toBeGreaterThanOrEqual(0);
  return (res.json() as { _id: string }[]).map((r) => r._id);
};

test("200 reviews in a second from one customer: exactly one is stored", async () => {
  const spammer = await signUp(t.app);
  const before = await summary();
  const answers = await Promise.all(Array.from({ length: 200 }, () => post(spammer)));
  const codes = answers.map((a) => a.statusCode);
  expect(codes.filter((c) => c === 201)).toHaveLength(1);
  expect(codes.every((c) => c === 201 || c === 429)).toBe(true);
  expect(answers.some((a) => a.json().message === REVIEW_PERIOD_MESSAGE)).toBe(true);
  expect((await summary()).count).toBe(before.count + 1);
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
  const customer = await signUp(t.app);
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
  const badId = await t.app.inject({
    method: "DELETE",
    url: "/api/reviews/not-a-uuid",
    headers: { cookie: admin.cookie },
  });
  expect(badId.statusCode).toBe(400);
});
