import { sql } from "drizzle-orm";
import { expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { appForTests } from "../../../tests/support/store";
import { MAX_IMAGE_URL_LENGTH, MAX_NAME_LENGTH } from "../../contract/constants";

const { t } = appForTests({ env: { AUTH_RATE_LIMIT_PER_IP: "1000" } });

const signUpWith = (extra: object) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/sign-up/email",
    payload: {
      email: `bounds-${Math.random()}@example.com`,
      password: "gear-box-7-lamp",
      ...extra,
    },
  });

test("a 200,000-character display name is refused with 400, and no account is made", async () => {
  const res = await signUpWith({ name: "A".repeat(200_000) });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({
    error: "validation",
    fields: { name: `Must be ${MAX_NAME_LENGTH} characters or shorter` },
  });
  const rows = await t.database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from "user" where char_length(name) > ${MAX_NAME_LENGTH}`,
  );
  expect(rows.rows[0]?.n).toBe(0);
});

test("a name of exactly the limit is accepted; one more character is not", async () => {
  expect((await signUpWith({ name: "B".repeat(MAX_NAME_LENGTH) })).statusCode).toBe(200);
  expect((await signUpWith({ name: "B".repeat(MAX_NAME_LENGTH + 1) })).statusCode).toBe(400);
});

test("an over-long image address is refused", async () => {
  const res = await signUpWith({
    name: "Pic",
    image: `https://example.com/${"x".repeat(MAX_IMAGE_URL_LENGTH)}`,
  });
  expect(res.statusCode).toBe(400);
  expect(res.json().fields).toHaveProperty("image");
});

test("the database refuses an over-long name or image too (CHECK constraints)", async () => {
  const a = await signUp(t.app);
  await expect(
    t.database.db.execute(
      sql`update "user" set name = ${"C".repeat(MAX_NAME_LENGTH + 1)} where email = ${a.email}`,
    ),
  ).rejects.toMatchObject({ cause: { constraint: "user_name_length" } });
  await expect(
    t.database.db.execute(
      sql`update "user" set image = ${"i".repeat(MAX_IMAGE_URL_LENGTH + 1)} where email = ${a.email}`,
    ),
  ).rejects.toMatchObject({ cause: { constraint: "user_image_length" } });
});
