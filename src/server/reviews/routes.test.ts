import { and, eq, isNull } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { signUp, type TestAccount } from "../../../tests/support/accounts";
import { signUpBuyer } from "../../../tests/support/buyers";
import { insertReview } from "../../../tests/support/factories";
import { shipsToTestAddress } from "../../../tests/support/destination";
import { storeForTests } from "../../../tests/support/store";
import { sendMalformedJson } from "../../../tests/support/requests";
import { createTestApp } from "../../../tests/support/test-app";
import { reviews } from "./tables";

let customer: TestAccount;
let other: TestAccount;

const { t, call, admin } = storeForTests({
  admin: { email: "the-admin@example.com", name: "The Admin" },
  shipsToTestAddress: true,
});
beforeAll(async () => {
  // Both have a paid order: their reviews are published at once (verified buyers).
  customer = await signUpBuyer(t, { name: "Casey Customer" });
  other = await signUpBuyer(t, { name: "Other Customer" });
});

const post = (payload: unknown, who?: TestAccount) =>
  call(who, "POST", "/api/reviews", payload as object);
const getSummary = async () => {
  const res = await call(null, "GET", "/api/reviews/summary");
  expect(res.statusCode).toBe(200);
  return res.json() as { average: number; count: number };
};
const storedRow = async (id: string) => {
  const [row] = await t.database.db.select().from(reviews).where(eq(reviews.id, id));
  return row;
};

// Tests in this file share one database and run in order: the read tests come first, on an empty
// store, and later tests measure the summary by difference.

test("lists no reviews on an empty store", async () => {
  const res = await call(null, "GET", "/api/reviews");
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual([]);
  expect(res.headers["x-total-count"]).toBe("0");
});

test("the summary of an empty store is 0 reviews averaging 0", async () => {
  expect(await getSummary()).toEqual({ average: 0, count: 0 });
});

test("lists reviews newest first, paged, without the author's email", async () => {
  const base = Date.parse("2026-03-01T00:00:00Z");
  for (let i = 0; i < 3; i++) {
    await insertReview(t.database.db, {
      authorName: `Author ${i}`,
      email: `author${i}@example.com`,
      ratings: i + 3,
      createdAt: new Date(base + i * 1000),
    });
  }
  const res = await call(null, "GET", "/api/reviews?limit=2");
  expect(res.statusCode).toBe(200);
  expect(res.headers["x-total-count"]).toBe("3");
  const body = res.json();
  expect(body.map((r: { name: string }) => r.name)).toEqual(["Author 2", "Author 1"]);
  expect(body[0]).toMatchObject({ ratings: 5, descreption: expect.any(String) });
  expect(JSON.stringify(body)).not.toContain("@example.com");
});

test("answers 400 for a bad page size", async () => {
  const res = await call(null, "GET", "/api/reviews?limit=1000");
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error: "validation" });
});

describe("POST /api/reviews: who may add a review", () => {
  test("anonymous: 401, and nothing is stored", async () => {
    const before = await getSummary();
    const res = await post({ ratings: 5, descreption: "Great parts" });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: "unauthorized", message: "Please sign in" });
    expect(await getSummary()).toEqual(before);
  });

  test("anonymous with a bad body still gets 401, not the validation rules", async () => {
    expect((await post({ ratings: 9 })).statusCode).toBe(401);
  });

  test("a customer (a buyer) adds a review under their own name: 201 with the public review", async () => {
    const res = await post({ ratings: 4, descreption: "  Fits my car perfectly.  " }, customer);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      review: {
        _id: expect.any(String),
        name: "Casey Customer",
        ratings: 4,
        descreption: "Fits my car perfectly.",
        createdAt: expect.any(String),
        verifiedBuyer: true,
      },
      pending: false,
    });
    expect(JSON.stringify(body)).not.toContain(customer.email);
    const row = await storedRow(body.review._id);
    expect(row).toMatchObject({ authorName: "Casey Customer", email: customer.email });
  });

  test("another customer's review carries that customer's own name", async () => {
    const res = await post({ ratings: 2, descreption: "Arrived late." }, other);
    expect(res.statusCode).toBe(201);
    expect(res.json().review).toMatchObject({ name: "Other Customer", ratings: 2 });
    const list = (await call(null, "GET", "/api/reviews?limit=2")).json();
    expect(list.map((r: { name: string; descreption: string }) => [r.name, r.descreption])).toEqual(
      [
        ["Other Customer", "Arrived late."],
        ["Casey Customer", "Fits my car perfectly."],
      ],
    );
  });

  test("admin: 403 (reviews are for customers), and nothing is stored", async () => {
    const before = await getSummary();
    const res = await post({ ratings: 5, descreption: "We are the best" }, admin);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: "forbidden",
      message: "This is for customers; admins cannot do it",
    });
    expect(await getSummary()).toEqual(before);
  });
});

