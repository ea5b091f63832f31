import type { FastifyInstance } from "fastify";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * A test's request function: `app.inject` as `who` (its session cookie), or as nobody signed in
 * for null or undefined. The app is read at each call, as tests build it in `beforeAll`.
 */
export function requestsAs(app: () => FastifyInstance) {
  return (
    who: { cookie: string } | null | undefined,
    method: Method,
    url: string,
    payload?: unknown,
  ) =>
    app().inject({
      method,
      url,
      headers: who ? { cookie: who.cookie } : {},
      payload: payload as object | undefined,
    });
}

/** A request's headers as `who` (its session cookie), or as nobody signed in for null or undefined. */
export const sessionHeaders = (who?: { cookie: string } | null) =>
  who ? { cookie: who.cookie } : {};

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
