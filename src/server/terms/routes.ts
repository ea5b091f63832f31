import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { companyRoles, seesCompanyInvoices } from "../../contract/companies";
import { idParamsSchema } from "../../contract/common";
import {
  accountInvoiceSchema,
  invoiceListQuerySchema,
  invoicePaymentCreateSchema,
  invoicePaymentParamsSchema,
  invoicePaymentResultSchema,
  invoicePaymentReversalSchema,
  invoicePaymentSchema,
  termsMessages,
} from "../../contract/terms";
import { errorAnswers } from "../api-errors";
import { pagedListRoute } from "../http/page";
import { adminRoute, caller, companyOf, type Guards } from "../http/request-context";
import { forbidden, notFound } from "../errors";
import type { TermsService } from "./service";

/**
 * Net terms: invoices on account and the bank payments recorded (and reversed) against them, for
 * admins; a company's own invoices for its owners and viewers.
 */
export const termsRoutes: FastifyPluginAsyncZod<{
  terms: TermsService;
  guards: Guards;
}> = async (app, { terms, guards }) => {
  // The admin's routes: a read of the invoices on account, or a write (API keys' scopes).
  const reads = adminRoute(guards, "orders:read");
  const writes = adminRoute(guards, "orders:write");
  pagedListRoute(
    app,
    "/invoices",
    {
      tags: ["invoices"],
      summary:
        "Invoices on account (net terms) by status: open (unpaid, overdue included), overdue or paid; paged, total in X-Total-Count (admins)",
      querystring: invoiceListQuerySchema,
      item: accountInvoiceSchema,
      errors: errorAnswers(400, 401, 403),
      ...reads,
    },
    (query) => terms.list(query),
  );

  pagedListRoute(
    app,
    "/company/invoices",
    {
      tags: ["invoices"],
      summary:
        "Your company's invoices on account by status, paged, total in X-Total-Count (its owners and viewers; buyers 403, no company 404)",
      querystring: invoiceListQuerySchema,
      item: accountInvoiceSchema,
      errors: errorAnswers(400, 401, 403, 404),
      onRequest: guards.customerOnly,
      preHandler: guards.companyMember({
        roles: companyRoles.filter(seesCompanyInvoices),
        outsider: () => notFound(termsMessages.noCompany),
        wrongRole: () => forbidden(termsMessages.notForBuyers),
      }),
    },
    (query, req) => terms.list(query, companyOf(req)!.companyId),
  );

  app.post(
    "/invoices/:id/payments",
    {
      schema: {
        tags: ["invoices"],
        summary:
          "Records a bank payment against an invoice on account (admins): over-payment 422, the same reference twice 409",
        params: idParamsSchema,
        body: invoicePaymentCreateSchema,
        response: {
          201: invoicePaymentResultSchema,
          ...errorAnswers(400, 401, 403, 404, 409, 422),
        },
      },
      ...writes,
    },
    async (req, reply) => {
      const admin = caller(req);
      // The caller itself: the audit row names the API key it came through, if any.
      const result = await terms.recordPayment(admin, req.params.id, req.body);
      return reply.code(201).send(result);
    },
  );

  app.get(
    "/invoices/:id/payments",
    {
      schema: {
        tags: ["invoices"],
        summary:
          "The bank payments recorded against an invoice on account, oldest first, reversed ones included (admins)",
        params: idParamsSchema,
        response: { 200: z.array(invoicePaymentSchema), ...errorAnswers(400, 401, 403, 404) },
      },
      ...reads,
    },
    async (req) => terms.payments(req.params.id),
  );

  app.post(
    "/invoices/:id/payments/:paymentId/reverse",
    {
      schema: {
        tags: ["invoices"],
        summary:
          "Reverses a payment recorded by mistake, with the reason (admins): it stops counting, the record stays; reversed already 409",
        params: invoicePaymentParamsSchema,
        body: invoicePaymentReversalSchema,
        response: {
          200: invoicePaymentResultSchema,
          ...errorAnswers(400, 401, 403, 404, 409),
        },
      },
      ...writes,
    },
    async (req) => {
      const admin = caller(req);
      return terms.reversePayment(admin, req.params.id, req.params.paymentId, req.body);
    },
  );
};
