import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParamsSchema } from "../../contract/common";
import { coreDepositInputSchema, coreDepositSchema } from "../../contract/core-charges";
import { errorAnswers } from "../api-errors";
import { adminRoute, caller, type Guards } from "../http/request-context";
import type { CoreChargeService } from "./service";

const errors = errorAnswers(400, 401, 403, 404);

/** Admin: a product's core deposit (docs/core-charges.md). */
export const coreChargeRoutes: FastifyPluginAsyncZod<{
  coreCharges: CoreChargeService;
  guards: Guards;
}> = async (app, { coreCharges, guards }) => {
  app.put(
    "/products/:id/core-deposit",
    {
      schema: {
        tags: ["admin", "products"],
        summary:
          "Admin: a remanufacturable part's core deposit per unit (charged beside its price, refunded by a core return); null for none",
        params: idParamsSchema,
        body: coreDepositInputSchema,
        response: { 200: coreDepositSchema, ...errors },
      },
      ...adminRoute(guards, "prices:write"),
    },
    async (req) => coreCharges.setCoreDeposit(req.params.id, req.body.coreDeposit, caller(req)),
  );
};
