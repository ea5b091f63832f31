import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  adminHomeSchema,
  reorderLevelInputSchema,
  reorderLevelSchema,
} from "../../contract/admin-home";
import { idParamsSchema } from "../../contract/common";
import { errorAnswers } from "../api-errors";
import { adminRoute, caller, type Guards } from "../http/request-context";
import type { AdminHomeService } from "./service";

const errors = errorAnswers(400, 401, 403, 404);

/** Admin: the home ("Today") and the reorder levels it watches (docs/admin-home.md). */
export const adminHomeRoutes: FastifyPluginAsyncZod<{
  home: AdminHomeService;
  guards: Guards;
}> = async (app, { home, guards }) => {
  app.get(
    "/admin-home",
    {
      schema: {
        tags: ["admin"],
        summary:
          "Admin: what is waiting today (paid orders to ship, holds about to expire, low stock, reviews, approvals, refunds due)",
        response: { 200: adminHomeSchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async () => home.today(),
  );

  app.put(
    "/products/:id/reorder-level",
    {
      schema: {
        tags: ["admin", "products"],
        summary:
          "Admin: the stock below which a product is low (admin home, low-stock email); null for the default, 2 × its minimum order",
        params: idParamsSchema,
        body: reorderLevelInputSchema,
        response: { 200: reorderLevelSchema, ...errors },
      },
      ...adminRoute(guards, "inventory:write"),
    },
    async (req) => home.setReorderLevel(req.params.id, req.body.reorderLevel, caller(req)),
  );
};
