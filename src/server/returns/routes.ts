import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import {
  creditNoteSchema,
  fitmentReportSchema,
  receiveReturnSchema,
  restockingFeeSchema,
  MAX_RETURN_WINDOW_DAYS,
  returnWindowsAnswerSchema,
  returnWindowsSchema,
  returnableSchema,
  returnDecisionSchema,
  returnPhotoParamsSchema,
  returnPhotoSchema,
  returnRequestSchema,
  returnSchema,
  returnsQuerySchema,
  type ReceiveReturnInput,
  type Return,
} from "../../contract/returns";
import { errorAnswers } from "../api-errors";
import { pagedListRoute } from "../http/page";
import { adminRoute, caller, type Guards } from "../http/request-context";
import { settingRoutes } from "../http/setting-routes";
import { privatePhotoRoutes } from "../photos/routes";
import { returnPhotoRule, type ReturnPhotoService } from "./photos";
import { documentPdfRoute } from "../invoices/routes";
import { orderReadRoutes } from "../orders/read-routes";
import type { ReturnService } from "./service";

const errors = errorAnswers(400, 401, 403, 404, 409, 422, 429);

/** Returns, their refunds and credit notes (docs/returns.md). */
export const returnRoutes: FastifyPluginAsyncZod<{
  returns: ReturnService;
  /** Receiving a return and retrying its refund (workflows/receive-return.ts). */
  receiving: {
    receive(
      id: string,
      actor: { id: string; email: string },
      input?: ReceiveReturnInput,
    ): Promise<Return>;
    retryRefund(id: string, actor: { id: string; email: string }): Promise<Return>;
  };
  photos: ReturnPhotoService;
  guards: Guards;
}> = async (app, { returns, receiving, photos, guards }) => {
  const orderRead = orderReadRoutes(app, guards, ["returns"], errors);
  orderRead(
    "/orders/:id/returnable",
    "What of the order can still be returned, and until when (owner or admin)",
    returnableSchema,
    (id, viewer) => returns.returnable(id, viewer),
  );
  orderRead(
    "/orders/:id/returns",
    "The order's returns and their status (owner or admin)",
    z.array(returnSchema),
    (id, viewer) => returns.forOrder(id, viewer),
  );

  app.post(
    "/orders/:id/returns",
    {
      schema: {
        tags: ["returns"],
        summary: "Ask to return lines of your shipped order, within the return window",
        params: idParamsSchema,
        body: returnRequestSchema,
        response: { 201: returnSchema, ...errors },
      },
      onRequest: guards.signedIn,
      config: { idempotent: true },
    },
    async (req, reply) => {
      const made = await returns.request(req.params.id, caller(req), req.body);
      return reply.status(201).send(made);
    },
  );

  orderReadRoutes(app, guards, ["returns", "invoices"], errors)(
    "/orders/:id/credit-notes",
    "The order's credit notes (refunds), oldest first (owner or admin)",
    z.array(creditNoteSchema),
    (id, viewer) => returns.creditNotes(id, viewer),
  );

  documentPdfRoute(
    app,
    guards,
    "/credit-notes/:id/pdf",
    {
      tags: ["returns", "invoices"],
      summary: "A credit note as a PDF (the order's owner or an admin)",
      document: "The credit note, a PDF document",
      errors,
    },
    (id, viewer) => returns.creditNotePdf(id, viewer),
  );

  pagedListRoute(
    app,
    "/returns",
    {
      tags: ["returns", "admin"],
      summary: "Admin: return requests, newest first, paged; the total is in X-Total-Count",
      querystring: returnsQuerySchema,
      item: returnSchema,
      errors,
      ...adminRoute(guards, "orders:read"),
    },
    (query) => returns.list(query),
  );

  app.post(
    "/returns/:id/decision",
    {
      schema: {
        tags: ["returns", "admin"],
        summary: "Admin: approve a return (instructions emailed) or refuse it with a message",
        params: idParamsSchema,
        body: returnDecisionSchema,
        response: { 200: returnSchema, ...errors },
      },
      ...adminRoute(guards, "orders:write"),
    },
    async (req) => returns.decide(req.params.id, req.body, caller(req)),
  );

  app.post(
    "/returns/:id/receive",
    {
      schema: {
        tags: ["returns", "admin"],
        summary:
          "Admin: the parts arrived (per line: how many, their condition): what came back as new " +
          "goes back on sale, the refund (after any restocking fee) through the gateway, a credit " +
          "note issued. Without a body, every line arrived in full, as new",
        params: idParamsSchema,
        body: receiveReturnSchema.nullish(),
        response: { 200: returnSchema, ...errors },
      },
      ...adminRoute(guards, "orders:write"),
    },
    async (req) => receiving.receive(req.params.id, caller(req), req.body ?? undefined),
  );

  settingRoutes(app, "/returns/restocking-fee", {
    tags: ["returns", "admin"],
    body: restockingFeeSchema,
    answer: restockingFeeSchema,
    errors,
    onRequest: guards.adminOnly,
    readSummary: "Admin: the restocking-fee rule (percent, and the conditions it applies to)",
    read: () => returns.restockingFee(),
    setSummary: "Admin: set the restocking-fee rule (returns received from now on)",
    set: (body, me) => returns.setRestockingFee(body, me),
  });

  settingRoutes(app, "/returns/windows", {
    tags: ["returns", "admin"],
    body: returnWindowsSchema,
    answer: returnWindowsAnswerSchema,
    errors,
    onRequest: guards.adminOnly,
    readSummary:
      "Admin: the return windows: days after a line ships that its customer may ask to return it (`days`) and send back its core for the deposit (`coreDays`), 0: none; `updatedAt` null: never saved, RETURN_WINDOW_DAYS and CORE_RETURN_WINDOW_DAYS",
    read: () => returns.returnWindows(),
    setSummary: `Admin: set the return windows (0–${MAX_RETURN_WINDOW_DAYS} days each), for every order from now on`,
    set: (body, me) => returns.setReturnWindows(body, me),
  });

  app.post(
    "/returns/:id/refund",
    {
      schema: {
        tags: ["returns", "admin"],
        summary: "Admin: retry a return's failed refund (it cannot refund twice)",
        params: idParamsSchema,
        response: { 200: returnSchema, ...errors },
      },
      ...adminRoute(guards, "orders:write"),
    },
    async (req) => receiving.retryRefund(req.params.id, caller(req)),
  );

  app.get(
    "/returns/fitment-report",
    {
      schema: {
        tags: ["returns", "admin"],
        summary: 'Admin: "did not fit" returns per product, with the vehicles given',
        response: { 200: fitmentReportSchema, ...errors },
      },
      ...adminRoute(guards, "orders:read"),
    },
    async () => returns.fitmentReport(),
  );

  await privatePhotoRoutes(app, "/returns/:id/photos", {
    tags: ["returns"],
    who: { onRequest: guards.signedIn },
    rule: returnPhotoRule,
    photo: returnPhotoSchema,
    photoParams: returnPhotoParamsSchema,
    errors,
    photoSummary: "A photo of a return (its customer or an admin), shown inline",
    read: (id, photoId, req) => photos.read(id, photoId, caller(req)),
    addSummary:
      "Add photos to your return while it awaits an answer: multipart field `photos`, " +
      "JPEG/PNG/WebP up to 2 MiB each, 3 per return",
    add: (id, uploads, req) => photos.add(id, caller(req), uploads),
  });
};
