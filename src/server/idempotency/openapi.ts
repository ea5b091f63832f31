import type { RouteOptions } from "fastify";
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_HOURS,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENT_REPLAYED_HEADER,
} from "../../contract/idempotency";

type Json = Record<string, unknown>;

/**
 * The `Idempotency-Key` header of a route that takes one (`config: { idempotent: true }`), and the
 * `Idempotent-Replayed` header of its successful answers, in the OpenAPI document. Written into
 * the document only: a header schema on the route would be checked on every request, with or
 * without the header (idempotent-routes.ts checks it when it is there).
 */
export function documentIdempotencyKey(route: Pick<RouteOptions, "config">, schema: Json): void {
  if (route.config?.idempotent !== true) return;
  const headers = (schema.headers ?? { type: "object", properties: {} }) as Json;
  headers.properties = {
    ...(headers.properties as Json | undefined),
    [IDEMPOTENCY_KEY_HEADER]: {
      type: "string",
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
      pattern: "^[\\x20-\\x7e]+$",
      description: `Optional. One attempt of this request (printable ASCII, 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters): sent again with the same request within ${IDEMPOTENCY_KEY_HOURS} hours, it is answered what the first was answered and does not run again; with another request, 422; while the first still runs, 409 (docs/idempotency.md).`,
    },
  };
  schema.headers = headers;
  for (const [status, answer] of Object.entries((schema.response ?? {}) as Json)) {
    if (!status.startsWith("2") || !answer || typeof answer !== "object") continue;
    (answer as Json).headers = {
      ...((answer as Json).headers as Json | undefined),
      [IDEMPOTENT_REPLAYED_HEADER]: {
        type: "string",
        enum: ["true"],
        description: `Present when this answer repeats the one given to the first request with the same ${IDEMPOTENCY_KEY_HEADER}.`,
      },
    };
  }
}
