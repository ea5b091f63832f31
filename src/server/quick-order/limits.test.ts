import { beforeAll, expect, test } from "vitest";
import { signUp } from "../../../tests/support/accounts";
import { insertProduct } from "../../../tests/support/factories";
import { multipart } from "../../../tests/support/multipart";
import { appForTests } from "../../../tests/support/store";
import { expectTooManyRequests } from "../../../tests/support/too-many";

// Anyone may resolve quick-order lines, so each client IP and each signed-in account has a
// budget per minute (issue 49, finding 7): here 5 instead of the shipped 60.
const PER_MINUTE = 5;
const { t } = appForTests({ env: { QUICK_ORDER_PER_MINUTE: String(PER_MINUTE) } });
beforeAll(async () => {
  await insertProduct(t.database.db, { partNumber: "QL-FL-0001", minimumOrder: 1 });
});

const resolve = (remoteAddress: string, cookie?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/quick-order/resolve",
    payload: { text: "QL-FL-0001 2" },
    remoteAddress,
    headers: cookie ? { cookie } : {},
  });
const upload = (remoteAddress: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/quick-order/upload",
    remoteAddress,
    ...multipart({
      data: Buffer.from("QL-FL-0001;2\n"),
      filename: "o.csv",
      type: "text/csv",
      field: "file",
    }),
  });

test("an anonymous client IP resolves its budget a minute, pasted or uploaded, then gets 429 with Retry-After", async () => {
  const ip = "198.51.100.10";
  for (let i = 0; i < PER_MINUTE - 1; i++) expect((await resolve(ip)).statusCode).toBe(200);
  expect((await upload(ip)).statusCode).toBe(200);
  expectTooManyRequests(await resolve(ip));
  expectTooManyRequests(await upload(ip));
  // Another client is not held up by this one.
  expect((await resolve("198.51.100.11")).statusCode).toBe(200);
});

test("a signed-in account has its own budget, wherever it asks from", async () => {
  const buyer = await signUp(t.app);
  for (let i = 0; i < PER_MINUTE; i++) {
    expect((await resolve(`198.51.100.${30 + i}`, buyer.cookie)).statusCode).toBe(200);
  }
  expectTooManyRequests(await resolve("198.51.100.99", buyer.cookie));
  // That IP itself still has room: anonymously it resolves.
  expect((await resolve("198.51.100.99")).statusCode).toBe(200);
});
