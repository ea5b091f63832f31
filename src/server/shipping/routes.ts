import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParamsSchema } from "../../contract/common";
import {
  orderDeliveryPromiseSchema,
  shippingZoneInputSchema,
  shippingZoneSchema,
} from "../../contract/shipping";
import { errorAnswers } from "../api-errors";
import { recordRoutes } from "../http/record-routes";
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

  const zones = recordRoutes(app, "/shipping-zones", {
    tags: ["shipping"],
    record: shippingZoneSchema,
    errors,
    onRequest: guards.adminOnly,
  });
  zones.list("Admin: every shipping zone with its methods and rates", () => shipping.list());
  zones.create(
    "Admin: add a shipping zone (countries, optionally only some regions) with its methods (flat, weight bands, free over an order value)",
    shippingZoneInputSchema,
    (body, me) => shipping.create(body, me),
  );
  zones.replace(
    "Admin: change a shipping zone as a whole; methods sent with their id keep it, others are added, missing ones removed",
    shippingZoneInputSchema,
    (id, body, me) => shipping.replace(id, body, me),
  );
  zones.remove(
    "Admin: remove a shipping zone and its methods (placed orders keep theirs)",
    (id, me) => shipping.remove(id, me),
  );
};
