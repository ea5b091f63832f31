// The Idempotency-Key header of the store's placing and paying requests (docs/idempotency.md).
// No zod here: the web's API client imports this file, and every page loads that client.

/** The request header a client names one attempt of a write with. */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** The answer header of an answer repeated from the first request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";

/** A key: 1 to 255 printable ASCII characters (space to tilde). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** How long the store keeps a key's answer, in hours. */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** What the store answers, word for word. */
export const idempotencyMessages = {
  invalid: `The ${IDEMPOTENCY_KEY_HEADER} header must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`,
  reused: `This ${IDEMPOTENCY_KEY_HEADER} was already used with a different request`,
  inUse: `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed: try again in a moment`,
  outcomeUnknown: `A request with this ${IDEMPOTENCY_KEY_HEADER} did not finish, and may have been carried out: check your orders, then use a new key to try again`,
} as const;
