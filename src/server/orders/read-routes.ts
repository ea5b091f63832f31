import type { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import type { RouteApp } from "../http/page";
import { caller, type Guards, type SessionUser } from "../http/request-context";

/**
 * A module's reads of what is an order's (its shipments, returns, invoice): `GET /orders/:id/…`
 * for a signed-in caller, under `tags`, answering `errors`. Each route's `read` is given the
 * order's id and the caller, and decides whether they may see it (its owner or an admin:
 * `visibleOrder`, `ownerOrAdmin` in `service.ts`).
 */
export function orderReadRoutes(
  app: RouteApp,
  guards: Guards,
  tags: string[],
  errors: Record<number, z.ZodType>,
) {
  return <T>(
    path: `/orders/:id/${string}`,
    summary: string,
    response: z.ZodType<T>,
    read: (orderId: string, viewer: SessionUser) => Promise<T>,
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
      },
      async (req) => read(req.params.id, caller(req)),
    );
  };
}
