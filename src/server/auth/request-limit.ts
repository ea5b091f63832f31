import { plural } from "../../contract/count";
import type { FastifyReply } from "fastify";
import { HttpError } from "../errors";
import type { RateLimiter } from "./rate-limit";

export interface Limit {
  /** The counter's name, with who it counts (a user id or an IP). */
  key: string;
  max: number;
  windowSeconds: number;
}

/**
 * Counts one request against each limit (rate-limit.ts, in PostgreSQL, so every instance shares
 * them); over any of them the request is answered 429 with Retry-After.
 */
export async function enforceLimits(
  rateLimiter: RateLimiter,
  reply: FastifyReply,
  limits: Limit[],
): Promise<void> {
  const results = await Promise.all(
    limits.map((l) => rateLimiter.hit(l.key, l.max, l.windowSeconds)),
  );
  const blocked = results.filter((r) => !r.allowed);
  if (blocked.length === 0) return;
  const retryAfter = Math.max(...blocked.map((r) => r.retryAfter));
  reply.header("retry-after", retryAfter);
  throw new HttpError(429, "too_many_requests", tooManyAttemptsMessage(retryAfter));
}

/** What a refused attempt is told: how long to wait, in seconds or whole minutes. */
export function tooManyAttemptsMessage(retryAfter: number): string {
  const [n, unit] =
    retryAfter < 60 ? [retryAfter, "second"] : [Math.ceil(retryAfter / 60), "minute"];
  return `Too many attempts. Please wait ${plural(n, unit)} and try again.`;
}
