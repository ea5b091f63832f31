import type { FastifyRequest } from "fastify";

/** Requests whose deadline was answered (503): whatever they were doing must not commit now. */
const givenUp = new WeakSet<FastifyRequest>();
/** Requests committing what they were asked for: their deadline waits for that outcome. */
const committing = new WeakSet<FastifyRequest>();

/**
 * Whether the client of `req` is still waiting for the answer: still connected (Fastify's
 * `request.signal` cannot tell: it also fires once a request body has been read), and not already
 * answered 503 by its deadline (request-deadline.ts). Work that commits something the client must
 * be told about asks this last, and gives up when it is no. Asked with `final` just before the
 * commit, a yes also means the deadline no longer answers 503 over it: an order is either told to
 * its client or not made (issue 49: orders were placed after their clients were told 503 or had
 * given up).
 */
export const clientStillWaiting =
  (req: FastifyRequest) =>
  (final = false): boolean => {
    if (req.raw.socket?.destroyed === true || givenUp.has(req)) return false;
    if (final) committing.add(req);
    return true;
  };

/**
 * The deadline of `req` has come: false (and the request is told nothing) when it is committing,
 * whose outcome will answer; else true, and from now on `clientStillWaiting` says no.
 */
export function giveUpAtDeadline(req: FastifyRequest): boolean {
  if (committing.has(req)) return false;
  givenUp.add(req);
  return true;
}

/**
 * How far `req` went: "committing" once `clientStillWaiting(true)` said yes (its work may have
 * committed), "given up" once its deadline answered 503 (it commits nothing after), else
 * "working". The Idempotency-Key frees a key only when nothing can have committed
 * (idempotency/idempotent-routes.ts).
 */
export function commitStage(req: FastifyRequest): "working" | "committing" | "given up" {
  if (committing.has(req)) return "committing";
  return givenUp.has(req) ? "given up" : "working";
}
