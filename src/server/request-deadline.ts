import type { FastifyInstance } from "fastify";
import { unavailable } from "./errors";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route bounds its own waits with `withinDeadline`, so Fastify's request timeout (an
     * AbortController, a timer and a listener set up for every request) is left off it. For the
     * catalog's public reads, most of them answered from memory without waiting for anything.
     */
    ownDeadline?: boolean;
  }
}

/**
 * Every route answers 503 once a request has taken `ms` (REQUEST_TIMEOUT_SECONDS), except those
 * that bound their own waits. Added before any route, so it reaches plugins' routes too.
 */
export function applyRequestTimeout(app: FastifyInstance, ms: number): void {
  app.addHook("onRoute", (route) => {
    if (route.config?.ownDeadline !== true) route.handlerTimeout ??= ms;
  });
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
