// The store's typed client (docs/typed-client.md): every route of the OpenAPI document, its path,
// query, body and answers typed from schema.ts (generated: `npm run client:generate`), sent with
// an API key. The requests are made by openapi-fetch (about 20 kB; its one dependency is
// types only).
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./schema";

export type { components, operations, paths } from "./schema";

/** The header naming one attempt of a write (docs/idempotency.md). */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

export interface PartsworksClientOptions {
  /** The store's address, without `/api`: `https://shop.example.com`. */
  baseUrl: string;
  /** An API key made on /dashboard/api-keys (`pw_…`), sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Headers sent with every request (a `User-Agent` naming the system, say). */
  headers?: Record<string, string>;
  /** Another fetch (a proxy's, a test's); by default the global one. */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * `client.GET("/api/orders/all", { params: { query: { status: "paid" } } })` answers
 * `{ data, error, response }`: `data` typed as the route's success answer, `error` as its
 * refusal (`{ error, message }`), one of the two set.
 */
export type PartsworksClient = Client<paths>;

/** A client of the store at `baseUrl` that calls with `apiKey`. */
export function createPartsworksClient(options: PartsworksClientOptions): PartsworksClient {
  const { baseUrl, apiKey, headers, fetch } = options;
  if (!apiKey) throw new Error("createPartsworksClient: apiKey is empty");
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ""),
    headers: { ...headers, Authorization: `Bearer ${apiKey}` },
    ...(fetch ? { fetch } : {}),
  });
}

/**
 * The `Idempotency-Key` header for one attempt of a write, to send again unchanged when the
 * request is retried: `client.POST(url, { body, headers: idempotencyKey(attemptId) })`. The
 * routes that take one list it in their `params.header` too.
 */
export function idempotencyKey(key: string = crypto.randomUUID()): Record<string, string> {
  if (!/^[\x20-\x7e]{1,255}$/.test(key)) {
    throw new Error(`${IDEMPOTENCY_KEY_HEADER}: 1 to 255 printable ASCII characters`);
  }
  return { [IDEMPOTENCY_KEY_HEADER]: key };
}
