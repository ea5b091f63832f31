import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParamsSchema } from "../../contract/common";
import { orderShipmentsSchema, shipmentCreateSchema } from "../../contract/shipments";
import { errorAnswers } from "../api-errors";
import { adminRoute, caller, type Guards } from "../http/request-context";
import { orderReadRoutes } from "../orders/read-routes";
import type { ShipmentService } from "./service";

const errors = errorAnswers(400, 401, 403, 404, 409, 422, 429);

/** Partial shipment of an order's lines (docs/shipments.md). */
export const shipmentRoutes: FastifyPluginAsyncZod<{
  shipments: ShipmentService;
  guards: Guards;
}> = async (app, { shipments, guards }) => {
  orderReadRoutes(app, guards, ["orders"], errors)(
    "/orders/:id/shipments",
    "An order's shipments with their tracking, and per line what is shipped and still to ship (owner or admin)",
    orderShipmentsSchema,
    (id, viewer) => shipments.list(id, viewer),
  );

  app.post(
    "/orders/:id/shipments",
    {
      schema: {
        tags: ["orders", "admin"],
        summary:
          "Admin: ship some lines (and quantities) of a paid order, optionally with carrier and tracking number (both or neither); the last units make the order shipped",
        params: idParamsSchema,
        body: shipmentCreateSchema,
        response: { 201: orderShipmentsSchema, ...errors },
      },
      ...adminRoute(guards, "orders:write"),
    },
    async (req, reply) => {
      const result = await shipments.ship(req.params.id, req.body, caller(req));
      return reply.code(201).send(result);
    },
  );
};
