import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParamsSchema } from "../../contract/common";
import { reorderResultSchema } from "../../contract/reorder";
import { errorAnswers } from "../api-errors";
import { caller, type Guards } from "../http/request-context";
import type { ReorderService } from "./service";
import type { RequestMarkets } from "../pricing/request-market";

const errors = errorAnswers(400, 401, 404, 409, 422);

/** "Order again" (docs/quick-order.md). Only the order's owner; anyone else is told 404. */
export const reorderRoutes: FastifyPluginAsyncZod<{
  reorder: ReorderService;
  guards: Guards;
  /** The market a request prices in (docs/pricing.md "The market chosen"). */
  markets: Pick<RequestMarkets, "of">;
}> = async (app, { reorder, guards, markets }) => {
  app.post(
    "/orders/:id/reorder",
    {
      schema: {
        tags: ["orders", "cart"],
        summary:
          "Order again: put one of your orders' parts in your cart at today's prices; answers what changed (price, stock, parts no longer sold)",
        params: idParamsSchema,
        response: { 200: reorderResultSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = caller(req);
      return reorder.reorder(req.params.id, me.id, await markets.of(req, me.id));
    },
  );
};
