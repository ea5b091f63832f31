import { expect } from "vitest";
import { tooManyAttemptsMessage } from "../../src/server/auth/request-limit";

/** A request over one of the store's limits: 429 with Retry-After, in every limit's one shape. */
export function expectTooManyRequests(res: {
  statusCode: number;
  headers: Record<string, unknown>;
  json: () => unknown;
}): void {
  expect(res.statusCode).toBe(429);
  const retryAfter = Number(res.headers["retry-after"]);
  expect(retryAfter).toBeGreaterThan(0);
  expect(res.json()).toEqual({
    error: "too_many_requests",
    message: tooManyAttemptsMessage(retryAfter),
  });
}
