import type { FastifyInstance, onRequestHookHandler } from "fastify";
import { giveUpAtDeadline } from "./client-waiting";
import { unavailable } from "./errors";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route bounds its own waits with `withinDeadline`, so the request timeout (a timer and a
     * listener set up for every request) is left off it. For the catalog's public reads, most of
     * them answered from memory without waiting for anything.
     */
    ownDeadline?: boolean;
    /**
     * The route places an order: its deadline is ORDER_TIMEOUT_SECONDS, shorter than a client's
     * usual timeout, so that an order is answered, or not made, while its client still waits.
     */
    placesOrder?: boolean;
  }
}

/**
 * Every route answers 503 once a request has taken `ms` (REQUEST_TIMEOUT_SECONDS), the routes that
 * place orders once it has taken `orderMs` (ORDER_TIMEOUT_SECONDS, if shorter), except those
 * that bound their own waits. Added before any route, so it reaches plugins' routes too.
 *
 * The timer is a route's first `onRequest` hook (the app's own `onRequest` hooks before it never
 * wait). Not Fastify's `handlerTimeout`: that also gives every request an AbortController, and
 * aborts it with a new DOMException when the request closes, answered or not, which cost the order
 * path 3 % of the server's time; nothing here reads `request.signal` (`client-waiting.ts` says
 * why).
 */
export function applyRequestTimeout(app: FastifyInstance, ms: number, orderMs = ms): void {
  const deadline = startDeadline(ms);
  const orderDeadline = startDeadline(Math.min(ms, orderMs));
  app.addHook("onRoute", (route) => {
    if (route.config?.ownDeadline === true) return;
    const own = route.onRequest;
    route.onRequest = [
      route.config?.placesOrder === true ? orderDeadline : deadline,
      ...(own === undefined ? [] : Array.isArray(own) ? own : [own]),
    ];
  });
}

/**
 * Answers 503 at `ms` unless the answer was sent (or the connection closed) first, or the request
 * is committing what it was asked for (`clientStillWaiting`), whose outcome then answers.
 */
function startDeadline(ms: number): onRequestHookHandler {
  return function requestDeadline(req, reply, done) {
    const timer = setTimeout(() => {
      if (reply.sent || !giveUpAtDeadline(req)) return;
      // An answer already streaming cannot become a 503: it is cut short instead.
      if (reply.raw.headersSent) reply.raw.destroy();
      else reply.send(unavailable());
    }, ms);
    // 'close' comes once the answer is sent, or the client went away first.
    reply.raw.once("close", () => clearTimeout(timer));
    done();
  };
}

/** What `work` gives, or the request timeout's 503 if it has not settled within `ms`. */
export async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(unavailable()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
