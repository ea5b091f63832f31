import multipart from "@fastify/multipart";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { RequestMarkets } from "../pricing/request-market";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  MAX_QUICK_ORDER_FILE_BYTES,
  QUICK_ORDER_FILE_FIELD,
  quickOrderAddedSchema,
  quickOrderInputSchema,
  quickOrderMessages,
  quickOrderResultSchema,
  type QuickOrderInput,
} from "../../contract/quick-order";
import { errorAnswers } from "../api-errors";
import type { RateLimiter } from "../auth/rate-limit";
import { enforceLimits } from "../auth/request-limit";
import { caller, type Guards } from "../http/request-context";
import { HttpError } from "../errors";
import { readOneFile } from "../http/upload";
import { decodeCsv, parseText } from "./parse";
import { entriesFromLines, entriesFromText, type Entry, type QuickOrderService } from "./service";
import type { OrderRulesSource } from "../orders/limits";

const errors = errorAnswers(400, 401, 403, 409, 413, 415, 422);
const lookupErrors = { ...errors, ...errorAnswers(429) };

const tooLarge = () => new HttpError(413, "too_large", quickOrderMessages.fileTooLarge);

/** The one CSV file of a multipart upload, as text (at most MAX_QUICK_ORDER_FILE_BYTES). */
async function readUpload(req: FastifyRequest): Promise<string> {
  const data = await readOneFile(req, {
    field: QUICK_ORDER_FILE_FIELD,
    noun: "the CSV",
    missing: { message: "Choose a CSV file", field: "Choose a CSV file" },
    tooLarge,
  });
  const text = decodeCsv(data);
  if (text === null) throw new HttpError(400, "validation", quickOrderMessages.notCsv);
  return text;
}

const entriesOf = (body: QuickOrderInput): Entry[] =>
  body.text !== undefined
    ? entriesFromText(parseText(body.text))
    : entriesFromLines(body.lines ?? []);

/**
 * Quick order by part number (docs/quick-order.md). Anyone may resolve lines (a visitor sees list
 * prices, a customer their own); adding to the cart is for customers (admins do not order).
 */
export const quickOrderRoutes: FastifyPluginAsyncZod<{
  quickOrder: QuickOrderService;
  guards: Guards;
  rateLimiter: RateLimiter;
  /**
   * Resolutions per minute per client IP and per signed-in account: the order limits' (admin's,
   * or `QUICK_ORDER_PER_MINUTE`).
   */
  rules: OrderRulesSource;
  /** The market a request prices in (docs/pricing.md "The market chosen"). */
  markets: Pick<RequestMarkets, "of">;
}> = async (app, { quickOrder, guards, rateLimiter, rules, markets }) => {
  await app.register(multipart, {
    limits: {
      fileSize: MAX_QUICK_ORDER_FILE_BYTES,
      files: 1,
      fields: 2,
      fieldSize: 1024,
      parts: 3,
    },
  });

  /**
   * Counts a resolution against the caller's IP and, signed in, their account (anyone may ask:
   * issue 49, finding 7, 16 clients slowed the catalog twentyfold); answers the caller's id when
   * a customer (an admin resolves at list prices).
   */
  const lookup = async (req: FastifyRequest, reply: FastifyReply) => {
    const me = await guards.currentUser(req);
    const window = { max: (await rules.get()).quickOrderPerMinute, windowSeconds: 60 };
    await enforceLimits(rateLimiter, reply, [
      { key: `quick-order:ip:${req.ip}`, ...window },
      ...(me ? [{ key: `quick-order:user:${me.id}`, ...window }] : []),
    ]);
    return me && me.role !== "admin" ? me.id : undefined;
  };

  app.post(
    "/quick-order/resolve",
    {
      schema: {
        tags: ["quick-order"],
        summary:
          "Resolve lines of part number and quantity (ours, OE, competitor or superseded numbers, any spelling) to parts, prices for the caller, stock and problems; stores nothing",
        body: quickOrderInputSchema,
        response: { 200: quickOrderResultSchema, ...lookupErrors },
      },
    },
    async (req, reply) => {
      const customerId = await lookup(req, reply);
      const market = await markets.of(req, customerId);
      return quickOrder.resolve(entriesOf(req.body), customerId, market);
    },
  );

  app.post(
    "/quick-order/upload",
    {
      schema: {
        tags: ["quick-order"],
        summary: `Resolve a CSV file (multipart field \`${QUICK_ORDER_FILE_FIELD}\`) of part numbers and quantities, as /quick-order/resolve does`,
        consumes: ["multipart/form-data"],
        response: { 200: quickOrderResultSchema, ...lookupErrors },
      },
    },
    async (req, reply) => {
      const customerId = await lookup(req, reply);
      const entries = entriesFromText(parseText(await readUpload(req)));
      return quickOrder.resolve(entries, customerId, await markets.of(req, customerId));
    },
  );

  app.post(
    "/quick-order/add-to-cart",
    {
      schema: {
        tags: ["quick-order", "cart"],
        summary:
          "Add every line without a blocking problem to your cart in one transaction; answers the lines left out",
        body: quickOrderInputSchema,
        response: { 200: quickOrderAddedSchema, ...errors },
      },
      onRequest: guards.customerOnly,
    },
    async (req) => {
      const me = caller(req);
      return quickOrder.addToCart(entriesOf(req.body), me.id, await markets.of(req, me.id));
    },
  );
};
