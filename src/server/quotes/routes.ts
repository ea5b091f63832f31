import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  quoteAcceptResultSchema,
  quoteAcceptSchema,
  quoteDetailSchema,
  quoteListQuerySchema,
  quoteMessageInputSchema,
  quoteParamsSchema,
  quoteRequestSchema,
  quoteSchema,
  quoteSendSchema,
  quoteTotalInputSchema,
  quoteTotalSchema,
  type QuoteAccept,
  type QuoteTotal,
  type QuoteTotalInput,
} from "../../contract/quotes";
import type { Order } from "../../contract/orders";
import { errorAnswers } from "../api-errors";
import { pagedListRoute } from "../http/page";
import type { RateLimiter } from "../auth/rate-limit";
import { enforceLimits } from "../auth/request-limit";
import { caller, companyOf, type Guards, type SessionUser } from "../http/request-context";
import { clientStillWaiting } from "../client-waiting";
import type { QuoteService } from "./service";
import type { RequestMarkets } from "../pricing/request-market";

const errors = errorAnswers(400, 401, 403, 404, 409, 422, 429);

/**
 * Quote requests and thread messages, each mailed (issue 49: 40 in 1.2 s): per account, more than
 * a buyer asks or writes in a busy hour; per client IP, an office of such buyers.
 */
export const QUOTE_LIMITS = {
  request: {
    perUser: { max: 20, windowSeconds: 60 * 60 },
    perIp: { max: 60, windowSeconds: 60 * 60 },
  },
  message: {
    perUser: { max: 20, windowSeconds: 10 * 60 },
    perIp: { max: 60, windowSeconds: 10 * 60 },
  },
};

/**
 * Accepting a quote places its order: the checkout's placement workflow (`checkout/workflow.ts`),
 * handed in by app.ts, so quotes do not import the checkout that reads them.
 */
export interface QuoteAcceptance {
  acceptQuote(
    customer: SessionUser,
    quoteId: string,
    input: QuoteAccept,
    clientWaiting?: () => boolean,
  ): Promise<Order>;
  quoteTotal(customer: SessionUser, quoteId: string, input: QuoteTotalInput): Promise<QuoteTotal>;
}

