import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import { refundToRetrySchema, type RefundToRetry } from "../../contract/refunds";
import { errorAnswers } from "../api-errors";
import { adminRoute, caller, type Guards } from "../http/request-context";

const errors = errorAnswers(400, 401, 403, 404, 409);

/** Admin: refunds that have not gone through, and their retry (the engine: workflows/refund.ts). */
export const refundRoutes: FastifyPluginAsyncZod<{
  refunds: {
    toRetry(): Promise<RefundToRetry[]>;
    retry(id: string, actor: { id: string; email: string }): Promise<RefundToRetry>;
  };
  guards: Guards;
}> = async (app, { refunds, guards }) => {
  app.get(
    "/refunds",
    {
      schema: {
        tags: ["returns", "payments", "admin"],
        summary:
          "Refunds of returns and cancelled paid orders that have not gone through (the gateway failed, or the call was cut off minutes ago), oldest first",
        response: { 200: z.array(refundToRetrySchema), ...errors },
      },
      ...adminRoute(guards, "orders:read"),
    },
    async () => refunds.toRetry(),
  );

  app.post(
    "/refunds/:id/retry",
    {
      schema: {
        tags: ["returns", "payments", "admin"],
        summary:
          "Admin: try a refund again now, with its own idempotency key (it refunds once however often it is asked); answers the refund as it is then",
        params: idParamsSchema,
        response: { 200: refundToRetrySchema, ...errors },
      },
      ...adminRoute(guards, "orders:write"),
    },
    async (req) => refunds.retry(req.params.id, caller(req)),
  );
};