describe("POST /api/reviews: what a review must contain", () => {
  test.each([
    ["0", 0],
    ["6", 6],
    ["2.5", 2.5],
    ["a string", "5"],
    ["missing", undefined],
  ])("rating %s: 400 with the rating message", async (_label, ratings) => {
    const res = await post({ ratings, descreption: "Good" }, customer);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: "validation",
      fields: { ratings: "Choose a rating from 1 to 5" },
    });
  });

  test("empty or blank text: 400 'Write your review'", async () => {
    for (const descreption of ["", "   \n "]) {
      const res = await post({ ratings: 3, descreption }, customer);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual({ descreption: "Write your review" });
    }
  });

  test("text over 1000 characters: 400; exactly 1000 is accepted", async () => {
    const tooLong = await post({ ratings: 3, descreption: "x".repeat(1001) }, customer);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().fields).toEqual({ descreption: "Must be 1000 characters or shorter" });
    // A fresh customer: one review a week each.
    const longest = await post({ ratings: 3, descreption: "y".repeat(1000) }, await signUp(t.app));
    expect(longest.statusCode).toBe(201);
  });

  test("an email or name in the body is refused, and the stored email is the session's", async () => {
    const other = await signUp(t.app, { name: "Third Customer" });
    for (const extra of [{ email: "someone-else@example.com" }, { name: "Someone Else" }]) {
      const res = await post({ ratings: 5, descreption: "Nice", ...extra }, other);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: "validation" });
      expect(res.json().message).toContain(Object.keys(extra)[0]);
    }
    const ok = await post({ ratings: 5, descreption: "Nice" }, other);
    expect(ok.statusCode).toBe(201);
    expect(await storedRow(ok.json().review._id)).toMatchObject({
      email: other.email,
      authorName: other.name,
    });
    const stray = await t.database.db
      .select()
      .from(reviews)
      .where(eq(reviews.email, "someone-else@example.com"));
    expect(stray).toEqual([]);
  });

  test("malformed JSON is a 400, not a 500", async () => {
    const res = await sendMalformedJson(t.app, customer, "POST", "/api/reviews");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });

  test("markup in a review is stored and answered as the same plain text", async () => {
    const text = "<script>alert(1)</script>";
    // A buyer, so the review is listed at once.
    const res = await post({ ratings: 1, descreption: text }, await signUpBuyer(t));
    expect(res.statusCode).toBe(201);
    expect(res.json().review.descreption).toBe(text);
    expect((await storedRow(res.json().review._id))?.descreption).toBe(text);
    const [newest] = (await call(null, "GET", "/api/reviews?limit=1")).json();
    expect(newest.descreption).toBe(text);
  });
});

describe("GET /api/reviews/summary", () => {
  test("counts every published review and averages the ratings to one decimal", async () => {
    const before = await getSummary();
    // Published: neither hidden nor awaiting approval (some above came from fresh accounts).
    const all = await t.database.db
      .select({ ratings: reviews.ratings })
      .from(reviews)
      .where(and(isNull(reviews.hiddenAt), isNull(reviews.pendingSince)));
    const stored = await t.database.db.select().from(reviews);
    expect(stored.length).toBeGreaterThan(all.length);
    expect(before.count).toBe(all.length);
    const exact = all.reduce((sum, r) => sum + r.ratings, 0) / all.length;
    expect(before.average).toBe(Math.round(exact * 10) / 10);
  });

  test("rounds half up: ratings 5, 4, 4, 4 average 4.25 and show 4.3", async () => {
    const fresh = await createTestApp({}, { seed: shipsToTestAddress });
    try {
      // Four buyers (published at once): one review a week each.
      const [a, b, c, d] = [
        await signUpBuyer(fresh),
        await signUpBuyer(fresh),
        await signUpBuyer(fresh),
        await signUpBuyer(fresh),
      ];
      for (const [who, ratings] of [
        [a, 5],
        [b, 4],
        [c, 4],
        [d, 4],
      ] as const) {
        const res = await fresh.app.inject({
          method: "POST",
          url: "/api/reviews",
          headers: { cookie: who.cookie },
          payload: { ratings, descreption: "ok" },
        });
        expect(res.statusCode).toBe(201);
      }
      const res = await fresh.app.inject({ method: "GET", url: "/api/reviews/summary" });
      expect(res.json()).toEqual({ average: 4.3, count: 4 });
    } finally {
      await fresh.close();
    }
  });

  test("is public: the same answer signed in or not", async () => {
    const anonymous = await getSummary();
    const signedIn = await call(customer, "GET", "/api/reviews/summary");
    expect(signedIn.json()).toEqual(anonymous);
    expect(anonymous.count).toBeGreaterThan(0);
  });
});