/** `/quotes` (DESIGN.md section 7; docs/quotes.md). */
export const quoteRoutes: FastifyPluginAsyncZod<{
  quotes: QuoteService;
  checkout: QuoteAcceptance;
  guards: Guards;
  rateLimiter: RateLimiter;
  /** The market a request is asked in (docs/quotes.md "In the buyer's market"). */
  markets: Pick<RequestMarkets, "of">;
}> = async (app, { quotes, checkout, guards, rateLimiter, markets }) => {
  /** Counts one of `kind` against the caller and their IP: 429 with Retry-After over either. */
  const limit = (kind: keyof typeof QUOTE_LIMITS, req: FastifyRequest, reply: FastifyReply) => {
    const { perUser, perIp } = QUOTE_LIMITS[kind];
    return enforceLimits(rateLimiter, reply, [
      { key: `quotes:${kind}:user:${caller(req).id}`, ...perUser },
      { key: `quotes:${kind}:ip:${req.ip}`, ...perIp },
    ]);
  };

  app.post(
    "/quotes",
    {
      schema: {
        tags: ["quotes"],
        summary:
          "Ask for a quote for everything in your cart, with a note (customers; not a company's viewers). The cart stays as it is; the quote is in the market you shop in (its currency and rate)",
        body: quoteRequestSchema,
        response: { 201: quoteSchema, ...errors },
      },
      onRequest: guards.customerOnly,
      preHandler: guards.companyIfAny,
    },
    async (req, reply) => {
      await limit("request", req, reply);
      const me = caller(req);
      // The request's market (MARKET_CHOICE off: none, the store's currency, nothing read).
      const market = await markets.of(req, me.id);
      return reply.code(201).send(await quotes.request(me, companyOf(req), req.body.note, market));
    },
  );

  pagedListRoute(
    app,
    "/quotes",
    {
      tags: ["quotes"],
      summary:
        "Quotes, newest first, paged (total in X-Total-Count): your company's (or your own without a company); every quote for admins. Search by reference, requester or company; filter by status",
      querystring: quoteListQuerySchema,
      item: quoteSchema,
      errors,
      onRequest: guards.customerOrAdmin,
      preHandler: guards.companyIfAny,
    },
    (query, req) => quotes.list(caller(req), companyOf(req), query),
  );

  app.get(
    "/quotes/:id",
    {
      schema: {
        tags: ["quotes"],
        summary: "One quote with its lines and message thread",
        params: quoteParamsSchema,
        response: { 200: quoteDetailSchema, ...errors },
      },
      onRequest: guards.customerOrAdmin,
      preHandler: guards.companyIfAny,
    },
    async (req) => quotes.get(caller(req), companyOf(req), req.params.id),
  );

  app.post(
    "/quotes/:id/send",
    {
      schema: {
        tags: ["quotes"],
        summary:
          "Admins: price every line (more than 0) and set the expiry (in the future); the quote is sent and the buyer emailed",
        params: quoteParamsSchema,
        body: quoteSendSchema,
        response: { 200: quoteSchema, ...errors },
      },
      onRequest: guards.adminOnly,
    },
    async (req) => {
      const me = caller(req);
      return quotes.send(
        { id: me.id, email: me.email, name: me.name ?? "", role: "admin" },
        req.params.id,
        req.body,
      );
    },
  );

  app.post(
    "/quotes/:id/accept",
    {
      schema: {
        tags: ["quotes", "orders"],
        summary:
          "Accept a sent quote within its expiry (who asked, or an owner of their company): it becomes an unpaid order at the quoted prices, shipping and tax added as at checkout",
        params: quoteParamsSchema,
        body: quoteAcceptSchema,
        response: { 201: quoteAcceptResultSchema, ...errors },
      },
      onRequest: guards.customerOnly,
      preHandler: guards.companyIfAny,
      config: { placesOrder: true, idempotent: true },
    },
    async (req, reply) => {
      const me = caller(req);
      await quotes.expire(req.params.id);
      // The acceptance asks the membership again, in the order's transaction (quotes/access.ts).
      const order = await checkout.acceptQuote(
        me,
        req.params.id,
        req.body,
        clientStillWaiting(req),
      );
      // The answer's schema keeps the quote's fields (the thread is left out by serialization).
      const quote = await quotes.get(me, companyOf(req), req.params.id);
      return reply.code(201).send({ quote, order });
    },
  );

  app.post(
    "/quotes/:id/total",
    {
      schema: {
        tags: ["quotes"],
        summary:
          "What accepting a sent quote would charge now (who may accept it): the quoted lines, shipping and tax for a saved address or the default one; send its total back as expectedTotal",
        params: quoteParamsSchema,
        body: quoteTotalInputSchema,
        response: { 200: quoteTotalSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => {
      const me = caller(req);
      await quotes.expire(req.params.id);
      return checkout.quoteTotal(me, req.params.id, req.body);
    },
  );

  app.post(
    "/quotes/:id/decline",
    {
      schema: {
        tags: ["quotes"],
        summary: "Decline a sent quote (who asked, or an owner of their company)",
        params: quoteParamsSchema,
        response: { 200: quoteSchema, ...errors },
      },
      onRequest: guards.customerOnly,
      preHandler: guards.companyIfAny,
    },
    async (req) => quotes.decline(caller(req), companyOf(req), req.params.id),
  );

  app.post(
    "/quotes/:id/messages",
    {
      schema: {
        tags: ["quotes"],
        summary:
          "Write in a quote's thread (plain text, at most 2,000 characters): its company's buyers and owners, or admins",
        params: quoteParamsSchema,
        body: quoteMessageInputSchema,
        response: { 201: quoteDetailSchema, ...errors },
      },
      onRequest: guards.customerOrAdmin,
      preHandler: guards.companyIfAny,
    },
    async (req, reply) => {
      await limit("message", req, reply);
      return reply
        .code(201)
        .send(await quotes.postMessage(caller(req), companyOf(req), req.params.id, req.body.body));
    },
  );
};
