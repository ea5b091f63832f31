import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  backorderCancelledSchema,
  backorderLineParamsSchema,
  type BackorderCancelled,
} from "../../contract/backorders";
import { idParamsSchema } from "../../contract/common";
import {
  accountHoldsSchema,
  adminOrderDetailSchema,
  adminOrderSchema,
  adminOrdersQuerySchema,
  orderPaySchema,
  orderSchema,
  ordersOverviewSchema,
  ordersQuerySchema,
  orderStatusChangeSchema,
  holdsAccountParamsSchema,
  type AdminOrderDetail,
  type Order,
} from "../../contract/orders";
import { adminRoute, caller, type Guards } from "../http/request-context";
import { forbidden } from "../errors";
import type { OrderService } from "./service";
import type { OrderLimitsService } from "./limits";
import { settingRoutes } from "../http/setting-routes";
import {
  MAX_HOLD_HOURS,
  orderLimitsAnswerSchema,
  orderLimitsSchema,
} from "../../contract/order-limits";
import type { ShipmentTracking } from "./state";
import { errorAnswers } from "../api-errors";
import { pagedListRoute } from "../http/page";

const errors = errorAnswers(400, 401, 403, 404, 409, 422, 429);

type Actor = { id: string; email: string };

export const orderRoutes: FastifyPluginAsyncZod<{
  orders: OrderService;
  /** Shipping and cancelling by an admin (workflows/order-status.ts). */
  status: {
    changeStatus(
      id: string,
      next: "shipped" | "cancelled",
      actor: Actor,
      tracking?: ShipmentTracking,
    ): Promise<Order>;
    cancelHoldsOfAccount(userId: string, actor: Actor): Promise<number>;
  };
  /** A buyer or an admin cancels a paid line's units on backorder (workflows/cancel-backorder.ts). */
  cancelBackorder(
    orderId: string,
    line: number,
    who: Actor & { role: string },
  ): Promise<BackorderCancelled>;
  /** An order's payment intents, as the admin's order page lists them (payments/). */
  paymentsOf(orderId: string): Promise<AdminOrderDetail["payments"]>;
  /** The spec's "marks the order paid": the payment checked with the gateway (payments/). */
  confirmPaid(orderId: string, transactionId: string, ownerId: string): Promise<Order>;
  /** The order limits an admin sets (orders/limits.ts). */
  limits: OrderLimitsService;
  guards: Guards;
}> = async (app, { orders, status, cancelBackorder, paymentsOf, confirmPaid, limits, guards }) => {
  app.get(
    "/orders",
    {
      schema: {
        tags: ["orders"],
        summary: "The caller's orders (orderEmail, if given, must be the caller's own)",
        querystring: ordersQuerySchema,
        response: { 200: z.array(orderSchema), ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = caller(req);
      const asked = req.query.orderEmail?.toLowerCase();
      if (!asked || asked === me.email.toLowerCase()) return orders.listForUser(me.id);
      if (me.role !== "admin") throw forbidden("You can only see your own orders");
      return orders.listForEmail(asked);
    },
  );

  app.get(
    "/orders/:id",
    {
      schema: {
        tags: ["orders"],
        summary: "One order (its owner or an admin)",
        params: idParamsSchema,
        response: { 200: orderSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = caller(req);
      return orders.getVisible(req.params.id, me);
    },
  );

  app.get(
    "/orders/:id/detail",
    {
      schema: {
        tags: ["orders", "admin"],
        summary: "Admin: one order in full: customer, delivery, lines, payments, history",
        params: idParamsSchema,
        response: { 200: adminOrderDetailSchema, ...errors },
      },
      ...adminRoute(guards, "orders:read"),
    },
    async (req) => ({
      ...(await orders.detail(req.params.id)),
      payments: await paymentsOf(req.params.id),
    }),
  );

  app.patch(
    "/orders/:id",
    {
      schema: {
        tags: ["orders"],
        summary: "Mark the order paid, once the gateway confirms the transaction",
        params: idParamsSchema,
        body: orderPaySchema,
        response: { 200: orderSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = caller(req);
      return confirmPaid(req.params.id, req.body.transactionId, me.id);
    },
  );

  app.delete(
    "/orders/:id",
    {
      schema: {
        tags: ["orders"],
        summary: "Delete one of your unpaid orders; its stock goes back on sale",
        params: idParamsSchema,
        response: { 200: z.object({ success: z.literal(true) }), ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => {
      const me = caller(req);
      await orders.deleteUnpaid(req.params.id, me.id);
      return { success: true as const };
    },
  );

  app.delete(
    "/orders/:id/backorders/:line",
    {
      schema: {
        tags: ["orders"],
        summary:
          "Cancel a paid order line's units on backorder (its buyer or an admin): they are refunded with their tax and a credit note; if nothing else of the order is left to ship, the whole order is cancelled and refunded",
        params: backorderLineParamsSchema,
        response: { 200: backorderCancelledSchema, ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req) => cancelBackorder(req.params.id, req.params.line, caller(req)),
  );

  pagedListRoute(
    app,
    "/orders/all",
    {
      tags: ["orders", "admin"],
      summary: "Admin: every order, newest first, paged; the total is in X-Total-Count",
      querystring: adminOrdersQuerySchema,
      item: adminOrderSchema,
      errors,
      ...adminRoute(guards, "orders:read"),
    },
    (query) => orders.listAll(query),
  );

  app.get(
    "/orders/overview",
    {
      schema: {
        tags: ["orders", "admin"],
        summary: "Admin: orders by status, and orders and revenue per day for 30 days",
        response: { 200: ordersOverviewSchema, ...errors },
      },
      ...adminRoute(guards, "orders:read"),
    },
    async () => orders.overview(),
  );

  app.get(
    "/holds",
    {
      schema: {
        tags: ["orders", "admin"],
        summary: "Admin: stock held in unpaid orders, per account, largest value first",
        response: { 200: z.array(accountHoldsSchema), ...errors },
      },
      ...adminRoute(guards, "orders:read"),
    },
    async () => orders.holdsByAccount(),
  );

  settingRoutes(app, "/holds/limits", {
    tags: ["orders", "admin"],
    body: orderLimitsSchema,
    answer: orderLimitsAnswerSchema,
    errors,
    onRequest: guards.adminOnly,
    readSummary:
      "Admin: the order limits: how long an unpaid order holds its stock (a new customer's shorter), the share of a product's stock one line and all new customers may hold, the value one account may hold, orders and quick-order lookups per minute; `updatedAt` null: never saved, the environment's (ORDER_HOLD_HOURS, HOLD_*, ORDERS_PER_MINUTE, QUICK_ORDER_PER_MINUTE)",
    read: () => limits.read(),
    setSummary: `Admin: set the order limits (a hold of 1–${MAX_HOLD_HOURS} hours…), for every placement from now on; orders placed before keep their hold`,
    set: (body, me) => limits.set(body, me),
  });

  app.delete(
    "/holds/:userId",
    {
      schema: {
        tags: ["orders", "admin"],
        summary: "Admin: cancel every unpaid order of one account; the stock goes back on sale",
        params: holdsAccountParamsSchema,
        response: { 200: z.object({ cancelledOrders: z.number().int() }), ...errors },
      },
      ...adminRoute(guards, "orders:write"),
    },
    async (req) => {
      return {
        cancelledOrders: await status.cancelHoldsOfAccount(req.params.userId, caller(req)),
      };
    },
  );

  app.patch(
    "/orders/:id/status",
    {
      schema: {
        tags: ["orders", "admin"],
        summary:
          "Admin: ship a paid order (optionally with its carrier and tracking number: both or neither), or cancel an unpaid one (its stock returns, its open payment is cancelled at the gateway) or a paid one (its stock returns, it is refunded in full with a credit note)",
        params: idParamsSchema,
        body: orderStatusChangeSchema,
        response: { 200: orderSchema, ...errors },
      },
      ...adminRoute(guards, "orders:write"),
    },
    async (req) =>
      status.changeStatus(
        req.params.id,
        req.body.status,
        caller(req),
        req.body.carrier && req.body.trackingNumber
          ? { carrier: req.body.carrier, trackingNumber: req.body.trackingNumber }
          : undefined,
      ),
  );
};
