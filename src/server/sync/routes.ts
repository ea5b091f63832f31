import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";
import {
  syncInvoicesPageSchema,
  syncOrdersPageSchema,
  syncQuerySchema,
  type SyncQuery,
} from "../../contract/bulk";
import { errorAnswers } from "../api-errors";
import { adminRoute, type Guards } from "../http/request-context";
import type { SyncService } from "./service";

const errors = errorAnswers(400, 401, 403, 429);

/** Orders and invoices changed since a cursor, for systems that poll (docs/bulk-sync.md). */
export const syncRoutes: FastifyPluginAsyncZod<{ sync: SyncService; guards: Guards }> = async (
  app,
  { sync, guards },
) => {
  /** `GET path`: one page of a feed after the query's cursor, never kept by a cache. */
  const feed = <P extends z.ZodType>(
    path: string,
    summary: string,
    page: P,
    read: (query: SyncQuery) => Promise<z.infer<P>>,
  ) =>
    app.get(
      path,
      {
        schema: {
          tags: ["bulk-sync"],
          summary,
          querystring: syncQuerySchema,
          response: { 200: page as z.ZodType, ...errors },
        },
        ...adminRoute(guards, "orders:read"),
      },
      async (req, reply) => {
        reply.header("cache-control", "no-store");
        return read(req.query);
      },
    );

  feed(
    "/sync/orders",
    "Orders changed since the cursor, oldest change first, paged: `{ items, nextCursor, hasMore }` (admins, or a key with orders:read)",
    syncOrdersPageSchema,
    (query) => sync.orders(query),
  );
  feed(
    "/sync/invoices",
    "Invoices issued since the cursor, oldest first, paged: `{ items, nextCursor, hasMore }` (admins, or a key with orders:read)",
    syncInvoicesPageSchema,
    (query) => sync.invoices(query),
  );
};
