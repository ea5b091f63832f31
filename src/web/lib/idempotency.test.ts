import { afterEach, expect, test, vi } from "vitest";
import { apiSend, ApiError } from "./api-client";
import { submissionKeys } from "./idempotency";

afterEach(() => vi.unstubAllGlobals());

const refusal = (status: number, code: string) => new ApiError(status, code, "No");
/** One try of `input`: the key it went with, and how it ended. */
async function attempt(
  keys: ReturnType<typeof submissionKeys>,
  input: unknown,
  outcome: "ok" | Error,
) {
  let key = "";
  await keys
    .send(input, async (k) => {
      key = k;
      if (outcome !== "ok") throw outcome;
      return "placed";
    })
    .catch(() => undefined);
  return key;
}

test("a submission sent again after no answer goes with the same key; after an answer, or changed, with a new one", async () => {
  const keys = submissionKeys();
  const order = { productId: "p1", orderQty: 2 };
  const first = await attempt(keys, order, new TypeError("Failed to fetch"));
  expect(first).toMatch(/^[\x20-\x7e]{1,255}$/);
  // No answer, the store failed, or it is still processing the first: the same attempt.
  expect(await attempt(keys, { ...order }, refusal(503, "unavailable"))).toBe(first);
  expect(await attempt(keys, order, refusal(409, "idempotency_key_in_use"))).toBe(first);
  expect(await attempt(keys, order, "ok")).toBe(first);
  // Placed: ordering the same again is a new attempt.
  const second = await attempt(keys, order, new TypeError("Failed to fetch"));
  expect(second).not.toBe(first);
  // The form changed: a new attempt too.
  const changed = await attempt(keys, { ...order, orderQty: 3 }, "ok");
  expect(changed).not.toBe(second);
  // A refusal is an answer ("out of stock"; "check your orders, then use a new key"): the next
  // press is a new attempt.
  for (const answer of [refusal(422, "rule_broken"), refusal(409, "idempotency_outcome_unknown")]) {
    const refused = await attempt(keys, order, answer);
    expect(await attempt(keys, order, "ok")).not.toBe(refused);
  }
});

test("apiSend sends the key as the Idempotency-Key header, and no such header without one", async () => {
  const sent: Headers[] = [];
  vi.stubGlobal("fetch", (_url: string, init: RequestInit) => {
    sent.push(new Headers(init.headers));
    return Promise.resolve(Response.json({ ok: true }, { status: 201 }));
  });
  await apiSend("POST", "/orders", { productId: "p1" }, { idempotencyKey: "attempt-1" });
  await apiSend("POST", "/orders/total", { productId: "p1" });
  expect(sent.map((h) => h.get("idempotency-key"))).toEqual(["attempt-1", null]);
  expect(sent[0]!.get("content-type")).toBe("application/json");
});
