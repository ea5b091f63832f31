import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import {
  listAddedSchema,
  listCreateSchema,
  listItemParamsSchema,
  listQtySchema,
  listRenameSchema,
  listSchema,
  listSummarySchema,
} from "../../contract/lists";
import { errorAnswers } from "../api-errors";
import { recordRoutes } from "../http/record-routes";
import { caller, type Guards } from "../http/request-context";
import type { ListService } from "./service";
import type { FastifyRequest } from "fastify";
import type { RequestMarkets } from "../pricing/request-market";

const errors = errorAnswers(400, 401, 403, 404, 409, 422);

/**
 * Saved lists (docs/quick-order.md). Each customer's own: another customer's list is 404, as if
 * it did not exist; admins do not order (403), as with the cart.
 */
export const listRoutes: FastifyPluginAsyncZod<{
  lists: ListService;
  guards: Guards;
  /** The market a request prices in (docs/pricing.md "The market chosen"). */
  markets: Pick<RequestMarkets, "of">;
}> = async (app, { lists, guards, markets }) => {
  const tags = ["lists"];
  const marketOf = (req: FastifyRequest) => markets.of(req, caller(req).id);

  app.get(
    "/lists",
    {
      schema: {
        tags,
        summary: "Your saved lists, the last changed first",
        response: { 200: z.array(listSummarySchema), ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => lists.list(caller(req).id),
  );

  const yourLists = recordRoutes(app, "/lists", {
    tags,
    record: listSchema,
    errors,
    onRequest: guards.customerOnly,
  });
  yourLists.create(
    "Start a saved list (with parts, if given)",
    listCreateSchema,
    async (body, me, req) => lists.create(me.id, body, await marketOf(req)),
  );
  yourLists.get("One of your lists with its parts at today's prices", async (id, me, req) =>
    lists.get(me.id, id, await marketOf(req)),
  );
  yourLists.update("Rename one of your lists", listRenameSchema, async (id, body, me, req) =>
    lists.rename(me.id, id, body.name, await marketOf(req)),
  );
  yourLists.remove("Delete one of your lists", (id, me) => lists.remove(me.id, id));

  app.put(
    "/lists/:id/items/:productId",
    {
      schema: {
        tags,
        summary: "Put a part on one of your lists with this quantity (adds it, or changes it)",
        params: listItemParamsSchema,
        body: listQtySchema,
        response: { 200: listSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => {
      const { id, productId } = req.params;
      return lists.setItem(caller(req).id, id, productId, req.body.qty, await marketOf(req));
    },
  );

  app.delete(
    "/lists/:id/items/:productId",
    {
      schema: {
        tags,
        summary: "Take a part off one of your lists",
        params: listItemParamsSchema,
        response: { 200: listSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) =>
      lists.removeItem(caller(req).id, req.params.id, req.params.productId, await marketOf(req)),
  );

  app.post(
    "/lists/:id/add-to-cart",
    {
      schema: {
        tags: [...tags, "cart"],
        summary:
          "Put a whole list in your cart at today's prices, in one go (parts out of stock left out, quantities fitted to the minimum and the stock)",
        params: idParamsSchema,
        response: { 200: listAddedSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => lists.addToCart(caller(req).id, req.params.id, await marketOf(req)),
  );
};
