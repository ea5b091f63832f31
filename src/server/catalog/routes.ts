import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorSchema, idParamsSchema } from "../../contract/common";
import { TOTAL_COUNT_HEADER } from "../../contract/constants";
import { productListQuerySchema, productSchema } from "../../contract/products";
import { notFound } from "../errors";
import type { Guards } from "../auth/guards";
import type { CatalogService } from "./service";

export interface CatalogRoutesOptions {
  catalog: CatalogService;
  guards: Guards;
  /** Where uploaded product images are stored (served at /uploads/). */
  uploadsDir: string;
}

export const catalogRoutes: FastifyPluginAsyncZod<CatalogRoutesOptions> = async (
  app,
  { catalog },
) => {
  app.get(
    "/products",
    {
      schema: {
        tags: ["catalog"],
        summary: "List products, paged; the total is in X-Total-Count",
        querystring: productListQuerySchema,
        response: { 200: z.array(productSchema), 400: apiErrorSchema },
      },
    },
    async (req, reply) => {
      const { items, total } = await catalog.list(req.query);
      reply.header(TOTAL_COUNT_HEADER, total);
      return items;
    },
  );

  app.get(
    "/products/:id",
    {
      schema: {
        tags: ["catalog"],
        summary: "One product",
        params: idParamsSchema,
        response: { 200: productSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (req) => {
      const product = await catalog.get(req.params.id);
      if (!product) throw notFound("Product not found");
      return product;
    },
  );
};
