import { afterAll, beforeAll, expect, test } from "vitest";
import { insertReview } from "../../../tests/support/factories";
import { createTestApp, type TestApp } from "../../../tests/support/test-app";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test("lists no reviews on an empty store", async () => {
  const res = await t.app.inject({ method: "GET", url: "/api/reviews" });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual([]);
  expect(res.headers["x-total-count"]).toBe("0");
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
  const res = await t.app.inject({ method: "GET", url: "/api/reviews?limit=2" });
  expect(res.statusCode).toBe(200);
  expect(res.headers["x-total-count"]).toBe("3");
  const body = res.json();
  expect(body.map((r: { name: string }) => r.name)).toEqual(["Author 2", "Author 1"]);
  expect(body[0]).toMatchObject({ ratings: 5, descreption: expect.any(String) });
  expect(JSON.stringify(body)).not.toContain("@example.com");
});

test("answers 400 for a bad page size", async () => {
  const res = await t.app.inject({ method: "GET", url: "/api/reviews?limit=1000" });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error: "validation" });
});
