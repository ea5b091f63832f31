import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorSchema, pagingQuerySchema } from "../../contract/common";
import { TOTAL_COUNT_HEADER } from "../../contract/constants";
import { reviewSchema } from "../../contract/reviews";
import type { Guards } from "../auth/guards";
import type { ReviewService } from "./service";

export const reviewRoutes: FastifyPluginAsyncZod<{
  reviews: ReviewService;
  guards: Guards;
}> = async (app, { reviews }) => {
  app.get(
    "/reviews",
    {
      schema: {
        tags: ["reviews"],
        summary: "Public reviews, newest first, paged; the total is in X-Total-Count",
        querystring: pagingQuerySchema,
        response: { 200: z.array(reviewSchema), 400: apiErrorSchema },
      },
    },
    async (req, reply) => {
      const { items, total } = await reviews.list(req.query);
      reply.header(TOTAL_COUNT_HEADER, total);
      return items;
    },
  );
};
