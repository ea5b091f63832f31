import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { pagingQuerySchema } from "../../contract/common";
import {
  reviewCreatedSchema,
  reviewCreateSchema,
  reviewSchema,
  reviewSummarySchema,
} from "../../contract/reviews";
import { errorAnswers } from "../api-errors";
import { pagedListRoute } from "../http/page";
import { caller, type Guards } from "../http/request-context";
import type { RateLimiter } from "../auth/rate-limit";
import { enforceLimits } from "../auth/request-limit";
import type { ReviewService } from "./service";

/** Review posting, besides one review per customer per week (service.ts). */
export const REVIEW_POST_LIMITS = {
  perUser: { max: 3, windowSeconds: 60 },
  perIp: { max: 20, windowSeconds: 60 * 60 },
};

const reviewIdParams = z.object({ id: z.uuid("No such review") });
/** An admin's change of one review: an empty answer (204), or why not. */
const reviewChanged = { 204: z.null(), ...errorAnswers(400, 401, 403, 404) };

export const reviewRoutes: FastifyPluginAsyncZod<{
  reviews: ReviewService;
  guards: Guards;
  rateLimiter: RateLimiter;
}> = async (app, { reviews, guards, rateLimiter }) => {
  pagedListRoute(
    app,
    "/reviews",
    {
      tags: ["reviews"],
      summary: "Public reviews, newest first, paged; the total is in X-Total-Count",
      querystring: pagingQuerySchema,
      item: reviewSchema,
      errors: errorAnswers(400),
    },
    (query) => reviews.list(query),
  );

  // The admin's lists of the reviews the public one leaves out, each at /reviews/<kind>.
  for (const [kind, summary] of [
    ["hidden", "Admin: the reviews admins hid, newest first, paged (to show one again)"],
    [
      "pending",
      "Admin: reviews awaiting approval (authors without a paid order), newest first, paged",
    ],
  ] as const) {
    pagedListRoute(
      app,
      `/reviews/${kind}`,
      {
        tags: ["reviews"],
        summary,
        querystring: pagingQuerySchema,
        item: reviewSchema,
        errors: errorAnswers(400, 401, 403),
        onRequest: guards.adminOnly,
      },
      (query) => reviews.list(query, kind),
    );
  }

  app.post(
    "/reviews/:id/approve",
    {
      schema: {
        tags: ["reviews"],
        summary: "Admin: publish a review awaiting approval (into the list, average and count)",
        params: reviewIdParams,
        response: {
          204: z.null(),
          ...errorAnswers(400, 401, 403, 404, 409),
        },
      },
      onRequest: guards.adminOnly,
    },
    async (req, reply) => {
      const me = caller(req);
      await reviews.approve(req.params.id, me);
      return reply.code(204).send(null);
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
        summary:
          "Add a review as the signed-in customer (author from the session); without a paid order it awaits approval",
        body: reviewCreateSchema,
        response: {
          201: reviewCreatedSchema,
          ...errorAnswers(400, 401, 403, 429),
        },
      },
      onRequest: guards.customerOnly,
    },
    async (req, reply) => {
      const me = caller(req);
      const { perUser, perIp } = REVIEW_POST_LIMITS;
      await enforceLimits(rateLimiter, reply, [
        { key: `reviews:user:${me.id}`, ...perUser },
        { key: `reviews:ip:${req.ip}`, ...perIp },
      ]);
      const { review, pending } = await reviews.create(me, req.body);
      return reply.code(201).send({ success: true as const, review, pending });
    },
  );

  app.patch(
    "/reviews/:id",
    {
      schema: {
        tags: ["reviews"],
        summary: "Admin: hide a review (out of the list, average and count) or show it again",
        params: reviewIdParams,
        body: z.strictObject({ hidden: z.boolean({ error: "hidden must be true or false" }) }),
        response: reviewChanged,
      },
      onRequest: guards.adminOnly,
    },
    async (req, reply) => {
      const me = caller(req);
      await reviews.setHidden(req.params.id, req.body.hidden, me);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    "/reviews/:id",
    {
      schema: {
        tags: ["reviews"],
        summary: "Admin: delete a review",
        params: reviewIdParams,
        response: reviewChanged,
      },
      onRequest: guards.adminOnly,
    },
    async (req, reply) => {
      const me = caller(req);
      await reviews.remove(req.params.id, me);
      return reply.code(204).send(null);
    },
  );
};
