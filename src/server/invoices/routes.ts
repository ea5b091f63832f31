import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import { invoiceSummarySchema } from "../../contract/invoices";
import { errorAnswers } from "../api-errors";
import type { RouteApp } from "../http/page";
import { caller, type Guards, type SessionUser } from "../http/request-context";
import { orderReadRoutes } from "../orders/read-routes";
import type { InvoiceService } from "./service";

const errors = errorAnswers(400, 401, 403, 404, 429);

/** An order's invoice: its summary and its PDF (the order's owner or an admin). */
export const invoiceRoutes: FastifyPluginAsyncZod<{
  invoices: InvoiceService;
  guards: Guards;
}> = async (app, { invoices, guards }) => {
  orderReadRoutes(app, guards, ["orders", "invoices"], errors)(
    "/orders/:id/invoice",
    "The order's invoice: number, issue date, totals (404 until the order is paid)",
    invoiceSummarySchema,
    (id, viewer) => invoices.summary(id, viewer),
  );

  documentPdfRoute(
    app,
    guards,
    "/orders/:id/invoice.pdf",
    {
      tags: ["orders", "invoices"],
      summary: "The order's invoice as a PDF (404 until the order is paid)",
      document: "The invoice, a PDF document",
      errors,
    },
    (id, viewer) => invoices.pdf(id, viewer),
  );
};

/**
 * `GET path`: a document the invoices keep (an invoice, a credit note) as a PDF download, an
 * attachment named as the document that no cache keeps. `pdf` is given the path's id and the
 * signed-in caller, and decides whether they may see it.
 */
export function documentPdfRoute(
  app: RouteApp,
  guards: Guards,
  path: string,
  route: {
    tags: string[];
    summary: string;
    /** What the answer is, in the OpenAPI document ("The invoice, a PDF document"). */
    document: string;
    errors: Record<number, z.ZodType>;
  },
  pdf: (id: string, viewer: SessionUser) => Promise<{ filename: string; bytes: Uint8Array }>,
): void {
  app.get(
    path,
    {
      schema: {
        tags: route.tags,
        summary: route.summary,
        params: idParamsSchema,
        produces: ["application/pdf"],
        response: { 200: z.string().describe(route.document), ...route.errors },
      },
      onRequest: guards.signedIn,
    },
    async (req, reply) => {
      const { filename, bytes } = await pdf(req.params.id, caller(req));
      return (
        reply
          .type("application/pdf")
          .header("content-disposition", `attachment; filename="${filename}"`)
          .header("cache-control", "private, no-store")
          // Fastify sends a Buffer as it is (no serialiser); the schema can only call it a string.
          .send(Buffer.from(bytes) as unknown as string)
      );
    },
  );
}
