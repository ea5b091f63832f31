import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  discountCodeInputSchema,
  discountCodeListQuerySchema,
  discountCodeSchema,
} from "../../contract/discount-codes";
import { actor, adminErrors } from "./admin-answers";
import { pagedListRoute } from "../http/page";
import { recordRoutes } from "../http/record-routes";
import type { Guards } from "../http/request-context";
import type { DiscountCodeService } from "./discount-codes";

/** Discount codes (admin only; docs/pricing.md "Discount codes"). A buyer applies one in the cart. */
export const discountCodeRoutes: FastifyPluginAsyncZod<{
  codes: DiscountCodeService;
  guards: Guards;
}> = async (app, { codes, guards }) => {
  const onRequest = guards.adminOnly;
  const config = { apiScope: "prices:write" } as const;

  pagedListRoute(
    app,
    "/discount-codes",
    {
      tags: ["pricing", "admin"],
      summary: "Admin: discount codes by code, paged (`q` searches codes); total in X-Total-Count",
      querystring: discountCodeListQuerySchema,
      item: discountCodeSchema,
      errors: adminErrors,
      onRequest,
      config,
    },
    (query) => codes.list(query),
  );
  const discountCodes = recordRoutes(app, "/discount-codes", {
    tags: ["pricing", "admin"],
    record: discountCodeSchema,
    errors: adminErrors,
    onRequest,
    config,
  });
  discountCodes.create(
    "Admin: a discount code: `percent` or `amount` off all parts, a `category` or a part (`partNumber`), with a minimum order, dates, limits and a customer group",
    discountCodeInputSchema,
    (body, me) => codes.create(actor(me), body),
  );
  discountCodes.get("Admin: one discount code", (id) => codes.get(id));
  discountCodes.update(
    "Admin: change a discount code: the whole code again, as when it was created",
    discountCodeInputSchema,
    (id, body, me) => codes.update(actor(me), id, body),
  );
  discountCodes.remove(
    "Admin: switch a discount code off (its uses stay on their orders)",
    (id, me) => codes.deactivate(actor(me), id),
  );
};
