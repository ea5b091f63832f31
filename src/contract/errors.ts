/**
 * Every `error` code the store's own API answers (the `{ error, message, fields? }` shape of
 * `apiErrorSchema`), so that a page can tell one refusal from another by a name the server cannot
 * mistype. Answers Better Auth gives on `/api/auth/*` keep Better Auth's own codes.
 */
export const errorCodes = [
  // 400: the request itself is wrong
  "validation",
  "bad_request",
  "invalid_request",
  "invalid_csv",
  "invalid_photo",
  "invalid_vin",
  "unknown_vehicle",
  "refund_invalid",
  "refund_unpaid",
  "refund_too_large",
  "bad_signature",
  "weak_password",
  "non_canonical_path",
  "invalid_idempotency_key",
  // 401, 403: who is asking
  "unauthorized",
  "forbidden",
  "cross_site",
  // 404, 409, 410: the thing asked for
  "not_found",
  "conflict",
  "total_changed",
  "return_closed",
  "payment_canceled",
  "idempotency_key_in_use",
  "idempotency_outcome_unknown",
  "gone",
  // 413, 415: what was sent
  "too_large",
  "unsupported_media_type",
  "unsupported_image",
  // 422: a store rule says no
  "rule_broken",
  "hold_limit",
  "spending_limit",
  "not_shippable",
  "destination_required",
  "card_declined",
  "idempotency_key_reused",
  // 429: too many
  "too_many_requests",
  "rate_limited",
  "review_limit",
  // 499, 5xx: the store or the client could not finish
  "client_closed_request",
  "internal",
  "refund_failed",
  "refund_gateway",
  "unavailable",
  "busy",
  "insufficient_storage",
] as const;

export type ErrorCode = (typeof errorCodes)[number];
