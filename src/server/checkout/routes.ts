import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { checkoutResultSchema, checkoutSchema } from "../../contract/cart";
import {
  orderCreateSchema,
  orderSchema,
  orderTotalInputSchema,
  orderTotalSchema,
  type Order,
} from "../../contract/orders";
import { caller, type Guards, type SessionUser } from "../http/request-context";
import { clientStillWaiting } from "../client-waiting";
import type { CheckoutService } from "./workflow";
import type { RequestMarkets } from "../pricing/request-market";
import { errorAnswers } from "../api-errors";

const errors = errorAnswers(400, 401, 403, 404, 409, 422, 429);

/** Where a door's order goes: a saved address or one given (its country). */
type Destination = { addressId?: string; shipTo?: { country: string } };

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
  const marketOf = async (req: FastifyRequest, body: Destination) =>
    (
      await markets.forDestination(req, caller(req).id, {
        country: body.shipTo?.country,
        addressId: body.addressId,
      })
    ).market;

  /**
   * `POST path`, a door that places an order (a client may send it again: `Idempotency-Key`), in
   * its destination's market, answered 201 `{ success: true, order }`.
   */
  const placing = <B extends z.ZodType<Destination>>(
    path: string,
    route: { tags: string[]; summary: string; body: B; answer: z.ZodType },
    place: (
      me: SessionUser,
      body: z.infer<B>,
      stillWaiting: ReturnType<typeof clientStillWaiting>,
      market: Awaited<ReturnType<typeof marketOf>>,
    ) => Promise<Order>,
  ) =>
    app.post(
      path,
      {
        schema: {
          tags: route.tags,
          summary: route.summary,
          body: route.body,
          response: { 201: route.answer, ...errors },
        },
        onRequest: guards.customerPlacing,
        config: { placesOrder: true, idempotent: true },
      },
      async (req, reply) => {
        const me = caller(req);
        const body = req.body as z.infer<B>;
        const market = await marketOf(req, body);
        const order = await place(me, body, clientStillWaiting(req), market);
        return reply.code(201).send({ success: true as const, order });
      },
    );

  placing(
    "/orders",
    {
      tags: ["orders"],
      summary:
        "Place an order (customers only: admins do not order); the customer, product name and price come from the server",
      body: orderCreateSchema,
      answer: z.object({ success: z.literal(true), order: orderSchema }),
    },
    (me, body, stillWaiting, market) => checkout.placeOne(me, body, stillWaiting, market),
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

  placing(
    "/checkout",
    {
      tags: ["cart", "orders"],
      summary:
        "Order everything in your cart as one order (all lines or none) at the total you were shown; the cart is emptied",
      body: checkoutSchema,
      answer: checkoutResultSchema,
    },
    (me, body, stillWaiting, market) => checkout.checkoutCart(me, body, stillWaiting, market),
  );
};
