import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema } from "../../contract/common";
import { invoiceSummarySchema } from "../../contract/invoices";
import { errorAnswers } from "../api-errors";
import { caller, type Guards } from "../http/request-context";
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

  app.get(
    "/orders/:id/invoice.pdf",
    {
      schema: {
        tags: ["orders", "invoices"],
        summary: "The order's invoice as a PDF (404 until the order is paid)",
        params: idParamsSchema,
        produces: ["application/pdf"],
        response: { 200: z.string().describe("The invoice, a PDF document"), ...errors },
      },
      onRequest: guards.signedIn,
    },
    async (req, reply) => {
      const { filename, bytes } = await invoices.pdf(req.params.id, caller(req));
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
};
