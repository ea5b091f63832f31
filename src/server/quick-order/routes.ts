import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
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
import { caller, type Guards } from "../auth/guards";
import { HttpError } from "../errors";
import { decodeCsv, parseText } from "./parse";
import { entriesFromLines, entriesFromText, type Entry, type QuickOrderService } from "./service";

const errors = errorAnswers(400, 401, 403, 409, 413, 415, 422);

const tooLarge = () => new HttpError(413, "too_large", quickOrderMessages.fileTooLarge);

/** The one CSV file of a multipart upload, in memory (at most MAX_QUICK_ORDER_FILE_BYTES). */
async function readUpload(req: FastifyRequest): Promise<string> {
  if (!req.isMultipart()) {
    throw new HttpError(
      415,
      "unsupported_media_type",
      `Send the CSV as multipart/form-data in a field named "${QUICK_ORDER_FILE_FIELD}"`,
    );
  }
  try {
    const part = await req.file();
    if (!part || part.fieldname !== QUICK_ORDER_FILE_FIELD) {
      part?.file.resume();
      throw new HttpError(400, "validation", "Choose a CSV file", {
        [QUICK_ORDER_FILE_FIELD]: "Choose a CSV file",
      });
    }
    const data = await part.toBuffer();
    if (part.file.truncated) throw tooLarge();
    const text = decodeCsv(data);
    if (text === null) throw new HttpError(400, "validation", quickOrderMessages.notCsv);
    return text;
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge();
    throw err;
  }
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
}> = async (app, { quickOrder, guards }) => {
  await app.register(multipart, {
    limits: {
      fileSize: MAX_QUICK_ORDER_FILE_BYTES,
      files: 1,
      fields: 2,
      fieldSize: 1024,
      parts: 3,
    },
  });

  /** The caller's id when a customer is signed in (an admin resolves at list prices). */
  const customerId = async (req: FastifyRequest) => {
    const me = await guards.currentUser(req);
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
        response: { 200: quickOrderResultSchema, ...errors },
      },
    },
    async (req) => quickOrder.resolve(entriesOf(req.body), await customerId(req)),
  );

  app.post(
    "/quick-order/upload",
    {
      schema: {
        tags: ["quick-order"],
        summary: `Resolve a CSV file (multipart field \`${QUICK_ORDER_FILE_FIELD}\`) of part numbers and quantities, as /quick-order/resolve does`,
        consumes: ["multipart/form-data"],
        response: { 200: quickOrderResultSchema, ...errors },
      },
    },
    async (req) =>
      quickOrder.resolve(entriesFromText(parseText(await readUpload(req))), await customerId(req)),
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
      return quickOrder.addToCart(entriesOf(req.body), me.id);
    },
  );
};
