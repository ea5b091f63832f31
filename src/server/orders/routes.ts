import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
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
} from "../../contract/orders";
import { TOTAL_COUNT_HEADER } from "../../contract/constants";
import { caller, type Guards } from "../auth/guards";
import { forbidden } from "../errors";
import type { PaymentService } from "../payments/service";
import type { ReturnService } from "../returns/service";
import type { OrderService } from "./service";
import { errorAnswers } from "../api-errors";

const errors = errorAnswers(400, 401, 403, 404, 409, 422, 429);

export const orderRoutes: FastifyPluginAsyncZod<{
  orders: OrderService;
  payments: PaymentService;
  /** Refunds a paid order the admin cancels (docs/returns.md). */
  returns: ReturnService;
  guards: Guards;
}> = async (app, { orders, payments, returns, guards }) => {
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
      onRequest: guards.adminOnly,
    },
    async (req) => orders.detail(req.params.id),
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
      return payments.confirmPaid(req.params.id, req.body.transactionId, me.id);
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

  app.get(
    "/orders/all",
    {
      schema: {
        tags: ["orders", "admin"],
        summary: "Admin: every order, newest first, paged; the total is in X-Total-Count",
        querystring: adminOrdersQuerySchema,
        response: { 200: z.array(adminOrderSchema), ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req, reply) => {
      const { items, total } = await orders.listAll(req.query);
      reply.header(TOTAL_COUNT_HEADER, total);
      return items;
    },
  );

  app.get(
    "/orders/overview",
    {
      schema: {
        tags: ["orders", "admin"],
        summary: "Admin: orders by status, and orders and revenue per day for 30 days",
        response: { 200: ordersOverviewSchema, ...errors },
      },
      onRequest: guards.adminOnly,
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
      onRequest: guards.adminOnly,
    },
    async () => orders.holdsByAccount(),
  );

  app.delete(
    "/holds/:userId",
    {
      schema: {
        tags: ["orders", "admin"],
        summary: "Admin: cancel every unpaid order of one account; the stock goes back on sale",
        params: holdsAccountParamsSchema,
        response: { 200: z.object({ cancelledOrders: z.number().int() }), ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => {
      const cancelled = await orders.cancelHoldsOfAccount(req.params.userId, caller(req));
      // Their open payments can no longer be paid (after the commit).
      for (const id of cancelled) await payments.cancelIntentsOf(id);
      return { cancelledOrders: cancelled.length };
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
      onRequest: guards.adminOnly,
    },
    async (req) => {
      let refundId: string | undefined;
      const order = await orders.changeStatus(
        req.params.id,
        req.body.status,
        caller(req),
        async (tx, row) => {
          refundId = (await returns.refundCancelled(tx, row)).id;
        },
        req.body.carrier && req.body.trackingNumber
          ? { carrier: req.body.carrier, trackingNumber: req.body.trackingNumber }
          : undefined,
      );
      // Its open payment can no longer be paid (a late one would be kept as refund due).
      if (order.status === "cancelled") await payments.cancelIntentsOf(order._id);
      // A paid order cancelled: the money goes back through the gateway, with a credit note.
      if (refundId) await returns.runRefund(refundId);
      return order;
    },
  );
};
