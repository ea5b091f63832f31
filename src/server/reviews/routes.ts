import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorSchema, pagingQuerySchema } from "../../contract/common";
import { TOTAL_COUNT_HEADER } from "../../contract/constants";
import {
  reviewCreatedSchema,
  reviewCreateSchema,
  reviewSchema,
  reviewSummarySchema,
} from "../../contract/reviews";
import type { Guards } from "../auth/guards";
import type { ReviewService } from "./service";

export const reviewRoutes: FastifyPluginAsyncZod<{
  reviews: ReviewService;
  guards: Guards;
}> = async (app, { reviews, guards }) => {
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

  app.get(
    "/reviews/summary",
    {
      schema: {
        tags: ["reviews"],
        summary: "Average rating (one decimal, 0 when there are none) and number of reviews",
        response: { 200: reviewSummarySchema },
      },
    },
    async () => reviews.summary(),
  );

  app.post(
    "/reviews",
    {
      schema: {
        tags: ["reviews"],
        summary: "Add a review as the signed-in customer (author name and email from the session)",
        body: reviewCreateSchema,
        response: {
          201: reviewCreatedSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
        },
      },
      onRequest: guards.customerOnly,
    },
    async (req, reply) => {
      const me = await guards.requireCustomer(req);
      const review = await reviews.create(me, req.body);
      return reply.code(201).send({ success: true as const, review });
    },
  );
};
