import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  adminHomeSchema,
  lowStockEmailAnswerSchema,
  lowStockEmailSchema,
  reorderLevelInputSchema,
  reorderLevelSchema,
} from "../../contract/admin-home";
import { idParamsSchema } from "../../contract/common";
import { errorAnswers } from "../api-errors";
import { adminRoute, caller, type Guards } from "../http/request-context";
import { settingRoutes } from "../http/setting-routes";
import type { LowStockEmailSettings } from "./low-stock-settings";
import type { AdminHomeService } from "./service";

const errors = errorAnswers(400, 401, 403, 404);

/**
 * Admin: the home ("Today"), the reorder levels it watches and the daily low-stock email
 * (docs/admin-home.md).
 */
export const adminHomeRoutes: FastifyPluginAsyncZod<{
  home: AdminHomeService;
  lowStockEmail: LowStockEmailSettings;
  guards: Guards;
}> = async (app, { home, lowStockEmail, guards }) => {
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

  settingRoutes(app, "/admin-home/low-stock-email", {
    tags: ["admin"],
    body: lowStockEmailSchema,
    answer: lowStockEmailAnswerSchema,
    errors: errorAnswers(400, 401, 403, 429),
    onRequest: guards.adminOnly,
    readSummary:
      "Admin: whether every admin gets the daily low-stock email, and from which hour of the day (UTC); `updatedAt` null: never saved, the environment's LOW_STOCK_EMAIL and LOW_STOCK_EMAIL_HOUR",
    read: () => lowStockEmail.inForce(),
    setSummary:
      "Admin: turn the daily low-stock email on or off and set its hour (0–23, UTC), from the job's next run",
    set: (body, me) => lowStockEmail.save(body, me),
  });
};
