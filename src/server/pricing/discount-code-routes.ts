import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import {
  discountCodeInputSchema,
  discountCodeListQuerySchema,
  discountCodeSchema,
} from "../../contract/discount-codes";
import { errorAnswers } from "../api-errors";
import { sendPage } from "../http/page";
import { caller, type Guards, type SessionUser } from "../http/request-context";
import type { DiscountCodeService } from "./discount-codes";

const adminErrors = errorAnswers(400, 401, 403, 404, 409);
const actor = (u: SessionUser) => ({ id: u.id, email: u.email, apiKey: u.apiKey });
const admin = (summary: string) => ({ tags: ["pricing", "admin"], summary: `Admin: ${summary}` });

/** Discount codes (admin only; docs/pricing.md "Discount codes"). A buyer applies one in the cart. */
export const discountCodeRoutes: FastifyPluginAsyncZod<{
  codes: DiscountCodeService;
  guards: Guards;
}> = async (app, { codes, guards }) => {
  const onRequest = guards.adminOnly;
  const config = { apiScope: "prices:write" } as const;

  app.get(
    "/discount-codes",
    {
      schema: {
        ...admin("discount codes by code, paged (`q` searches codes); total in X-Total-Count"),
        querystring: discountCodeListQuerySchema,
        response: { 200: z.array(discountCodeSchema), ...adminErrors },
      },
      onRequest,
      config,
    },
    async (req, reply) => sendPage(reply, await codes.list(req.query)),
  );

  app.post(
    "/discount-codes",
    {
      schema: {
        ...admin(
          "a discount code: `percent` or `amount` off all parts, a `category` or a part (`partNumber`), with a minimum order, dates, limits and a customer group",
        ),
        body: discountCodeInputSchema,
        response: { 201: discountCodeSchema, ...adminErrors },
      },
      onRequest,
      config,
    },
    async (req, reply) => reply.code(201).send(await codes.create(actor(caller(req)), req.body)),
  );

  app.get(
    "/discount-codes/:id",
    {
      schema: {
        ...admin("one discount code"),
        params: idParamsSchema,
        response: { 200: discountCodeSchema, ...adminErrors },
      },
      onRequest,
      config,
    },
    async (req) => codes.get(req.params.id),
  );

  app.patch(
    "/discount-codes/:id",
    {
      schema: {
        ...admin("change a discount code: the whole code again, as when it was created"),
        params: idParamsSchema,
        body: discountCodeInputSchema,
        response: { 200: discountCodeSchema, ...adminErrors },
      },
      onRequest,
      config,
    },
    async (req) => codes.update(actor(caller(req)), req.params.id, req.body),
  );

  app.delete(
    "/discount-codes/:id",
    {
      schema: {
        ...admin("switch a discount code off (its uses stay on their orders)"),
        params: idParamsSchema,
        response: { 204: z.null(), ...adminErrors },
      },
      onRequest,
      config,
    },
    async (req, reply) => {
      await codes.deactivate(actor(caller(req)), req.params.id);
      return reply.code(204).send(null);
    },
  );
};
