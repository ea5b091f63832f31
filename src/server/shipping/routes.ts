import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import {
  orderDeliveryPromiseSchema,
  shippingZoneInputSchema,
  shippingZoneSchema,
} from "../../contract/shipping";
import { errorAnswers } from "../api-errors";
import { caller, type Guards } from "../http/request-context";
import type { ShippingService } from "./service";

const errors = errorAnswers(400, 401, 403, 404, 409);

/** Admin: where the store ships, by which methods, at what rates; an order's promised window. */
export const shippingRoutes: FastifyPluginAsyncZod<{
  shipping: ShippingService;
  guards: Guards;
}> = async (app, { shipping, guards }) => {
  app.get(
    "/orders/:id/delivery-promise",
    {
      schema: {
        tags: ["orders"],
        summary:
          "The delivery window the order was promised at the cart's checkout, from where its parts were allocated; its words while it is unpaid or paid and unshipped (owner or admin)",
        params: idParamsSchema,
        response: { 200: orderDeliveryPromiseSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => shipping.deliveryPromise(req.params.id, caller(req)),
  );

  app.get(
    "/shipping-zones",
    {
      schema: {
        tags: ["shipping"],
        summary: "Admin: every shipping zone with its methods and rates",
        response: { 200: z.array(shippingZoneSchema), ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async () => shipping.list(),
  );

  app.post(
    "/shipping-zones",
    {
      schema: {
        tags: ["shipping"],
        summary:
          "Admin: add a shipping zone (countries, optionally only some regions) with its methods (flat, weight bands, free over an order value)",
        body: shippingZoneInputSchema,
        response: { 201: shippingZoneSchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req, reply) => {
      const me = caller(req);
      return reply.code(201).send(await shipping.create(req.body, me));
    },
  );

  app.put(
    "/shipping-zones/:id",
    {
      schema: {
        tags: ["shipping"],
        summary:
          "Admin: change a shipping zone as a whole; methods sent with their id keep it, others are added, missing ones removed",
        params: idParamsSchema,
        body: shippingZoneInputSchema,
        response: { 200: shippingZoneSchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => shipping.replace(req.params.id, req.body, caller(req)),
  );

  app.delete(
    "/shipping-zones/:id",
    {
      schema: {
        tags: ["shipping"],
        summary: "Admin: remove a shipping zone and its methods (placed orders keep theirs)",
        params: idParamsSchema,
        response: { 204: z.null(), ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req, reply) => {
      await shipping.remove(req.params.id, caller(req));
      return reply.code(204).send(null);
    },
  );
};
