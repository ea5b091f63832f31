import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { syncInvoicesPageSchema, syncOrdersPageSchema, syncQuerySchema } from "../../contract/bulk";
import { errorAnswers } from "../api-errors";
import { adminRoute, type Guards } from "../http/request-context";
import type { SyncService } from "./service";

const errors = errorAnswers(400, 401, 403, 429);

/** Orders and invoices changed since a cursor, for systems that poll (docs/bulk-sync.md). */
export const syncRoutes: FastifyPluginAsyncZod<{ sync: SyncService; guards: Guards }> = async (
  app,
  { sync, guards },
) => {
  app.get(
    "/sync/orders",
    {
      schema: {
        tags: ["bulk-sync"],
        summary:
          "Orders changed since the cursor, oldest change first, paged: `{ items, nextCursor, hasMore }` (admins, or a key with orders:read)",
        querystring: syncQuerySchema,
        response: { 200: syncOrdersPageSchema, ...errors },
      },
      ...adminRoute(guards, "orders:read"),
    },
    async (req, reply) => {
      reply.header("cache-control", "no-store");
      return sync.orders(req.query);
    },
  );

  app.get(
    "/sync/invoices",
    {
      schema: {
        tags: ["bulk-sync"],
        summary:
          "Invoices issued since the cursor, oldest first, paged: `{ items, nextCursor, hasMore }` (admins, or a key with orders:read)",
        querystring: syncQuerySchema,
        response: { 200: syncInvoicesPageSchema, ...errors },
      },
      ...adminRoute(guards, "orders:read"),
    },
    async (req, reply) => {
      reply.header("cache-control", "no-store");
      return sync.invoices(req.query);
    },
  );
};
