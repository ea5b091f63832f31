import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import type { RouteApp } from "../http/page";
import { caller, type GuardHook, type Guards, type SessionUser } from "../http/request-context";

/**
 * Whom a module's order reads are for, when more than the order's owner and admins may see them:
 * the route's company hook (`preHandler`), and the viewer as its service asks (`viewer(req)`).
 */
export interface OrderReaders<V> {
  preHandler: GuardHook;
  viewer: (req: FastifyRequest) => V;
}

/**
 * A module's reads of what is an order's (its shipments, returns, invoice, warranty): `GET
 * /orders/:id/…` for a signed-in caller, under `tags`, answering `errors`. Each route's `read` is
 * given the order's id and the viewer (the caller, or `readers.viewer`'s), and decides whether
 * they may see it (its owner or an admin: `visibleOrder`, `ownerOrAdmin` in `service.ts`).
 */
export function orderReadRoutes<V = SessionUser>(
  app: RouteApp,
  guards: Guards,
  tags: string[],
  errors: Record<number, z.ZodType>,
  readers?: OrderReaders<V>,
) {
  const viewerOf = (readers?.viewer ?? caller) as (req: FastifyRequest) => V;
  const who = readers ? { preHandler: readers.preHandler } : {};
  return <T>(
    path: `/orders/:id/${string}`,
    summary: string,
    response: z.ZodType<T>,
    read: (orderId: string, viewer: V) => Promise<T>,
  ): void => {
    app.get(
      path,
      {
        // The answer's type is the helper's own (`T`): the route's is left unknown to Fastify.
        schema: {
          tags,
          summary,
          params: idParamsSchema,
          response: { 200: response as z.ZodType, ...errors },
        },
        onRequest: guards.signedIn,
        ...who,
      },
      async (req) => read(req.params.id, viewerOf(req)),
    );
  };
}
