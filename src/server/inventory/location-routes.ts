import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  allocationPolicySchema,
  locationCreateSchema,
  locationSchema,
  locationStockParamsSchema,
  locationUpdateSchema,
  productStockParamsSchema,
  backorderPolicySchema,
  productStockSchema,
  stockCountSchema,
  stockTransferInputSchema,
  stockTransferQuerySchema,
  stockTransferSchema,
} from "../../contract/locations";
import { errorAnswers } from "../api-errors";
import { recordRoutes } from "../http/record-routes";
import { settingRoutes } from "../http/setting-routes";
import { caller, type Guards } from "../http/request-context";
import type { LocationService } from "./locations";

const errors = errorAnswers(400, 401, 403, 404, 409, 422);

/** Admin: the store's locations, a product's stock at each, counts and transfers. */
export const locationRoutes: FastifyPluginAsyncZod<{
  locations: LocationService;
  guards: Guards;
}> = async (app, { locations, guards }) => {
  const all = recordRoutes(app, "/locations", {
    tags: ["inventory"],
    record: locationSchema,
    errors,
    onRequest: guards.adminOnly,
  });
  all.list("Admin: every stock location, the home one first", () => locations.list());

  settingRoutes(app, "/locations/allocation-policy", {
    tags: ["inventory"],
    body: allocationPolicySchema,
    answer: allocationPolicySchema,
    errors,
    onRequest: guards.adminOnly,
    readSummary: "Admin: how orders are allocated to locations",
    read: () => locations.allocation(),
    setSummary:
      "Admin: ship an order from one location when one has all of it (wholeOrder), or each line from the nearest location that has it",
    set: (body, me) => locations.setAllocation(body, me),
  });

  all.create(
    "Admin: add a stock location (a warehouse) with its address and the destinations it serves first",
    locationCreateSchema,
    (body, me) => locations.create(body, me),
  );
  all.update(
    "Admin: change a stock location; only the fields sent change (the home location, or one with units allocated to orders, is not deactivated)",
    locationUpdateSchema,
    (id, body, me) => locations.update(id, body, me),
  );

  app.get(
    "/locations/stock/:productId",
    {
      schema: {
        tags: ["inventory"],
        summary:
          "Admin: a product's stock at every location: on sale, allocated to orders, on hand, reorder level",
        params: productStockParamsSchema,
        response: { 200: productStockSchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => locations.stock(req.params.productId),
  );

  app.put(
    "/locations/stock/:productId/backorders",
    {
      schema: {
        tags: ["inventory"],
        summary:
          "Admin: whether a product takes backorders beyond its stock on sale, and its lead time in days (none: only up to its open supply)",
        params: productStockParamsSchema,
        body: backorderPolicySchema,
        response: { 200: productStockSchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => locations.backorderPolicy(req.params.productId, req.body, caller(req)),
  );

  app.put(
    "/locations/:id/stock/:productId",
    {
      schema: {
        tags: ["inventory"],
        summary:
          "Admin: a count at a location: the units on hand there (what is not allocated is on sale; the product's stock moves as much) and its reorder level",
        params: locationStockParamsSchema,
        body: stockCountSchema,
        response: { 200: productStockSchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => locations.count(req.params.id, req.params.productId, req.body, caller(req)),
  );

  app.get(
    "/locations/transfers",
    {
      schema: {
        tags: ["inventory"],
        summary: "Admin: recent transfers of stock between locations, newest first",
        querystring: stockTransferQuerySchema,
        response: { 200: z.array(stockTransferSchema), ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => locations.transfers(req.query),
  );

  app.post(
    "/locations/transfers",
    {
      schema: {
        tags: ["inventory"],
        summary:
          "Admin: move units on sale of a product from one location to another (its stock stays)",
        body: stockTransferInputSchema,
        response: { 201: stockTransferSchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req, reply) => reply.code(201).send(await locations.transfer(req.body, caller(req))),
  );
};
