import { createHmac, randomBytes } from "node:crypto";
import { WEBHOOK_SECRET_START } from "../../contract/webhooks";

/** A new signing secret: `whsec_` and the base64 of 24 random bytes (192 bits). */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_START + randomBytes(24).toString("base64");
}

/** The start of a secret, to tell two apart on the admin's page without showing them. */
export function secretHint(secret: string): string {
  return `${secret.slice(0, WEBHOOK_SECRET_START.length + 4)}…`;
}

/**
 * One `v1,<signature>` as the Standard Webhooks specification says: base64 of the HMAC-SHA256 of
 * `{id}.{timestamp}.{body}`, keyed with the secret's base64-decoded part after `whsec_`.
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_START.length), "base64");
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** The three headers of a delivery, signed with every secret given (space-separated). */
export function signedHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "PartsWorks-Webhooks/1",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((s) => signature(s, id, timestamp, body)).join(" "),
  };
}

/** The `webhook-id` of a delivery: stable for the event and the endpoint, on every retry and replay. */
export function messageId(deliveryId: string): string {
  return `msg_${deliveryId.replaceAll("-", "")}`;
}

/**
 * The waits before each retry after a failure (the n-th failure in a row waits the n-th): 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 14 h, 24 h, about 2.7 days in all, so 10 attempts in about 3
 * days; after the 10th failure the delivery is failed.
 */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  24 * 3_600_000,
] as const;

/** The wait after the `failures`-th failure in a row (from 1), or undefined: failed for good. */
export function retryDelayMs(failures: number): number | undefined {
  return RETRY_DELAYS_MS[failures - 1];
}
