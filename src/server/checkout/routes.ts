import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { checkoutResultSchema, checkoutSchema } from "../../contract/cart";
import {
  orderCreateSchema,
  orderSchema,
  orderTotalInputSchema,
  orderTotalSchema,
} from "../../contract/orders";
import { caller, type Guards } from "../http/request-context";
import { clientStillWaiting } from "../client-waiting";
import type { CheckoutService } from "./workflow";
import type { RequestMarkets } from "../pricing/request-market";
import { errorAnswers } from "../api-errors";

const errors = errorAnswers(400, 401, 403, 404, 409, 422, 429);

/**
 * The two doors into the checkout workflow, one product (the spec's order) or the cart, and what
 * the first would charge; each in the request's market (docs/pricing.md "The market chosen").
 */
export const checkoutRoutes: FastifyPluginAsyncZod<{
  checkout: CheckoutService;
  guards: Guards;
  markets: Pick<RequestMarkets, "forDestination">;
}> = async (app, { checkout, guards, markets }) => {
  // Each door prices in its destination's market, as the checkout page's quote did.
  const marketOf = async (
    req: FastifyRequest,
    body: { addressId?: string; shipTo?: { country: string } },
  ) =>
    (
      await markets.forDestination(req, caller(req).id, {
        country: body.shipTo?.country,
        addressId: body.addressId,
      })
    ).market;
  app.post(
    "/orders",
    {
      schema: {
        tags: ["orders"],
        summary:
          "Place an order (customers only: admins do not order); the customer, product name and price come from the server",
        body: orderCreateSchema,
        response: { 201: z.object({ success: z.literal(true), order: orderSchema }), ...errors },
      },
      onRequest: guards.customerPlacing,
      config: { placesOrder: true, idempotent: true },
    },
    async (req, reply) => {
      const me = caller(req);
      const market = await marketOf(req, req.body);
      const order = await checkout.placeOne(me, req.body, clientStillWaiting(req), market);
      return reply.code(201).send({ success: true as const, order });
    },
  );

  app.post(
    "/orders/total",
    {
      schema: {
        tags: ["orders"],
        summary:
          "What ordering one product would charge now (the lines, shipping and tax for a saved address, a given one or the default), placing nothing; send its total back as expectedTotal",
        body: orderTotalInputSchema,
        response: { 200: orderTotalSchema, ...errors },
      },
      onRequest: guards.customerPlacing,
    },
    async (req) => checkout.orderTotal(caller(req), req.body, await marketOf(req, req.body)),
  );

  app.post(
    "/checkout",
    {
      schema: {
        tags: ["cart", "orders"],
        summary:
          "Order everything in your cart as one order (all lines or none) at the total you were shown; the cart is emptied",
        body: checkoutSchema,
        response: { 201: checkoutResultSchema, ...errors },
      },
      onRequest: guards.customerPlacing,
      config: { placesOrder: true, idempotent: true },
    },
    async (req, reply) => {
      const me = caller(req);
      const market = await marketOf(req, req.body);
      const order = await checkout.checkoutCart(me, req.body, clientStillWaiting(req), market);
      return reply.code(201).send({ success: true as const, order });
    },
  );
};
