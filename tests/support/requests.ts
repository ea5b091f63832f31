import type { FastifyInstance } from "fastify";
import { expect } from "vitest";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A request's headers as `who` (its session cookie), or as nobody signed in for null or undefined. */
export const sessionHeaders = (who?: { cookie: string } | null) =>
  who ? { cookie: who.cookie } : {};

/** `app.inject` as `who` (its session cookie), or as nobody signed in for null or undefined. */
export const injectAs = (
  app: FastifyInstance,
  who: { cookie: string } | null | undefined,
  method: Method,
  url: string,
  payload?: unknown,
) =>
  app.inject({ method, url, headers: sessionHeaders(who), payload: payload as object | undefined });

/**
 * A test's request function: `injectAs` on the app read at each call, as tests build it in
 * `beforeAll`.
 */
export function requestsAs(app: () => FastifyInstance) {
  return (
    who: { cookie: string } | null | undefined,
    method: Method,
    url: string,
    payload?: unknown,
  ) => injectAs(app(), who, method, url, payload);
}

/** A body that is not JSON ("{not json") sent as JSON, as `who`: the API should answer 400, not 500. */
export const sendMalformedJson = (
  app: FastifyInstance,
  who: { cookie: string } | null,
  method: Method,
  url: string,
) =>
  app.inject({
    method,
    url,
    headers: { ...sessionHeaders(who), "content-type": "application/json" },
    payload: "{not json",
  });

/** What a test's request function answers with (`app.inject`'s response). */
interface Answer {
  statusCode: number;
  body: string;
  json(): unknown;
}

/**
 * Two readings of a test's request function `call`: `ok`, the body of an answer that must succeed
 * (a failed one fails the test, naming the request and its body; none for 204), and `refusal`, a
 * refused answer's status with its error body (message, fields).
 */
export function answersOf(
  call: (method: Method, url: string, payload?: object) => Promise<Answer>,
) {
  return {
    async ok<T>(method: Method, url: string, payload?: object): Promise<T> {
      const res = await call(method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return (res.statusCode === 204 ? undefined : res.json()) as T;
    },
    async refusal(method: Method, url: string, payload?: object) {
      const res = await call(method, url, payload);
      return { status: res.statusCode, ...(res.json() as { message: string; fields?: object }) };
    },
  };
}
